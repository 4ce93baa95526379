/// Packing and scaling of premultiplied RGBA8 pixels (R in the low byte, as ``RGBA8/packed``).
///
/// "SWAR" helpers treat one UInt32 as two 16-bit lanes (R,B and G,A after masking with 0x00FF00FF), so a
/// pixel is scaled by one multiply per lane pair; the compiler vectorises loops of them.
import MarbleCore

/// Channel of a packed pixel (shift 0 red, 8 green, 16 blue, 24 alpha) as a Float 0…255. Goes through
/// Int32: SSE2 converts signed integers to floats in vectors, unsigned ones only one by one.
@inline(__always) func channel(_ p: UInt32, _ shift: UInt32) -> Float {
    Float(Int32(bitPattern: (p >> shift) & 0xFF))
}

/// 0…1 → 0…255, rounded, NaN → 0.
@inline(__always) @usableFromInline func byte(_ x: Float) -> UInt32 {
    (clamp01(x) * 255 + roundingMagic).bitPattern & 0xFF
}

/// 0…1 → 0…255, rounded, for values the caller has already clamped to 0…1.
@inline(__always) func byteOfClamped(_ x: Float) -> UInt32 {
    (x * 255 + roundingMagic).bitPattern & 0xFF
}

/// Opaque pixel from straight colour channels in 0…1.
@inline(__always) func packOpaque(_ r: Float, _ g: Float, _ b: Float) -> UInt32 {
    byte(r) | byte(g) << 8 | byte(b) << 16 | 0xFF00_0000
}

/// Pixel from premultiplied channels in 0…1 (callers keep r, g, b ≤ a).
@inline(__always) func packPremultiplied(_ r: Float, _ g: Float, _ b: Float, _ a: Float) -> UInt32 {
    byte(r) | byte(g) << 8 | byte(b) << 16 | byte(a) << 24
}

/// Scales all four channels by `k`/256, rounded, `k` in 0…256 (256 keeps the pixel; lanes never carry).
@inline(__always) func scalePixel(_ p: UInt32, _ k: UInt32) -> UInt32 {
    let rb = (((p & 0x00FF_00FF) &* k &+ 0x0080_0080) >> 8) & 0x00FF_00FF
    let ga = (((p >> 8) & 0x00FF_00FF) &* k &+ 0x0080_0080) & 0xFF00_FF00
    return rb | ga
}

/// Linear interpolation between two pixels, `w` in 0…256 (0 gives `a`, 256 gives `b`).
@inline(__always) func lerpPixel(_ a: UInt32, _ b: UInt32, _ w: UInt32) -> UInt32 {
    let iw = 256 &- w
    let rb = (((a & 0x00FF_00FF) &* iw &+ (b & 0x00FF_00FF) &* w &+ 0x0080_0080) >> 8) & 0x00FF_00FF
    let ga = (((a >> 8) & 0x00FF_00FF) &* iw &+ ((b >> 8) & 0x00FF_00FF) &* w &+ 0x0080_0080) & 0xFF00_FF00
    return rb | ga
}

/// 0…1 coverage → 0…256 weight for ``scalePixel`` / ``lerpPixel``.
@inline(__always) func weight256(_ x: Float) -> UInt32 {
    (clamp01(x) * 256 + roundingMagic).bitPattern & 0x1FF
}

/// Rec. 601 luma of a packed pixel, 0…255 (weights 77/150/29 of 256).
@inline(__always) func luma(_ p: UInt32) -> Int32 {
    // 16-bit products (255·256 fits) so SSE2 multiplies eight lanes at once.
    let r = UInt16(truncatingIfNeeded: p & 0xFF)
    let g = UInt16(truncatingIfNeeded: (p >> 8) & 0xFF)
    let b = UInt16(truncatingIfNeeded: (p >> 16) & 0xFF)
    return Int32(truncatingIfNeeded: (r &* 77 &+ g &* 150 &+ b &* 29) >> 8)
}

/// Straight colour → float channels of its premultiplied form.
struct PremultipliedColor: Sendable, Equatable {
    var r: Float, g: Float, b: Float, a: Float
    init(_ c: Color) {
        let a = clamp01(c.alpha)
        self.r = clamp01(c.red) * a; self.g = clamp01(c.green) * a; self.b = clamp01(c.blue) * a; self.a = a
    }
    init(r: Float, g: Float, b: Float, a: Float) { self.r = r; self.g = g; self.b = b; self.a = a }
    var packed: UInt32 { packPremultiplied(r, g, b, a) }
    func mixed(with o: PremultipliedColor, _ t: Float) -> PremultipliedColor {
        PremultipliedColor(r: mix(r, o.r, t), g: mix(g, o.g, t), b: mix(b, o.b, t), a: mix(a, o.a, t))
    }
}

/// Fills `count` pixels with one packed value.
@inline(__always) func fillPixels(_ row: UnsafeMutablePointer<UInt32>, _ count: Int, _ value: UInt32) {
    row.update(repeating: value, count: count)
}
