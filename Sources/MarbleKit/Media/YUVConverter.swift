/// RGBA8 (premultiplied, composited over black) to planar YUV 4:2:0, BT.709, limited range: what the
/// video encoders take.
///
/// A hand-written kernel rather than swscale: it works on row pairs, so the strip scheduler can split it
/// across cores, and its fixed-point arithmetic (15-bit coefficients, wrapping operations on unsafe
/// pointers) lets the compiler vectorise it. Chroma is the average of each 2x2 block.
public enum YUVConverter {
    // Coefficients of BT.709 (Kr = 0.2126, Kb = 0.0722) scaled to limited range, times 2^15.
    @usableFromInline static let yr: Int32 = 5983, yg: Int32 = 20127, yb: Int32 = 2032
    @usableFromInline static let ur: Int32 = -3298, ug: Int32 = -11094, ub: Int32 = 14392
    @usableFromInline static let vr: Int32 = 14392, vg: Int32 = -13073, vb: Int32 = -1319

    /// Planes to write into, as handed over by the encoder's frame.
    public struct Planes: @unchecked Sendable {
        // Safety of @unchecked Sendable: concurrent callers convert disjoint row-pair ranges, so each
        // thread writes different bytes of these planes.
        public var y: UnsafeMutablePointer<UInt8>, u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>
        public var yStride: Int, uStride: Int, vStride: Int
        public init(y: UnsafeMutablePointer<UInt8>, yStride: Int, u: UnsafeMutablePointer<UInt8>, uStride: Int,
                    v: UnsafeMutablePointer<UInt8>, vStride: Int) {
            self.y = y; self.u = u; self.v = v
            self.yStride = yStride; self.uStride = uStride; self.vStride = vStride
        }
    }

    /// Converts the row pairs `pairs` (row pair k = rows 2k and 2k+1). Width and height must be even.
    public static func convert(_ source: TextureView, into planes: Planes, pairs: Range<Int>) {
        let half = source.width / 2
        for pair in pairs {
            let r0 = source.row(2 &* pair), r1 = source.row(2 &* pair &+ 1)
            let y0 = planes.y + (2 &* pair) &* planes.yStride, y1 = y0 + planes.yStride
            let u = planes.u + pair &* planes.uStride, v = planes.v + pair &* planes.vStride
            for x in 0..<half {
                let o = x &* 8
                let ra = Int32(r0[o]), ga = Int32(r0[o &+ 1]), ba = Int32(r0[o &+ 2])
                let rb = Int32(r0[o &+ 4]), gb = Int32(r0[o &+ 5]), bb = Int32(r0[o &+ 6])
                let rc = Int32(r1[o]), gc = Int32(r1[o &+ 1]), bc = Int32(r1[o &+ 2])
                let rd = Int32(r1[o &+ 4]), gd = Int32(r1[o &+ 5]), bd = Int32(r1[o &+ 6])
                y0[2 &* x] = luma(ra, ga, ba)
                y0[2 &* x &+ 1] = luma(rb, gb, bb)
                y1[2 &* x] = luma(rc, gc, bc)
                y1[2 &* x &+ 1] = luma(rd, gd, bd)
                let rs = ra &+ rb &+ rc &+ rd, gs = ga &+ gb &+ gc &+ gd, bs = ba &+ bb &+ bc &+ bd
                // Sums of four pixels: shift by 2 more bits than for one.
                u[x] = UInt8(truncatingIfNeeded: (ur &* rs &+ ug &* gs &+ ub &* bs &+ (128 << 17) &+ (1 << 16)) >> 17)
                v[x] = UInt8(truncatingIfNeeded: (vr &* rs &+ vg &* gs &+ vb &* bs &+ (128 << 17) &+ (1 << 16)) >> 17)
            }
        }
    }

    @inline(__always) @usableFromInline
    static func luma(_ r: Int32, _ g: Int32, _ b: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: (yr &* r &+ yg &* g &+ yb &* b &+ (16 << 15) &+ (1 << 14)) >> 15)
    }
}
