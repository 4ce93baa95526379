/// RGBA8 (premultiplied, composited over black) to planar YUV 4:2:0, BT.709, limited range: what the
/// video encoders take. The kernel itself; `YUVConverter` in MarbleKit picks this build of it or the
/// AVX2 build (target KernelsAVX2, which inlines this same code) at run time.
///
/// Hand-written rather than swscale: it works on row pairs, so the strip scheduler can split it across
/// cores, and the compositor runs it band by band while the rows are in cache. Sixteen pixels at a time
/// in 16-bit lanes, whose multiplies are native on SSE2 (two registers a vector) and AVX2 (one), with
/// 8-bit fixed-point coefficients (at most one level from exact on Y, exact on chroma for grey).
/// Channels come out of each 32-bit pixel with masks and shifts; chroma is the rounded average of each
/// 2x2 block. A scalar loop handles a width that is not a multiple of sixteen.
/// Measured at 1080p on one core: eight pixels a step took 0.97 ms (SSE2) / 0.67 ms (AVX2), sixteen
/// take 0.69 / 0.47; thirty-two fall off Swift's concrete SIMD types onto generic code and take 100 ms
/// (so did a byte-shuffle formulation with SIMD64, 40x slower).
///
/// Everything is `@inlinable` so that another module compiled for a newer CPU gets its own copy; public,
/// not `package`, for the same reason as ``FilmGrade``.
public enum YUV420 {
    // BT.709 (Kr = 0.2126, Kb = 0.0722) scaled to limited range (219/255 luma, 224/255 chroma), × 256.
    // Chroma rows sum to zero so that grey maps to exactly 128.
    /// Luma coefficient of red, × 256.
    @inlinable public static var yr: UInt16 { 47 }
    /// Luma coefficient of green, × 256.
    @inlinable public static var yg: UInt16 { 157 }
    /// Luma coefficient of blue, × 256.
    @inlinable public static var yb: UInt16 { 16 }
    /// U (Cb) coefficient of red, × 256.
    @inlinable public static var ur: Int32 { -26 }
    /// U (Cb) coefficient of green, × 256.
    @inlinable public static var ug: Int32 { -86 }
    /// U (Cb) coefficient of blue, × 256.
    @inlinable public static var ub: Int32 { 112 }
    /// V (Cr) coefficient of red, × 256.
    @inlinable public static var vr: Int32 { 112 }
    /// V (Cr) coefficient of green, × 256.
    @inlinable public static var vg: Int32 { -102 }
    /// V (Cr) coefficient of blue, × 256.
    @inlinable public static var vb: Int32 { -10 }

    /// Planes to write into, as handed over by the encoder's frame.
    @frozen public struct Planes: @unchecked Sendable {
        // Safety of @unchecked Sendable: concurrent callers convert disjoint row-pair ranges, so each
        // thread writes different bytes of these planes.
        /// The first byte of each plane: Y at full size, U and V at half width and half height.
        public var y: UnsafeMutablePointer<UInt8>, u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>
        /// Bytes between rows of each plane.
        public var yStride: Int, uStride: Int, vStride: Int
        /// Planes at these addresses and strides, owned by the caller.
        public init(y: UnsafeMutablePointer<UInt8>, yStride: Int, u: UnsafeMutablePointer<UInt8>, uStride: Int,
                    v: UnsafeMutablePointer<UInt8>, vStride: Int) {
            self.y = y; self.u = u; self.v = v
            self.yStride = yStride; self.uStride = uStride; self.vStride = vStride
        }
    }

    /// Sixteen packed RGBA pixels.
    public typealias Pixels = SIMD16<UInt32>
    /// Sixteen 16-bit lanes: one channel of sixteen pixels.
    public typealias Lanes = SIMD16<UInt16>
    /// Eight 16-bit lanes: one chroma value per 2×2 block of sixteen pixels.
    public typealias Half = SIMD8<UInt16>

    /// Converts the row pairs `pairs` (row pair k = rows 2k and 2k+1). Width and height must be even.
    @inlinable @inline(__always)
    public static func convert(_ source: TextureView, into planes: Planes, pairs: Range<Int>) {
        let width = source.width
        let vectorWidth = width & ~15
        let mask = Pixels(repeating: 0xFF)
        let yR = Lanes(repeating: yr), yG = Lanes(repeating: yg), yB = Lanes(repeating: yb)
        let yOffset = Lanes(repeating: 16 * 256 + 128)
        let uR = Half(repeating: UInt16(truncatingIfNeeded: ur)), uG = Half(repeating: UInt16(truncatingIfNeeded: ug))
        let uB = Half(repeating: UInt16(truncatingIfNeeded: ub))
        let vR = Half(repeating: UInt16(truncatingIfNeeded: vr)), vG = Half(repeating: UInt16(truncatingIfNeeded: vg))
        let vB = Half(repeating: UInt16(truncatingIfNeeded: vb))
        let cOffset = Half(repeating: 128 * 256 + 128), two = Half(repeating: 2)
        for pair in pairs {
            let r0 = UnsafeRawPointer(source.row(2 &* pair)), r1 = UnsafeRawPointer(source.row(2 &* pair &+ 1))
            let y0 = planes.y + (2 &* pair) &* planes.yStride, y1 = y0 + planes.yStride
            let u = planes.u + pair &* planes.uStride, v = planes.v + pair &* planes.vStride
            if let pixel = uniformPixel(r0, r1, width: width) {
                fillUniform(pixel, y0, y1, u, v, width: width)
                continue
            }
            var x = 0
            while x < vectorWidth {
                let a = r0.loadUnaligned(fromByteOffset: x &* 4, as: Pixels.self)
                let b = r1.loadUnaligned(fromByteOffset: x &* 4, as: Pixels.self)
                let ra = Lanes(truncatingIfNeeded: a & mask), ga = Lanes(truncatingIfNeeded: (a &>> 8) & mask)
                let ba = Lanes(truncatingIfNeeded: (a &>> 16) & mask)
                let rb = Lanes(truncatingIfNeeded: b & mask), gb = Lanes(truncatingIfNeeded: (b &>> 8) & mask)
                let bb = Lanes(truncatingIfNeeded: (b &>> 16) & mask)
                let lumaA = (ra &* yR &+ ga &* yG &+ ba &* yB &+ yOffset) &>> 8
                let lumaB = (rb &* yR &+ gb &* yG &+ bb &* yB &+ yOffset) &>> 8
                UnsafeMutableRawPointer(y0 + x).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: lumaA), as: SIMD16<UInt8>.self)
                UnsafeMutableRawPointer(y1 + x).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: lumaB), as: SIMD16<UInt8>.self)
                let rs = ra &+ rb, gs = ga &+ gb, bs = ba &+ bb
                let r = (rs.evenHalf &+ rs.oddHalf &+ two) &>> 2
                let g = (gs.evenHalf &+ gs.oddHalf &+ two) &>> 2
                let bl = (bs.evenHalf &+ bs.oddHalf &+ two) &>> 2
                // Wrapping 16-bit arithmetic: the true sums lie in 0…65 535, so the wrap cancels out.
                let cb = (r &* uR &+ g &* uG &+ bl &* uB &+ cOffset) &>> 8
                let cr = (r &* vR &+ g &* vG &+ bl &* vB &+ cOffset) &>> 8
                UnsafeMutableRawPointer(u + x / 2).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: cb), as: SIMD8<UInt8>.self)
                UnsafeMutableRawPointer(v + x / 2).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: cr), as: SIMD8<UInt8>.self)
                x &+= 16
            }
            while x < width {
                convertBlock(r0.assumingMemoryBound(to: UInt8.self) + x &* 4, r1.assumingMemoryBound(to: UInt8.self) + x &* 4,
                             y0 + x, y1 + x, u + x / 2, v + x / 2)
                x &+= 2
            }
        }
    }

    /// The pixel of a row pair whose pixels are all that one (a flat background, a vertical gradient's
    /// rows not drawn over), or nil: checked sixteen pixels at a time, giving up at the first chunk that
    /// differs, which on a drawn row is near its start. About a tenth of a conversion's work.
    @inlinable @inline(__always)
    public static func uniformPixel(_ r0: UnsafeRawPointer, _ r1: UnsafeRawPointer, width: Int) -> UInt32? {
        let first = r0.load(as: UInt32.self)
        let splat = Pixels(repeating: first)
        var x = 0
        while x < width & ~15 {
            let a = r0.loadUnaligned(fromByteOffset: x &* 4, as: Pixels.self)
            let b = r1.loadUnaligned(fromByteOffset: x &* 4, as: Pixels.self)
            if ((a ^ splat) | (b ^ splat)).max() != 0 { return nil }
            x &+= 16
        }
        while x < width {
            if r0.load(fromByteOffset: x &* 4, as: UInt32.self) != first || r1.load(fromByteOffset: x &* 4, as: UInt32.self) != first {
                return nil
            }
            x &+= 1
        }
        return first
    }

    /// A row pair of one `pixel`: its Y on both rows, its U and V across the chroma row, from the
    /// block arithmetic (the rounded average of four equal pixels is that pixel), so the bytes are
    /// those of the vector loop.
    @inlinable @inline(__always)
    public static func fillUniform(_ pixel: UInt32, _ y0: UnsafeMutablePointer<UInt8>, _ y1: UnsafeMutablePointer<UInt8>,
                                   _ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>, width: Int) {
        fillRows(pixel, pixel, y0, y1, u, v, width: width)
    }

    /// A row pair whose upper row is all `top` and lower row all `bottom`: each row's Y, and the U and V
    /// of every 2×2 block (two of each), rounded as the vector loop averages a block, so the bytes are
    /// those of the vector loop.
    @inlinable @inline(__always)
    public static func fillRows(_ top: UInt32, _ bottom: UInt32, _ y0: UnsafeMutablePointer<UInt8>,
                                _ y1: UnsafeMutablePointer<UInt8>, _ u: UnsafeMutablePointer<UInt8>,
                                _ v: UnsafeMutablePointer<UInt8>, width: Int) {
        @inline(__always) func channel(_ p: UInt32, _ shift: UInt32) -> Int32 { Int32((p >> shift) & 0xFF) }
        y0.update(repeating: luma(channel(top, 0), channel(top, 8), channel(top, 16)), count: width)
        y1.update(repeating: luma(channel(bottom, 0), channel(bottom, 8), channel(bottom, 16)), count: width)
        @inline(__always) func average(_ shift: UInt32) -> Int32 { (2 &* channel(top, shift) &+ 2 &* channel(bottom, shift) &+ 2) >> 2 }
        let r = average(0), g = average(8), b = average(16)
        u.update(repeating: chromaU(r, g, b), count: width / 2)
        v.update(repeating: chromaV(r, g, b), count: width / 2)
    }

    /// One pixel's Y, and a 2x2 block's U and V from its average colour: the scalar arithmetic every
    /// path shares.
    @inlinable @inline(__always)
    static func luma(_ r: Int32, _ g: Int32, _ b: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: (Int32(yr) &* r &+ Int32(yg) &* g &+ Int32(yb) &* b &+ 16 * 256 &+ 128) >> 8)
    }

    @inlinable @inline(__always)
    static func chromaU(_ r: Int32, _ g: Int32, _ b: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: (ur &* r &+ ug &* g &+ ub &* b &+ 128 * 256 &+ 128) >> 8)
    }

    @inlinable @inline(__always)
    static func chromaV(_ r: Int32, _ g: Int32, _ b: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: (vr &* r &+ vg &* g &+ vb &* b &+ 128 * 256 &+ 128) >> 8)
    }

    /// The portable reference: one 2x2 block, the same arithmetic as the vector loop.
    @inlinable @inline(__always)
    public static func convertBlock(_ r0: UnsafePointer<UInt8>, _ r1: UnsafePointer<UInt8>, _ y0: UnsafeMutablePointer<UInt8>,
                             _ y1: UnsafeMutablePointer<UInt8>, _ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>) {
        @inline(__always) func luma(_ p: UnsafePointer<UInt8>) -> UInt8 { Self.luma(Int32(p[0]), Int32(p[1]), Int32(p[2])) }
        y0[0] = luma(r0); y0[1] = luma(r0 + 4)
        y1[0] = luma(r1); y1[1] = luma(r1 + 4)
        @inline(__always) func average(_ c: Int) -> Int32 {
            (Int32(r0[c]) &+ Int32(r0[c &+ 4]) &+ Int32(r1[c]) &+ Int32(r1[c &+ 4]) &+ 2) >> 2
        }
        let r = average(0), g = average(1), b = average(2)
        u[0] = chromaU(r, g, b)
        v[0] = chromaV(r, g, b)
    }
}
