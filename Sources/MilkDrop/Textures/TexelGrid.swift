/// RGBA8 texels in memory (R in the low byte of each 32-bit word), and the batched reads every
/// ``ShaderTexture`` is made of: bilinear or nearest, wrapped or clamped, 2-D or trilinear 3-D, with
/// Direct3D's texel convention (texel i's centre at (i + 0.5) / size).
///
/// Bilinear weights have 8 fractional bits, as texture units filter; the sums are kept in integers
/// (16 bits below the byte in 2-D, 24 in 3-D), so a filtered value is not rounded to a byte: a shader
/// that multiplies noise by 16 sees smooth ramps, not steps of 16/255. Coordinates that are NaN or
/// infinite read some texel of the texture (never outside it).
///
/// A grid is a plain value over memory its owner keeps alive and unchanged while anyone samples it;
/// sampling only reads, so any number of threads may sample at once.
struct TexelGrid {
    /// Texel (0, 0, 0).
    var base: UnsafePointer<UInt32>
    var width: Int, height: Int, depth: Int
    /// Distance between rows, and between slices, in texels.
    var rowStride: Int, sliceStride: Int

    /// 1 / 255 (a byte's weight), and the weights of a bilinear sum (255 × 2¹⁶) and of a trilinear one (255 × 2²⁴).
    static let byteScale: Float = 1 / 255
    static let bilinearScale: Float = 1 / (255 * 65536)
    static let trilinearScale: Float = 1 / (255 * 16_777_216)

    /// Reads `count` lanes (see ``ShaderTexture/sample(mode:count:u:v:w:r:g:b:a:)``).
    func sample(mode: SamplerMode, count: Int,
                u: UnsafePointer<Float>, v: UnsafePointer<Float>, w: UnsafePointer<Float>?,
                r: UnsafeMutablePointer<Float>?, g: UnsafeMutablePointer<Float>?,
                b: UnsafeMutablePointer<Float>?, a: UnsafeMutablePointer<Float>?) {
        guard count > 0 else { return }
        let out = Channels(r: r, g: g, b: b, a: a)
        if let w, depth > 1 {
            if mode.bilinear {
                mode.wraps ? trilinear(true, count, u, v, w, out) : trilinear(false, count, u, v, w, out)
            } else {
                mode.wraps ? nearest3D(true, count, u, v, w, out) : nearest3D(false, count, u, v, w, out)
            }
        } else if mode.bilinear {
            mode.wraps ? bilinear(true, count, u, v, out) : bilinear(false, count, u, v, out)
        } else {
            mode.wraps ? nearest(true, count, u, v, out) : nearest(false, count, u, v, out)
        }
    }

    // MARK: the four loops (each is specialised for `wraps` where it is called with a constant)

    @inline(__always)
    private func bilinear(_ wraps: Bool, _ count: Int, _ u: UnsafePointer<Float>, _ v: UnsafePointer<Float>, _ out: Channels) {
        let xAxis = SampleAxis(size: width), yAxis = SampleAxis(size: height)
        let base = self.base, stride = rowStride
        for i in 0..<count {
            let (x0, x1, fx) = xAxis.linear(u[i], wraps: wraps)
            let (y0, y1, fy) = yAxis.linear(v[i], wraps: wraps)
            let row0 = base + y0 &* stride, row1 = base + y1 &* stride
            let (lo, hi) = TexelGrid.blend(row0[x0], row0[x1], row1[x0], row1[x1], fx, fy)
            out.store(i, lo, hi, TexelGrid.bilinearScale)
        }
    }

    @inline(__always)
    private func nearest(_ wraps: Bool, _ count: Int, _ u: UnsafePointer<Float>, _ v: UnsafePointer<Float>, _ out: Channels) {
        let xAxis = SampleAxis(size: width), yAxis = SampleAxis(size: height)
        let base = self.base, stride = rowStride
        for i in 0..<count {
            let x = xAxis.nearest(u[i], wraps: wraps), y = yAxis.nearest(v[i], wraps: wraps)
            out.store(i, base[y &* stride &+ x])
        }
    }

    @inline(__always)
    private func trilinear(_ wraps: Bool, _ count: Int, _ u: UnsafePointer<Float>, _ v: UnsafePointer<Float>,
                           _ w: UnsafePointer<Float>, _ out: Channels) {
        let xAxis = SampleAxis(size: width), yAxis = SampleAxis(size: height), zAxis = SampleAxis(size: depth)
        let base = self.base, stride = rowStride, slice = sliceStride
        for i in 0..<count {
            let (x0, x1, fx) = xAxis.linear(u[i], wraps: wraps)
            let (y0, y1, fy) = yAxis.linear(v[i], wraps: wraps)
            let (z0, z1, fz) = zAxis.linear(w[i], wraps: wraps)
            let near = base + z0 &* slice, far = base + z1 &* slice
            let a0 = near + y0 &* stride, a1 = near + y1 &* stride
            let b0 = far + y0 &* stride, b1 = far + y1 &* stride
            let (lo0, hi0) = TexelGrid.blend(a0[x0], a0[x1], a1[x0], a1[x1], fx, fy)
            let (lo1, hi1) = TexelGrid.blend(b0[x0], b0[x1], b1[x0], b1[x1], fx, fy)
            // Fields of at most 255 × 2¹⁶, times weights summing to 256: at most 255 × 2²⁴, still in 32 bits.
            let gz = 256 &- fz
            out.store(i, lo0 &* gz &+ lo1 &* fz, hi0 &* gz &+ hi1 &* fz, TexelGrid.trilinearScale)
        }
    }

    @inline(__always)
    private func nearest3D(_ wraps: Bool, _ count: Int, _ u: UnsafePointer<Float>, _ v: UnsafePointer<Float>,
                           _ w: UnsafePointer<Float>, _ out: Channels) {
        let xAxis = SampleAxis(size: width), yAxis = SampleAxis(size: height), zAxis = SampleAxis(size: depth)
        let base = self.base, stride = rowStride, slice = sliceStride
        for i in 0..<count {
            let x = xAxis.nearest(u[i], wraps: wraps), y = yAxis.nearest(v[i], wraps: wraps)
            let z = zAxis.nearest(w[i], wraps: wraps)
            out.store(i, base[z &* slice &+ y &* stride &+ x])
        }
    }

    /// The bilinear sum of four texels with weights in 1/256: red and blue of the result in the 32-bit
    /// halves of `lo`, green and alpha in those of `hi`, each at most 255 × 2¹⁶.
    @inline(__always)
    static func blend(_ p00: UInt32, _ p01: UInt32, _ p10: UInt32, _ p11: UInt32,
                      _ fx: UInt64, _ fy: UInt64) -> (lo: UInt64, hi: UInt64) {
        let gx = UInt32(truncatingIfNeeded: 256 &- fx), fx32 = UInt32(truncatingIfNeeded: fx)
        // Across: two channels a word, each at most 255 × 256 (below 2¹⁶, so the fields never carry).
        let topLo = (p00 & 0x00FF_00FF) &* gx &+ (p01 & 0x00FF_00FF) &* fx32
        let topHi = ((p00 >> 8) & 0x00FF_00FF) &* gx &+ ((p01 >> 8) & 0x00FF_00FF) &* fx32
        let botLo = (p10 & 0x00FF_00FF) &* gx &+ (p11 & 0x00FF_00FF) &* fx32
        let botHi = ((p10 >> 8) & 0x00FF_00FF) &* gx &+ ((p11 >> 8) & 0x00FF_00FF) &* fx32
        // Down: the fields widened to 32 bits.
        let gy = 256 &- fy
        return (widen(topLo) &* gy &+ widen(botLo) &* fy, widen(topHi) &* gy &+ widen(botHi) &* fy)
    }

    /// Two 16-bit fields of a word moved to the two 32-bit halves of a 64-bit word.
    @inline(__always)
    static func widen(_ x: UInt32) -> UInt64 { UInt64(x & 0xFFFF) | UInt64(x >> 16) << 32 }
}

/// The output pointers of a read (nil: that channel is not wanted).
private struct Channels {
    let r: UnsafeMutablePointer<Float>?, g: UnsafeMutablePointer<Float>?
    let b: UnsafeMutablePointer<Float>?, a: UnsafeMutablePointer<Float>?

    /// A filtered texel: red and blue in the halves of `lo`, green and alpha in those of `hi`, times `scale`.
    @inline(__always)
    func store(_ i: Int, _ lo: UInt64, _ hi: UInt64, _ scale: Float) {
        r?[i] = Float(Int64(bitPattern: lo & 0xFFFF_FFFF)) * scale
        g?[i] = Float(Int64(bitPattern: hi & 0xFFFF_FFFF)) * scale
        b?[i] = Float(Int64(bitPattern: lo >> 32)) * scale
        a?[i] = Float(Int64(bitPattern: hi >> 32)) * scale
    }

    /// One texel as it is.
    @inline(__always)
    func store(_ i: Int, _ p: UInt32) {
        r?[i] = Float(Int32(bitPattern: p & 0xFF)) * TexelGrid.byteScale
        g?[i] = Float(Int32(bitPattern: (p >> 8) & 0xFF)) * TexelGrid.byteScale
        b?[i] = Float(Int32(bitPattern: (p >> 16) & 0xFF)) * TexelGrid.byteScale
        a?[i] = Float(Int32(bitPattern: p >> 24)) * TexelGrid.byteScale
    }
}

/// Where a coordinate (0…1 across the texture) falls along one axis of `size` texels.
struct SampleAxis {
    let size: Int
    /// `size` × 256 (a coordinate in 1/256 texels), and `size`, as floats.
    let fixedScale: Float, floatSize: Float

    init(size: Int) {
        self.size = size
        fixedScale = Float(size * 256)
        floatSize = Float(size)
    }

    /// The coordinate's fractional part in 0…1 (a NaN or a huge value becomes something in range).
    @inline(__always)
    static func fraction(_ c: Float) -> Float {
        let bounded: Float = c > -8_388_608 ? (c < 8_388_608 ? c : 0) : 0
        let f = bounded - Float(Int(bounded))
        return f < 0 ? f + 1 : f
    }

    /// The coordinate clamped to 0…1 (NaN → 0).
    @inline(__always)
    static func clamp(_ c: Float) -> Float { c > 0 ? (c < 1 ? c : 1) : 0 }

    /// The two texels a bilinear read blends and the weight of the second, in 0…255.
    @inline(__always)
    func linear(_ c: Float, wraps: Bool) -> (Int, Int, UInt64) {
        if wraps {
            // In 1/256 texels, half a texel back (centres at i + 0.5), one turn up so it stays positive.
            let t = Int(SampleAxis.fraction(c) * fixedScale) &+ (size &* 256 &- 128)
            var i0 = t >> 8
            if i0 >= size { i0 &-= size }   // (a fraction that rounded up to 1 lands on size − 1)
            let i1 = i0 &+ 1 == size ? 0 : i0 &+ 1
            return (i0, i1, UInt64(truncatingIfNeeded: t & 255))
        }
        let t = Int(SampleAxis.clamp(c) * fixedScale) &- 128
        let i = t >> 8   // −1 … size − 1
        return (i < 0 ? 0 : i, i &+ 1 < size ? i &+ 1 : size &- 1, UInt64(truncatingIfNeeded: t & 255))
    }

    /// The texel a point read takes: the one the coordinate falls in.
    @inline(__always)
    func nearest(_ c: Float, wraps: Bool) -> Int {
        let i = Int((wraps ? SampleAxis.fraction(c) : SampleAxis.clamp(c)) * floatSize)
        if i >= size { return wraps ? i &- size : size &- 1 }
        return i
    }
}
