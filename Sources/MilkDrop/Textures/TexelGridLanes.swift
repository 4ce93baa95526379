/// The batched reads of ``TexelGrid``, 8 lanes at a time: coordinates, texel indices and weights are
/// computed on `SIMD8` vectors, the 4 (or 8) texels of each lane are loaded one by one, and the blend
/// runs two channels per 32-bit multiply on all 8 lanes at once.
///
/// The results are those of ``TexelGrid/sampleScalar(mode:count:u:v:w:r:g:b:a:)`` bit for bit (the tests
/// compare both): the same float products truncated to the same integers, the same integer sums, the
/// same conversions to float. A group of 8 lanes that a wrapped read has outside −0.5 ..< 1.5 (or NaN;
/// wider for power-of-two sizes, see ``WrapEdge/inRange(_:_:)``),
/// and the last `count` % 8 lanes, go through the scalar code instead.
///
/// Float → integer conversion uses no standard-library SIMD conversion (slow in Swift, PLATFORM.md):
/// see ``TexelLanes/truncated(_:)``.
extension TexelGrid {
    /// Reads `count` lanes (see ``ShaderTexture/sample(mode:count:u:v:w:r:g:b:a:)``).
    func sample(mode: SamplerMode, count: Int,
                u: UnsafePointer<Float>, v: UnsafePointer<Float>, w: UnsafePointer<Float>?,
                r: UnsafeMutablePointer<Float>?, g: UnsafeMutablePointer<Float>?,
                b: UnsafeMutablePointer<Float>?, a: UnsafeMutablePointer<Float>?) {
        guard count > 0 else { return }
        let groups = lanesFit ? count / 8 : 0
        if groups > 0 {
            let out = Channels(r: r, g: g, b: b, a: a)
            if let w, depth > 1 {
                if mode.bilinear {
                    mode.wraps ? trilinear8(WrapEdge.self, groups, u, v, w, out) : trilinear8(ClampEdge.self, groups, u, v, w, out)
                } else {
                    mode.wraps ? nearest3D8(WrapEdge.self, groups, u, v, w, out) : nearest3D8(ClampEdge.self, groups, u, v, w, out)
                }
            } else if mode.bilinear {
                mode.wraps ? bilinear8(WrapEdge.self, groups, u, v, out) : bilinear8(ClampEdge.self, groups, u, v, out)
            } else {
                mode.wraps ? nearest8(WrapEdge.self, groups, u, v, out) : nearest8(ClampEdge.self, groups, u, v, out)
            }
        }
        let done = groups * 8
        if done < count { scalarLanes(mode, done, count - done, u, v, w, r, g, b, a) }
    }

    /// Whether the 8-lane code may read this grid: every axis at most 8192 texels (so coordinates in
    /// 1/256 texels stay below 2²² over −0.5 ..< 1.5) and every texel offset within an `Int32`.
    var lanesFit: Bool {
        let limit = 8192
        guard width <= limit && height <= limit && depth <= limit, rowStride >= 0, sliceStride >= 0 else { return false }
        let last = (depth - 1).multipliedReportingOverflow(by: sliceStride)
        let row = (height - 1).multipliedReportingOverflow(by: rowStride)
        guard !last.overflow && !row.overflow else { return false }
        let (end, overflow) = last.partialValue.addingReportingOverflow(row.partialValue &+ width)
        return !overflow && end <= Int(Int32.max)
    }

    /// `count` lanes from lane `start`, by the scalar reference.
    private func scalarLanes(_ mode: SamplerMode, _ start: Int, _ count: Int,
                             _ u: UnsafePointer<Float>, _ v: UnsafePointer<Float>, _ w: UnsafePointer<Float>?,
                             _ r: UnsafeMutablePointer<Float>?, _ g: UnsafeMutablePointer<Float>?,
                             _ b: UnsafeMutablePointer<Float>?, _ a: UnsafeMutablePointer<Float>?) {
        sampleScalar(mode: mode, count: count, u: u + start, v: v + start, w: w.map { $0 + start },
                     r: r.map { $0 + start }, g: g.map { $0 + start }, b: b.map { $0 + start }, a: a.map { $0 + start })
    }

    private func scalarGroup(_ mode: SamplerMode, _ start: Int, _ u: UnsafePointer<Float>, _ v: UnsafePointer<Float>,
                             _ w: UnsafePointer<Float>?, _ out: Channels) {
        scalarLanes(mode, start, 8, u, v, w, out.r, out.g, out.b, out.a)
    }

    // MARK: the four loops over groups of 8, each specialised for its edge rule

    private func bilinear8<Edge: LaneEdgeRule>(_: Edge.Type, _ groups: Int, _ u: UnsafePointer<Float>, _ v: UnsafePointer<Float>, _ out: Channels) {
        let xAxis = LaneAxis(width), yAxis = LaneAxis(height)
        let stride = SIMD8<Int32>(repeating: Int32(truncatingIfNeeded: rowStride))
        let mode = SamplerMode(bilinear: true, wraps: Edge.wraps)
        for group in 0..<groups {
            let i = group &* 8
            guard let x = Edge.linear(TexelLanes.load(u + i), xAxis), let y = Edge.linear(TexelLanes.load(v + i), yAxis) else {
                scalarGroup(mode, i, u, v, nil, out); continue
            }
            let c = blend(base, y.i0 &* stride, y.i1 &* stride, x, y.f)
            out.store(i, c, TexelLanes.bilinearScale)
        }
    }

    private func nearest8<Edge: LaneEdgeRule>(_: Edge.Type, _ groups: Int, _ u: UnsafePointer<Float>, _ v: UnsafePointer<Float>, _ out: Channels) {
        let xAxis = LaneAxis(width), yAxis = LaneAxis(height)
        let stride = SIMD8<Int32>(repeating: Int32(truncatingIfNeeded: rowStride))
        let mode = SamplerMode(bilinear: false, wraps: Edge.wraps)
        for group in 0..<groups {
            let i = group &* 8
            guard let x = Edge.nearest(TexelLanes.load(u + i), xAxis), let y = Edge.nearest(TexelLanes.load(v + i), yAxis) else {
                scalarGroup(mode, i, u, v, nil, out); continue
            }
            out.store(i, TexelLanes.gather(base, y &* stride &+ x))
        }
    }

    private func trilinear8<Edge: LaneEdgeRule>(_: Edge.Type, _ groups: Int, _ u: UnsafePointer<Float>, _ v: UnsafePointer<Float>,
                                                _ w: UnsafePointer<Float>, _ out: Channels) {
        let xAxis = LaneAxis(width), yAxis = LaneAxis(height), zAxis = LaneAxis(depth)
        let stride = SIMD8<Int32>(repeating: Int32(truncatingIfNeeded: rowStride))
        let slice = SIMD8<Int32>(repeating: Int32(truncatingIfNeeded: sliceStride))
        let mode = SamplerMode(bilinear: true, wraps: Edge.wraps)
        for group in 0..<groups {
            let i = group &* 8
            guard let x = Edge.linear(TexelLanes.load(u + i), xAxis), let y = Edge.linear(TexelLanes.load(v + i), yAxis),
                  let z = Edge.linear(TexelLanes.load(w + i), zAxis) else {
                scalarGroup(mode, i, u, v, w, out); continue
            }
            let near = z.i0 &* slice, far = z.i1 &* slice
            let row0 = y.i0 &* stride, row1 = y.i1 &* stride
            let c0 = blend(base, near &+ row0, near &+ row1, x, y.f)
            let c1 = blend(base, far &+ row0, far &+ row1, x, y.f)
            // Fields of at most 255 × 2¹⁶, times weights summing to 256: at most 255 × 2²⁴, below 2³².
            let fz = TexelLanes.unsigned(z.f), gz = 256 &- fz
            let sum = LaneChannels(r: c0.r &* gz &+ c1.r &* fz, g: c0.g &* gz &+ c1.g &* fz,
                                   b: c0.b &* gz &+ c1.b &* fz, a: c0.a &* gz &+ c1.a &* fz)
            out.storeWide(i, sum, TexelLanes.trilinearScale)
        }
    }

    private func nearest3D8<Edge: LaneEdgeRule>(_: Edge.Type, _ groups: Int, _ u: UnsafePointer<Float>, _ v: UnsafePointer<Float>,
                                                _ w: UnsafePointer<Float>, _ out: Channels) {
        let xAxis = LaneAxis(width), yAxis = LaneAxis(height), zAxis = LaneAxis(depth)
        let stride = SIMD8<Int32>(repeating: Int32(truncatingIfNeeded: rowStride))
        let slice = SIMD8<Int32>(repeating: Int32(truncatingIfNeeded: sliceStride))
        let mode = SamplerMode(bilinear: false, wraps: Edge.wraps)
        for group in 0..<groups {
            let i = group &* 8
            guard let x = Edge.nearest(TexelLanes.load(u + i), xAxis), let y = Edge.nearest(TexelLanes.load(v + i), yAxis),
                  let z = Edge.nearest(TexelLanes.load(w + i), zAxis) else {
                scalarGroup(mode, i, u, v, w, out); continue
            }
            out.store(i, TexelLanes.gather(base, z &* slice &+ y &* stride &+ x))
        }
    }

    /// The bilinear sums of 8 lanes (rows at offsets `row0`, `row1`), each channel at most 255 × 2¹⁶:
    /// ``TexelGrid/blend(_:_:_:_:_:_:)`` on vectors.
    @inline(__always)
    private func blend(_ base: UnsafePointer<UInt32>, _ row0: SIMD8<Int32>, _ row1: SIMD8<Int32>,
                       _ x: LaneTaps, _ fy: SIMD8<Int32>) -> LaneChannels {
        let p00 = TexelLanes.gather(base, row0 &+ x.i0), p01 = TexelLanes.gather(base, row0 &+ x.i1)
        let p10 = TexelLanes.gather(base, row1 &+ x.i0), p11 = TexelLanes.gather(base, row1 &+ x.i1)
        // Across: two channels a word, each at most 255 × 256, so on 16-bit lanes (one multiply
        // instruction for 8 of them, where a 32-bit multiply takes six without SSE4.1).
        let fx = TexelLanes.halves(TexelLanes.unsigned(x.f)), gx = 256 &- fx
        let mask = SIMD8<UInt32>(repeating: 0x00FF_00FF)
        let topLo = TexelLanes.across(p00 & mask, p01 & mask, gx, fx)
        let topHi = TexelLanes.across((p00 &>> 8) & mask, (p01 &>> 8) & mask, gx, fx)
        let botLo = TexelLanes.across(p10 & mask, p11 & mask, gx, fx)
        let botHi = TexelLanes.across((p10 &>> 8) & mask, (p11 &>> 8) & mask, gx, fx)
        // Down: each field on its own 32-bit lane.
        let fy = TexelLanes.unsigned(fy), gy = 256 &- fy
        let low = SIMD8<UInt32>(repeating: 0xFFFF)
        return LaneChannels(r: (topLo & low) &* gy &+ (botLo & low) &* fy,
                            g: (topHi & low) &* gy &+ (botHi & low) &* fy,
                            b: (topLo &>> 16) &* gy &+ (botLo &>> 16) &* fy,
                            a: (topHi &>> 16) &* gy &+ (botHi &>> 16) &* fy)
    }
}

/// Four channels of 8 lanes, as integer sums.
struct LaneChannels {
    var r, g, b, a: SIMD8<UInt32>
}

/// The two texels a bilinear read blends on one axis, for 8 lanes, and the weight of the second (0…255).
struct LaneTaps {
    var i0, i1, f: SIMD8<Int32>
}

/// One axis of a grid as the 8-lane reads need it (see ``SampleAxis``).
struct LaneAxis {
    let size, last, fixedSize, zero: SIMD8<Int32>
    let fixedScale, floatSize: SIMD8<Float>
    /// Whether `size` is a power of two: then a wrap is a mask (`fixedSize` − 1), for coordinates in
    /// `wrapLow` ..< `wrapHigh`; other sizes wrap −0.5 ..< 1.5 only.
    let powerOfTwo: Bool
    let wrapMask: SIMD8<Int32>
    let wrapLow, wrapHigh: Float

    init(_ size: Int) {
        self.size = SIMD8(repeating: Int32(truncatingIfNeeded: size))
        last = self.size &- 1
        zero = SIMD8()
        fixedSize = self.size &* 256
        fixedScale = SIMD8(repeating: Float(size * 256))
        floatSize = SIMD8(repeating: Float(size))
        powerOfTwo = size & (size - 1) == 0
        wrapMask = fixedSize &- 1
        // Positions in 1/256 texels below 2²² in magnitude, as ``TexelLanes/truncated(_:)`` needs.
        wrapLow = powerOfTwo ? -Float(1 << 22) / Float(size * 256) : Float(-0.5).nextDown
        wrapHigh = powerOfTwo ? Float(1 << 22) / Float(size * 256) : 1.5
    }
}

/// ``EdgeRule`` for 8 lanes at once: nil when some lane is outside what the vector code handles (the
/// caller then reads those 8 lanes with the scalar code).
protocol LaneEdgeRule: EdgeRule {
    static var wraps: Bool { get }
    static func linear(_ c: SIMD8<Float>, _ axis: LaneAxis) -> LaneTaps?
    static func nearest(_ c: SIMD8<Float>, _ axis: LaneAxis) -> SIMD8<Int32>?
}

extension WrapEdge: LaneEdgeRule {
    static var wraps: Bool { true }

    /// Coordinates inside the axis's wrap range only (NaN is not): for a size that is not a power of two,
    /// −0.5 ..< 1.5, where the position in 1/256 texels is within one turn of the texture, so one add or
    /// subtract wraps it (what `%` does in the scalar code); for a power of two, as far as positions
    /// stay below 2²², since the mask equals `%` then `+ size` for negatives, in two's complement.
    @inline(__always)
    static func inRange(_ c: SIMD8<Float>, _ axis: LaneAxis) -> Bool {
        all((c .> axis.wrapLow) .& (c .< axis.wrapHigh))
    }

    @inline(__always)
    static func wrapped(_ t: SIMD8<Int32>, _ axis: LaneAxis) -> SIMD8<Int32> {
        if axis.powerOfTwo { return t & axis.wrapMask }
        let up = t &+ (axis.fixedSize & (t &>> 31))   // −size … −1 → 0 … size − 1 (in 1/256 texels)
        let down = up &- axis.fixedSize
        return down &+ (axis.fixedSize & (down &>> 31))   // size … → 0 …
    }

    @inline(__always)
    static func linear(_ c: SIMD8<Float>, _ axis: LaneAxis) -> LaneTaps? {
        guard inRange(c, axis) else { return nil }
        let t = wrapped(TexelLanes.truncated(c * axis.fixedScale) &- 128, axis)
        let i0 = t &>> 8
        var i1 = i0 &+ 1
        i1.replace(with: axis.zero, where: i1 .== axis.size)
        return LaneTaps(i0: i0, i1: i1, f: t & 255)
    }

    @inline(__always)
    static func nearest(_ c: SIMD8<Float>, _ axis: LaneAxis) -> SIMD8<Int32>? {
        guard inRange(c, axis) else { return nil }
        return wrapped(TexelLanes.truncated(c * axis.fixedScale), axis) &>> 8
    }
}

extension ClampEdge: LaneEdgeRule {
    static var wraps: Bool { false }

    /// `c` held to 0…1, NaN → 0 (as the scalar code).
    @inline(__always)
    static func clamped(_ c: SIMD8<Float>) -> SIMD8<Float> {
        var x = c
        x.replace(with: 0, where: .!(c .> 0))
        x.replace(with: 1, where: x .> 1)
        return x
    }

    @inline(__always)
    static func linear(_ c: SIMD8<Float>, _ axis: LaneAxis) -> LaneTaps? {
        let t = TexelLanes.truncated(clamped(c) * axis.fixedScale) &- 128
        let i = t &>> 8   // −1 … size − 1
        return LaneTaps(i0: i & ~(i &>> 31), i1: TexelLanes.minimum(i &+ 1, axis.last), f: t & 255)
    }

    @inline(__always)
    static func nearest(_ c: SIMD8<Float>, _ axis: LaneAxis) -> SIMD8<Int32>? {
        TexelLanes.minimum(TexelLanes.truncated(clamped(c) * axis.floatSize), axis.last)
    }
}

/// Loads, conversions and stores of 8 lanes.
enum TexelLanes {
    // Computed, not stored: a stored static is a lazy global, checked on every use in a loop.
    static var bilinearScale: SIMD8<Float> { SIMD8(repeating: 1 / (255 * 65536)) }
    static var trilinearScale: SIMD8<Float> { SIMD8(repeating: 1 / (255 * 16_777_216)) }
    static var byteScale: SIMD8<Float> { SIMD8(repeating: 1 / 255) }

    @inline(__always)
    static func load(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
    }

    @inline(__always)
    static func store(_ x: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: x, as: SIMD8<Float>.self)
    }

    /// `x` truncated toward zero, as `Int(x)` does, for |x| < 2²²: adding 2²³ to |x| rounds it to an
    /// integer held in the float's low bits; one step down where that rounded up gives the floor of
    /// |x|, which is its truncation; then the sign goes back.
    @inline(__always)
    static func truncated(_ x: SIMD8<Float>) -> SIMD8<Int32> {
        let negative = x .< SIMD8<Float>()
        var magnitude = x
        magnitude.replace(with: -x, where: negative)
        let shifted = magnitude + SIMD8(repeating: 8_388_608)
        var i = unsafeBitCast(shifted, to: SIMD8<Int32>.self) &- 0x4B00_0000
        i.replace(with: i &- 1, where: shifted - SIMD8(repeating: 8_388_608) .> magnitude)
        i.replace(with: 0 &- i, where: negative)
        return i
    }

    /// The smaller of `a` and `b` lane by lane, for differences that fit 31 bits (by the sign of
    /// `a − b`: comparisons against constants compile to lane-by-lane loops in Swift 6.3).
    @inline(__always)
    static func minimum(_ a: SIMD8<Int32>, _ b: SIMD8<Int32>) -> SIMD8<Int32> {
        let d = a &- b
        return b &+ (d & (d &>> 31))
    }

    /// Each lane's weight (at most 256) in both 16-bit halves of its word.
    @inline(__always)
    static func halves(_ w: SIMD8<UInt32>) -> SIMD16<UInt16> { unsafeBitCast(w | w &<< 16, to: SIMD16<UInt16>.self) }

    /// `a` × `ga` + `b` × `gb` on 16-bit fields: fields at most 255, weights summing to 256.
    @inline(__always)
    static func across(_ a: SIMD8<UInt32>, _ b: SIMD8<UInt32>, _ ga: SIMD16<UInt16>, _ gb: SIMD16<UInt16>) -> SIMD8<UInt32> {
        let sum = unsafeBitCast(a, to: SIMD16<UInt16>.self) &* ga &+ unsafeBitCast(b, to: SIMD16<UInt16>.self) &* gb
        return unsafeBitCast(sum, to: SIMD8<UInt32>.self)
    }

    @inline(__always)
    static func unsigned(_ x: SIMD8<Int32>) -> SIMD8<UInt32> { unsafeBitCast(x, to: SIMD8<UInt32>.self) }

    /// `x` as floats, exactly, for values below 2²⁴ (all that `cvtdq2ps` needs: they fit an `Int32`).
    @inline(__always)
    static func float(_ x: SIMD8<UInt32>) -> SIMD8<Float> { SIMD8<Float>(unsafeBitCast(x, to: SIMD8<Int32>.self)) }

    /// `x` as floats rounded to nearest as `Float(Int64(x))` rounds, for any 32-bit value: two exact
    /// halves, and one rounding in their sum.
    @inline(__always)
    static func floatWide(_ x: SIMD8<UInt32>) -> SIMD8<Float> {
        float(x &>> 16) * SIMD8(repeating: 65536) + float(x & 0xFFFF)
    }

    /// The texels at 8 offsets from `base`.
    @inline(__always)
    static func gather(_ base: UnsafePointer<UInt32>, _ o: SIMD8<Int32>) -> SIMD8<UInt32> {
        // Spelled out: a loop over the lanes is not unrolled, and goes through memory for every lane.
        SIMD8(base[Int(o[0])], base[Int(o[1])], base[Int(o[2])], base[Int(o[3])],
              base[Int(o[4])], base[Int(o[5])], base[Int(o[6])], base[Int(o[7])])
    }
}

extension Channels {
    /// Sums of 8 lanes below 2²⁴, times `scale`, into lanes `i` ..< `i` + 8 of the wanted channels.
    @inline(__always)
    func store(_ i: Int, _ c: LaneChannels, _ scale: SIMD8<Float>) {
        if let r { TexelLanes.store(TexelLanes.float(c.r) * scale, r + i) }
        if let g { TexelLanes.store(TexelLanes.float(c.g) * scale, g + i) }
        if let b { TexelLanes.store(TexelLanes.float(c.b) * scale, b + i) }
        if let a { TexelLanes.store(TexelLanes.float(c.a) * scale, a + i) }
    }

    /// Any 32-bit sums of 8 lanes, times `scale`.
    @inline(__always)
    func storeWide(_ i: Int, _ c: LaneChannels, _ scale: SIMD8<Float>) {
        if let r { TexelLanes.store(TexelLanes.floatWide(c.r) * scale, r + i) }
        if let g { TexelLanes.store(TexelLanes.floatWide(c.g) * scale, g + i) }
        if let b { TexelLanes.store(TexelLanes.floatWide(c.b) * scale, b + i) }
        if let a { TexelLanes.store(TexelLanes.floatWide(c.a) * scale, a + i) }
    }

    /// 8 texels as they are.
    @inline(__always)
    func store(_ i: Int, _ p: SIMD8<UInt32>) {
        let byte = SIMD8<UInt32>(repeating: 0xFF)
        if let r { TexelLanes.store(TexelLanes.float(p & byte) * TexelLanes.byteScale, r + i) }
        if let g { TexelLanes.store(TexelLanes.float((p &>> 8) & byte) * TexelLanes.byteScale, g + i) }
        if let b { TexelLanes.store(TexelLanes.float((p &>> 16) & byte) * TexelLanes.byteScale, b + i) }
        if let a { TexelLanes.store(TexelLanes.float(p &>> 24) * TexelLanes.byteScale, a + i) }
    }
}
