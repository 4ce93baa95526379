/// RGBA8 texels in memory (R in the low byte of each 32-bit word), and the batched reads every
/// ``ShaderTexture`` is made of: bilinear or nearest, wrapped or clamped, 2-D or trilinear 3-D, with
/// Direct3D's texel convention (texel i's centre at (i + 0.5) / size).
///
/// Bilinear weights have 8 fractional bits, as texture units filter; the sums are kept in integers
/// (16 bits below the byte in 2-D, 24 in 3-D), so a filtered value is not rounded to a byte: a shader
/// that multiplies noise by 16 sees smooth ramps, not steps of 16/255. Coordinates that are NaN or
/// infinite read some texel of the texture (never outside it); a wrapped coordinate beyond
/// ± 2³⁰ / (size × 256) (± 3276 across 1280 texels, where a float no longer holds a texel's
/// position anyway) is read as 0.
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

    /// Reads `count` lanes one at a time (see ``ShaderTexture/sample(mode:count:u:v:w:r:g:b:a:)``): the
    /// reference that ``sample(mode:count:u:v:w:r:g:b:a:)`` (8 lanes at a time, `TexelGridLanes.swift`)
    /// must match bit for bit, and what it falls back to for lanes outside its fast range.
    func sampleScalar(mode: SamplerMode, count: Int,
                u: UnsafePointer<Float>, v: UnsafePointer<Float>, w: UnsafePointer<Float>?,
                r: UnsafeMutablePointer<Float>?, g: UnsafeMutablePointer<Float>?,
                b: UnsafeMutablePointer<Float>?, a: UnsafeMutablePointer<Float>?) {
        guard count > 0 else { return }
        let out = Channels(r: r, g: g, b: b, a: a)
        if let w, depth > 1 {
            if mode.bilinear {
                mode.wraps ? trilinear(WrapEdge.self, count, u, v, w, out) : trilinear(ClampEdge.self, count, u, v, w, out)
            } else {
                mode.wraps ? nearest3D(WrapEdge.self, count, u, v, w, out) : nearest3D(ClampEdge.self, count, u, v, w, out)
            }
        } else if mode.bilinear {
            mode.wraps ? bilinear(WrapEdge.self, count, u, v, out) : bilinear(ClampEdge.self, count, u, v, out)
        } else {
            mode.wraps ? nearest(WrapEdge.self, count, u, v, out) : nearest(ClampEdge.self, count, u, v, out)
        }
    }

    // MARK: the four loops, each specialised for its edge rule

    private func bilinear<Edge: EdgeRule>(_: Edge.Type, _ count: Int, _ u: UnsafePointer<Float>, _ v: UnsafePointer<Float>, _ out: Channels) {
        let xAxis = SampleAxis(size: width), yAxis = SampleAxis(size: height)
        let base = self.base, stride = rowStride
        for i in 0..<count {
            let (x0, x1, fx) = Edge.linear(u[i], xAxis)
            let (y0, y1, fy) = Edge.linear(v[i], yAxis)
            let row0 = base + y0 &* stride, row1 = base + y1 &* stride
            let (lo, hi) = TexelGrid.blend(row0[x0], row0[x1], row1[x0], row1[x1], fx, fy)
            out.store(i, lo, hi, TexelGrid.bilinearScale)
        }
    }

    private func nearest<Edge: EdgeRule>(_: Edge.Type, _ count: Int, _ u: UnsafePointer<Float>, _ v: UnsafePointer<Float>, _ out: Channels) {
        let xAxis = SampleAxis(size: width), yAxis = SampleAxis(size: height)
        let base = self.base, stride = rowStride
        for i in 0..<count {
            let x = Edge.nearest(u[i], xAxis), y = Edge.nearest(v[i], yAxis)
            out.store(i, base[y &* stride &+ x])
        }
    }

    private func trilinear<Edge: EdgeRule>(_: Edge.Type, _ count: Int, _ u: UnsafePointer<Float>, _ v: UnsafePointer<Float>,
                           _ w: UnsafePointer<Float>, _ out: Channels) {
        let xAxis = SampleAxis(size: width), yAxis = SampleAxis(size: height), zAxis = SampleAxis(size: depth)
        let base = self.base, stride = rowStride, slice = sliceStride
        for i in 0..<count {
            let (x0, x1, fx) = Edge.linear(u[i], xAxis)
            let (y0, y1, fy) = Edge.linear(v[i], yAxis)
            let (z0, z1, fz) = Edge.linear(w[i], zAxis)
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

    private func nearest3D<Edge: EdgeRule>(_: Edge.Type, _ count: Int, _ u: UnsafePointer<Float>, _ v: UnsafePointer<Float>,
                           _ w: UnsafePointer<Float>, _ out: Channels) {
        let xAxis = SampleAxis(size: width), yAxis = SampleAxis(size: height), zAxis = SampleAxis(size: depth)
        let base = self.base, stride = rowStride, slice = sliceStride
        for i in 0..<count {
            let x = Edge.nearest(u[i], xAxis), y = Edge.nearest(v[i], yAxis)
            let z = Edge.nearest(w[i], zAxis)
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
struct Channels {
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

/// One axis of a texture, with what its reads need precomputed.
struct SampleAxis {
    let size: Int
    /// `size` × 256 (coordinates in 1/256 texels), as an integer and as a float; `size` as a float.
    let fixedSize: Int, fixedScale: Float, floatSize: Float
    /// Coordinates beyond ± this are brought in before they are scaled (so the product fits an `Int`
    /// exactly enough, and NaN becomes 0).
    let bound: Float

    init(size: Int) {
        self.size = size
        fixedSize = size * 256
        fixedScale = Float(size * 256)
        floatSize = Float(size)
        bound = Float(1 << 30) / Float(size * 256)
    }
}

/// What a read does at and beyond the edges: MilkDrop's `w` (wrap, Direct3D's WRAP) or `c` (clamp:
/// CLAMP, the edge texel repeats).
protocol EdgeRule {
    /// The two texels a bilinear read at coordinate `c` blends, and the weight of the second in 0…255.
    static func linear(_ c: Float, _ axis: SampleAxis) -> (Int, Int, UInt64)
    /// The texel a point read at `c` takes: the one `c` falls in.
    static func nearest(_ c: Float, _ axis: SampleAxis) -> Int
}

enum WrapEdge: EdgeRule {
    @inline(__always)
    static func linear(_ c: Float, _ axis: SampleAxis) -> (Int, Int, UInt64) {
        // In 1/256 texels, half a texel back (centres at i + 0.5). Inside the texture (the usual case)
        // no division; outside, the remainder of a turn. Truncation toward zero below 0 is off by at
        // most 1/256 texel, the resolution of the weights.
        let bounded: Float = c > -axis.bound ? (c < axis.bound ? c : 0) : 0   // NaN → 0
        var t = Int(bounded * axis.fixedScale) &- 128
        if t < 0 || t >= axis.fixedSize {
            t %= axis.fixedSize
            if t < 0 { t &+= axis.fixedSize }
        }
        let i0 = t >> 8
        let i1 = i0 &+ 1 == axis.size ? 0 : i0 &+ 1
        return (i0, i1, UInt64(truncatingIfNeeded: t & 255))
    }

    @inline(__always)
    static func nearest(_ c: Float, _ axis: SampleAxis) -> Int {
        let bounded: Float = c > -axis.bound ? (c < axis.bound ? c : 0) : 0
        var t = Int(bounded * axis.fixedScale)
        if t < 0 || t >= axis.fixedSize {
            t %= axis.fixedSize
            if t < 0 { t &+= axis.fixedSize }
        }
        return t >> 8
    }
}

enum ClampEdge: EdgeRule {
    @inline(__always)
    static func linear(_ c: Float, _ axis: SampleAxis) -> (Int, Int, UInt64) {
        let clamped: Float = c > 0 ? (c < 1 ? c : 1) : 0   // NaN → 0
        let t = Int(clamped * axis.fixedScale) &- 128
        let i = t >> 8   // −1 … size − 1
        return (i < 0 ? 0 : i, i &+ 1 < axis.size ? i &+ 1 : axis.size &- 1, UInt64(truncatingIfNeeded: t & 255))
    }

    @inline(__always)
    static func nearest(_ c: Float, _ axis: SampleAxis) -> Int {
        let clamped: Float = c > 0 ? (c < 1 ? c : 1) : 0
        let i = Int(clamped * axis.floatSize)
        return i < axis.size ? i : axis.size &- 1
    }
}
