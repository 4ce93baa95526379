/// Scalar float functions written so that a loop over lanes calling them vectorises: no library
/// calls, no traps, no branches (only selects), integers through bit patterns. The shader machine's
/// rounding is exact; its transcendentals are approximations with the bounds below, measured against
/// Glibc by `LaneMathTests`/`ShaderMachineTests` over the ranges given.
///
/// Error bounds (float results, against Glibc's correctly rounded-or-nearly functions):
/// - `sin`, `cos`: absolute error ≤ 2e-7 for |x| ≤ 8192 and ≤ 5e-6 for |x| ≤ 1e5 (the reduction by
///   π/2 loses exactness as k grows); |x| ≥ 6.6e6 gives sin 0, cos 1 (no phase is left in such a float);
/// - `exp2`: relative error ≤ 2e-7 for −126 ≤ x ≤ 128 (0 below −151, +inf from 128);
/// - `log2` (of |x|): absolute error ≤ 2e-7 + relative 2e-7 (−inf at 0, +inf at inf, NaN kept);
/// - `pow(a, b)` = exp2(b · log2|a|): relative error ≤ 2e-7 · (2 + |b · log2|a||) (the error of log2 is
///   multiplied by the exponent, as it is in DX9's own `exp2(b·log2 a)`);
/// - `atan2`: absolute error ≤ 5e-7, two units in the last place near ±π (every quadrant; ±0 and
///   ±inf as Glibc).
/// The machine builds exp(x) = exp2(x · log2 e) (relative error ≤ 2e-7 · (1 + |x|)), log and log10 =
/// log2 × a constant (one more rounding), atan(x) = atan2(x, 1).
/// That is far below the 1/510 that moves an 8-bit output.
enum LaneMath {
    /// 1.5 · 2²³: adding it rounds a float of magnitude < 2²² to an integer (ties to even), whose value
    /// is then in the low bits of the sum's pattern.
    static let roundingMagic: Float = 12_582_912
    static let twoTo23: Float = 8_388_608

    /// `x` with the sign of `s`.
    @inline(__always) static func copySign(_ x: Float, _ s: Float) -> Float {
        Float(bitPattern: (x.bitPattern & 0x7FFF_FFFF) | (s.bitPattern & 0x8000_0000))
    }

    /// |x| by clearing the sign bit (Glibc's fabsf).
    @inline(__always) static func abs(_ x: Float) -> Float { Float(bitPattern: x.bitPattern & 0x7FFF_FFFF) }

    /// `rintf`: nearest integer, ties to even; exact for every float (NaN and ±inf kept, sign of zero kept).
    @inline(__always) static func rint(_ x: Float) -> Float {
        let a = abs(x)
        let r = (a + twoTo23) - twoTo23
        return a < twoTo23 ? copySign(r, x) : x
    }

    /// `floorf`, exact (the sign of a zero result is x's, as Glibc's).
    @inline(__always) static func floor(_ x: Float) -> Float {
        let r = rint(x)
        let f = r > x ? r - 1 : r
        return copySign(f, x)
    }

    /// `ceilf`, exact.
    @inline(__always) static func ceil(_ x: Float) -> Float {
        let r = rint(x)
        let c = r < x ? r + 1 : r
        return copySign(c, x)
    }

    /// `truncf`, exact.
    @inline(__always) static func trunc(_ x: Float) -> Float {
        copySign(floor(abs(x)), x)
    }

    // MARK: Transcendentals

    /// 2^x: x = n + f with n an integer and |f| ≤ ½, 2^f by its Taylor series to the 7th power
    /// (error < 1.2e-7 at |f| = ½), times 2^n built in the exponent bits in two halves (so that 2^n
    /// may be a denormal or up to 2¹²⁸ without an intermediate overflow).
    @inline(__always) static func exp2(_ x: Float) -> Float {
        // Clamped with comparisons that keep a NaN (false for NaN: the NaN passes through).
        let c = x < -151 ? -151 : (x > 129 ? 129 : x)
        let shifted = c + roundingMagic
        let n = Int32(bitPattern: shifted.bitPattern &- roundingMagic.bitPattern)
        let f = c - (shifted - roundingMagic)
        let l = f * 0.693_147_18
        var p: Float = 1.984_127e-4
        p = p * l + 1.388_888_9e-3
        p = p * l + 8.333_333_3e-3
        p = p * l + 4.166_666_6e-2
        p = p * l + 0.166_666_67
        p = p * l + 0.5
        p = p * l + 1
        p = p * l + 1
        let half = n &>> 1, rest = n &- half
        let s1 = Float(bitPattern: UInt32(bitPattern: (half &+ 127) &<< 23))
        let s2 = Float(bitPattern: UInt32(bitPattern: (rest &+ 127) &<< 23))
        return p * s1 * s2
    }

    /// log2|x|: the exponent plus log2 of the mantissa in [√½, √2) through
    /// 2/ln 2 · atanh((m − 1)/(m + 1)) (odd series to t⁹: |t| ≤ 0.172, remainder < 4e-9).
    @inline(__always) static func log2(_ x: Float) -> Float {
        let a = abs(x)
        // Denormals are scaled up by 2²³ first.
        let tiny = a < 1.175_494_4e-38
        let scaled = tiny ? a * twoTo23 : a
        let bits = scaled.bitPattern
        var e = Float(Int32(bitPattern: (bits &>> 23) & 0xFF) &- 127) - (tiny ? 23 : 0)
        var m = Float(bitPattern: (bits & 0x007F_FFFF) | 0x3F80_0000)
        let big = m > 1.414_213_5
        m = big ? m * 0.5 : m
        e = big ? e + 1 : e
        let t = (m - 1) / (m + 1)
        let t2 = t * t
        var s: Float = 0.111_111_11
        s = s * t2 + 0.142_857_14
        s = s * t2 + 0.2
        s = s * t2 + 0.333_333_34
        s = s * t2 + 1
        let r = e + (2.885_390_1 * t) * s
        // 0 → −inf; inf and NaN pass through (|x|).
        let special = !(a < Float.infinity)
        return a == 0 ? -Float.infinity : (special ? a : r)
    }

    /// DX9's pow: 2^(b · log2|a|).
    @inline(__always) static func pow(_ a: Float, _ b: Float) -> Float { exp2(b * log2(a)) }

    /// sin and cos of x: x = k·π/2 + r with |r| ≤ π/4 (π/2 in three parts, Cody and Waite), then
    /// minimax polynomials for sin r and cos r (Moshier's Cephes coefficients), swapped and signed by k.
    @inline(__always) static func sinCos(_ x: Float) -> (sin: Float, cos: Float) {
        // Past 2²² quarter turns a float has no fractional phase left: those give sin 0, cos 1.
        let inRange = abs(x) < 6_588_397
        let xr = inRange ? x : 0
        let shifted = xr * 0.636_619_77 + roundingMagic
        let k = shifted.bitPattern &- roundingMagic.bitPattern
        let kf = shifted - roundingMagic
        var r = xr - kf * 1.570_312_5
        r = r - kf * 4.837_512_969_970_703_125e-4
        r = r - kf * 7.549_789_954_891_882_16e-8
        let r2 = r * r
        var sp: Float = -1.951_529_6e-4
        sp = sp * r2 + 8.332_161e-3
        sp = sp * r2 - 0.166_666_55
        let s = r + r * r2 * sp
        var cp: Float = 2.443_315_7e-5
        cp = cp * r2 - 1.388_731_6e-3
        cp = cp * r2 + 4.166_664_6e-2
        let c = 1 - 0.5 * r2 + r2 * r2 * cp
        let odd = k & 1 != 0
        let sinPart = odd ? c : s, cosPart = odd ? s : c
        let sinSign = (k & 2) &<< 30, cosSign = ((k &+ 1) & 2) &<< 30
        // ±inf and NaN give NaN, as in Glibc.
        let finite = abs(x) < Float.infinity
        let nan = x - x
        return (finite ? Float(bitPattern: sinPart.bitPattern ^ sinSign) : nan,
                finite ? Float(bitPattern: cosPart.bitPattern ^ cosSign) : nan)
    }

    @inline(__always) static func sin(_ x: Float) -> Float { sinCos(x).sin }
    @inline(__always) static func cos(_ x: Float) -> Float { sinCos(x).cos }

    /// atan2(y, x): atan of min/max of the magnitudes (reduced past tan(π/8) by atan z = π/4 +
    /// atan((z − 1)/(z + 1)), then Cephes' minimax polynomial), placed in its octant and quadrant by
    /// the signs (the sign bit of x, so that −0 gives π as in Glibc).
    @inline(__always) static func atan2(_ y: Float, _ x: Float) -> Float {
        let ax = abs(x), ay = abs(y)
        let swap = ay > ax
        let mx = swap ? ay : ax, mn = swap ? ax : ay
        var z = mn / mx
        z = mx == 0 ? 0 : z
        z = mn == Float.infinity && mx == Float.infinity ? 1 : z
        let reduce = z > 0.414_213_57
        let w = reduce ? (z - 1) / (z + 1) : z
        let w2 = w * w
        var p: Float = 8.053_744_5e-2
        p = p * w2 - 0.138_776_86
        p = p * w2 + 0.199_777_1
        p = p * w2 - 0.333_329_5
        var a = w + w * w2 * p
        a = reduce ? a + 0.785_398_16 : a
        a = swap ? 1.570_796_3 - a : a
        let negativeX = x.bitPattern & 0x8000_0000 != 0
        a = negativeX ? 3.141_592_7 - a : a
        let result = copySign(a, y)
        return x != x || y != y ? x + y : result
    }
}
