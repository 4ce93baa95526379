/// Scalar math for per-pixel loops that the compiler can vectorise: no traps, no libm calls, no
/// `rounded()`, no checked float→int conversions (measured on the project's machine kind: in hot
/// loops those cost 10–20x).
///
/// Every function is branch-free (selects only). Rounding uses the 1.5·2²³ trick, valid for |x| < 2²²;
/// arguments built from media time and pixel coordinates stay far below that.

/// 1.5 · 2²³: adding it to a float with |x| < 2²² leaves round(x) in the low mantissa bits.
@usableFromInline let roundingMagic: Float = 12_582_912

/// Clamps to 0…1; NaN becomes 0.
@inline(__always) @usableFromInline func clamp01(_ x: Float) -> Float {
    // Swift's min returns its first argument when unordered and max its first too: NaN → min → NaN
    // → max(0, NaN) = 0. Both map onto single SSE instructions.
    max(0, min(x, 1))
}

/// Clamps to `lo…hi`; NaN becomes `lo`.
@inline(__always) func clamp(_ x: Float, _ lo: Float, _ hi: Float) -> Float {
    max(lo, min(x, hi))
}

/// Round to nearest (ties to even), |x| < 2²².
@inline(__always) func roundNearest(_ x: Float) -> Float { (x + roundingMagic) - roundingMagic }

/// Round to nearest as an Int32, |x| < 2²².
@inline(__always) func roundToInt32(_ x: Float) -> Int32 {
    Int32(bitPattern: (x + roundingMagic).bitPattern) &- 0x4B40_0000
}

/// ⌊x⌋, |x| < 2²².
@inline(__always) func floorFast(_ x: Float) -> Float {
    let r = roundNearest(x)
    return r > x ? r - 1 : r
}

/// ⌊x⌋ as an Int32, |x| < 2²².
@inline(__always) func floorToInt32(_ x: Float) -> Int32 {
    let r = roundToInt32(x)
    return Float(r) > x ? r &- 1 : r
}

/// x − ⌊x⌋, in 0…1.
@inline(__always) func fract(_ x: Float) -> Float { x - floorFast(x) }

@inline(__always) func mix(_ a: Float, _ b: Float, _ t: Float) -> Float { a + (b - a) * t }

/// Hermite smoothstep between `edge0` and `edge1`.
@inline(__always) func smoothstep(_ edge0: Float, _ edge1: Float, _ x: Float) -> Float {
    let t = clamp01((x - edge0) / (edge1 - edge0))
    return t * t * (3 - 2 * t)
}

/// sin(x) to within 4·10⁻⁶ for |x| < 2.6·10⁷: reduction to [−π, π], reflection to [−π/2, π/2], Taylor to x⁹.
@inline(__always) func fastSin(_ x: Float) -> Float {
    let turns = x * 0.159_154_94
    let q = (turns - roundNearest(turns)) * 6.283_185_3
    let halfPi: Float = 1.570_796_3
    var r = q > halfPi ? Float.pi - q : q
    r = q < -halfPi ? -Float.pi - q : r
    let r2 = r * r
    let p: Float = 1 + r2 * (-1.0 / 6 + r2 * (1.0 / 120 + r2 * (-1.0 / 5040 + r2 * (1.0 / 362_880))))
    return r * p
}

@inline(__always) func fastCos(_ x: Float) -> Float { fastSin(x + 1.570_796_3) }

/// atan2(y, x) to within 1·10⁻⁴ rad; 0 for (0, 0).
@inline(__always) func fastAtan2(_ y: Float, _ x: Float) -> Float {
    let ax = x < 0 ? -x : x
    let ay = y < 0 ? -y : y
    let big = ax > ay ? ax : ay
    let small = ax > ay ? ay : ax
    let a = big > 0 ? small / big : 0
    let s = a * a
    // Minimax polynomial for atan on 0…1.
    var r: Float = ((-0.046_496_474 * s + 0.159_314_22) * s - 0.327_622_764) * s * a + a
    r = ay > ax ? 1.570_796_3 - r : r
    r = x < 0 ? Float.pi - r : r
    return y < 0 ? -r : r
}

/// 2^x for −126 < x < 127, relative error < 2·10⁻⁴ (for glows and falloffs, not for science).
@inline(__always) func fastExp2(_ x: Float) -> Float {
    let c = clamp(x, -126, 126)
    let i = floorToInt32(c)
    let f = c - Float(i)
    let p: Float = 1 + f * (0.695_556_856 + f * (0.226_173_572 + f * 0.078_145_573))
    return Float(bitPattern: p.bitPattern &+ (UInt32(bitPattern: i) << 23))
}

/// e^x via ``fastExp2``.
@inline(__always) func fastExp(_ x: Float) -> Float { fastExp2(x * 1.442_695) }

/// `x` modulo `period` in 0..<period, computed in Double (media time grows without bound) and returned
/// as Float: phases of animations stay precise after hours. No libm call.
@inline(__always) func wrapped(_ x: Double, period: Double) -> Float {
    guard x.isFinite, period > 0 else { return 0 }
    let q = x / period
    guard abs(q) < 9e15 else { return 0 }
    var whole = Double(Int64(q))
    if whole > q { whole -= 1 }
    return Float(x - whole * period)
}
