/// log2 and 2^x to about 1e-12, in Double with no libm call: for tables made once per size or
/// parameter (a frequency axis, note positions), where ``fastExp2`` (2·10⁻⁴) would shift pixels.

/// log2(x) for finite x > 0 (−1074 for 0 and below, never NaN).
func preciseLog2(_ x: Double) -> Double {
    guard x > 0, x.isFinite else { return x > 0 ? 1024 : -1074 }
    let e = Double(x.exponent)
    let m = x.significand          // 1 ≤ m < 2
    // ln m = 2 atanh(s), s = (m − 1)/(m + 1) ≤ 1/3: the odd series converges quickly.
    let s = (m - 1) / (m + 1), s2 = s * s
    var term = s, sum = 0.0
    for k in 0..<20 {
        sum += term / Double(2 * k + 1)
        term *= s2
    }
    return e + 2 * sum / 0.693_147_180_559_945_3
}

/// 2^x for |x| < 1000.
func preciseExp2(_ x: Double) -> Double {
    let c = min(1000, max(-1000, x))
    let whole = c.rounded(.down)
    let y = (c - whole) * 0.693_147_180_559_945_3   // e^y, 0 ≤ y < ln 2
    var term = 1.0, sum = 1.0
    for k in 1..<22 {
        term *= y / Double(k)
        sum += term
    }
    return Double(sign: .plus, exponent: Int(whole), significand: sum)
}
