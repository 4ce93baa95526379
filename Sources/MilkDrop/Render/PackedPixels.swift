/// Arithmetic on packed RGBA8 pixels (R in the low byte), two channels at a time: red and blue in one
/// 32-bit word, green and alpha in another. What the warp and the composite do per pixel.
enum PackedPixels {
    /// `a` + (`b` − `a`) × `f` / 256 per channel, `f` in 0…256, rounded to nearest as a GPU's
    /// texture filtering does (truncating would darken a still picture a little every frame).
    @inline(__always)
    static func lerp(_ a: UInt32, _ b: UInt32, _ f: UInt32) -> UInt32 {
        let g = 256 &- f
        let rb = ((a & 0x00FF_00FF) &* g &+ (b & 0x00FF_00FF) &* f &+ 0x0080_0080) >> 8
        let ga = ((a >> 8) & 0x00FF_00FF) &* g &+ ((b >> 8) & 0x00FF_00FF) &* f &+ 0x0080_0080
        return (rb & 0x00FF_00FF) | (ga & 0xFF00_FF00)
    }

    /// Red, green and blue × `d` / 256 (`d` in 0…256), rounded to nearest as the GPU writing MilkDrop's
    /// 8-bit feedback texture does; alpha 255. So, as in MilkDrop 2 and projectM, a faint trail under
    /// 1/(2(1 − d)) stays (about 21 at decay 0.98): dim trails settle to a haze instead of black; at `d`
    /// 256 it is exact.
    @inline(__always)
    static func scale(_ p: UInt32, _ d: UInt32) -> UInt32 {
        let rb = ((p & 0x00FF_00FF) &* d &+ 0x0080_0080) >> 8
        let g = ((p & 0x0000_FF00) &* d &+ 0x0000_8000) >> 8
        return (rb & 0x00FF_00FF) | (g & 0x0000_FF00) | 0xFF00_0000
    }

    /// Bilinear sample at fixed-point texel coordinates (`x0`, `y0` whole texels already wrapped or
    /// clamped, `x1`/`y1` their right and lower neighbours, `fx`/`fy` the fractions in 0…256).
    @inline(__always)
    static func bilinear(_ row0: UnsafePointer<UInt32>, _ row1: UnsafePointer<UInt32>,
                         _ x0: Int, _ x1: Int, _ fx: UInt32, _ fy: UInt32) -> UInt32 {
        lerp(lerp(row0[x0], row0[x1], fx), lerp(row1[x0], row1[x1], fx), fy)
    }
}

/// Where a texture coordinate falls in a texture of `size` texels: wrapped around or clamped.
struct TexelAxis {
    let size: Int
    let wraps: Bool

    /// The whole texel, its neighbour and the fraction (0…256) for a coordinate in 1/256 texels.
    @inline(__always)
    func split(_ fixed: Int) -> (Int, Int, UInt32) {
        var t = fixed >> 8
        let f = UInt32(truncatingIfNeeded: fixed & 255)
        if wraps {
            if t < 0 || t >= size { t %= size; if t < 0 { t += size } }
            let n = t + 1 == size ? 0 : t + 1
            return (t, n, f)
        }
        if t < 0 { return (0, 0, 0) }
        if t >= size - 1 { return (size - 1, size - 1, 0) }
        return (t, t + 1, f)
    }
}

/// The same arithmetic four pixels at a time, on 16-bit lanes (one per channel), with the same
/// rounding, so the bytes equal those of ``PackedPixels``.
enum PackedPixels4 {
    /// Four packed pixels on sixteen 16-bit lanes (r, g, b, a of each): each byte beside a zero byte,
    /// written as a shuffle so that the compiler emits SSE2's two byte unpacks (four instructions; the
    /// masks and shifts of 32-bit lanes that this replaced took seventeen).
    @inline(__always)
    static func wide(_ v: SIMD4<UInt32>) -> SIMD16<UInt16> {
        let b = unsafeBitCast(v, to: SIMD16<UInt8>.self)
        let low = SIMD16<UInt8>(b[0], 0, b[1], 0, b[2], 0, b[3], 0, b[4], 0, b[5], 0, b[6], 0, b[7], 0)
        let high = SIMD16<UInt8>(b[8], 0, b[9], 0, b[10], 0, b[11], 0, b[12], 0, b[13], 0, b[14], 0, b[15], 0)
        return unsafeBitCast(SIMD32(lowHalf: low, highHalf: high), to: SIMD16<UInt16>.self)
    }

    /// Lanes of at most 255 back to four packed pixels: the low byte of each lane, written as a
    /// shuffle so that the compiler emits a mask and SSE2's pack (four instructions; the standard
    /// library's narrowing conversion is not specialised here and costs a call per step, and the
    /// shifts on 64-bit lanes this replaced went through general registers).
    @inline(__always)
    static func narrow(_ v: SIMD16<UInt16>) -> SIMD4<UInt32> {
        let b = unsafeBitCast(v, to: SIMD32<UInt8>.self)
        let n = SIMD16<UInt8>(b[0], b[2], b[4], b[6], b[8], b[10], b[12], b[14],
                              b[16], b[18], b[20], b[22], b[24], b[26], b[28], b[30])
        return unsafeBitCast(n, to: SIMD4<UInt32>.self)
    }

    /// Each pixel's weight on its four channels.
    @inline(__always)
    static func spread(_ w: SIMD4<UInt32>) -> SIMD16<UInt16> {
        let v = SIMD4<UInt16>(truncatingIfNeeded: w)
        return SIMD16(v[0], v[0], v[0], v[0], v[1], v[1], v[1], v[1], v[2], v[2], v[2], v[2], v[3], v[3], v[3], v[3])
    }

    /// `a` + (`b` − `a`) × `f` / 256 per channel on widened pixels, `f` spread, 0…256.
    @inline(__always)
    static func lerp(_ a: SIMD16<UInt16>, _ b: SIMD16<UInt16>, _ f: SIMD16<UInt16>) -> SIMD16<UInt16> {
        (a &* (SIMD16<UInt16>(repeating: 256) &- f) &+ b &* f &+ SIMD16<UInt16>(repeating: 128)) &>> 8
    }

    /// Four bilinear samples: `a`, `b` the upper texels, `c`, `d` the lower ones, fractions 0…256.
    @inline(__always)
    static func bilinear(_ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>, _ c: SIMD4<UInt32>, _ d: SIMD4<UInt32>,
                         _ wx: SIMD4<UInt32>, _ wy: SIMD4<UInt32>) -> SIMD16<UInt16> {
        let fx = spread(wx)
        return lerp(lerp(wide(a), wide(b), fx), lerp(wide(c), wide(d), fx), spread(wy))
    }
}
