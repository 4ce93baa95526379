import Glibc

/// The lane loops: each operation is one loop over `n` lanes of plain scalar code on pointers (no
/// traps, no calls but the few Glibc ones named below), which the compiler turns into vector code.
/// The arithmetic is ShaderReference's, written the same way (`y < x ? y : x` is Swift's `min`), so
/// that results are equal bit for bit; rounding is `LaneMath`'s exact bit tricks.
extension ShaderMachine {
    @inline(__always)
    static func lanes(_ d: UnsafeMutablePointer<Float>, _ a: UnsafeMutablePointer<Float>, _ n: Int, _ f: (Float) -> Float) {
        for k in 0..<n { d[k] = f(a[k]) }
    }

    @inline(__always)
    static func lanes(_ d: UnsafeMutablePointer<Float>, _ a: UnsafeMutablePointer<Float>, _ b: UnsafeMutablePointer<Float>,
                      _ n: Int, _ f: (Float, Float) -> Float) {
        for k in 0..<n { d[k] = f(a[k], b[k]) }
    }

    @inline(__always)
    static func lanes(_ d: UnsafeMutablePointer<Float>, _ a: UnsafeMutablePointer<Float>, _ b: UnsafeMutablePointer<Float>,
                      _ c: UnsafeMutablePointer<Float>, _ n: Int, _ f: (Float, Float, Float) -> Float) {
        for k in 0..<n { d[k] = f(a[k], b[k], c[k]) }
    }

    /// Runs one arithmetic operation over lanes `0..<n`.
    func execute(_ i: LaneInstruction, _ n: Int) {
        let d = i.inPlace ? scratch : file + i.dst, a = file + i.a, b = file + i.b, c = file + i.c
        defer { if i.inPlace { (file + i.dst).update(from: scratch, count: n) } }
        switch i.kind {
        case .move: if i.dst != i.a { (file + i.dst).update(from: a, count: n) }
        // Unary
        case .negate: Self.lanes(d, a, n) { -$0 }
        case .abs: Self.lanes(d, a, n) { LaneMath.abs($0) }
        case .sign: Self.lanes(d, a, n) { $0 > 0 ? 1 : ($0 < 0 ? -1 : 0) }
        case .floor: Self.lanes(d, a, n) { LaneMath.floor($0) }
        case .ceil: Self.lanes(d, a, n) { LaneMath.ceil($0) }
        case .frac: Self.lanes(d, a, n) { $0 - LaneMath.floor($0) }
        case .round: Self.lanes(d, a, n) { LaneMath.rint($0) }
        case .trunc: Self.lanes(d, a, n) { LaneMath.trunc($0) }
        case .sqrt: Self.lanes(d, a, n) { LaneMath.abs($0).squareRoot() }
        case .rsqrt: Self.lanes(d, a, n) { 1 / LaneMath.abs($0).squareRoot() }
        case .reciprocal: Self.lanes(d, a, n) { 1 / $0 }
        case .exp: Self.lanes(d, a, n) { LaneMath.exp2($0 * 1.442_695_04) }
        case .exp2: Self.lanes(d, a, n) { LaneMath.exp2($0) }
        case .log: Self.lanes(d, a, n) { LaneMath.log2($0) * 0.693_147_18 }
        case .log2: Self.lanes(d, a, n) { LaneMath.log2($0) }
        case .log10: Self.lanes(d, a, n) { LaneMath.log2($0) * 0.301_029_99 }
        case .sin: Self.lanes(d, a, n) { LaneMath.sin($0) }
        case .cos: Self.lanes(d, a, n) { LaneMath.cos($0) }
        case .atan: Self.lanes(d, a, n) { LaneMath.atan2($0, 1) }
        // Rare in presets: Glibc, lane by lane.
        case .tan: Self.lanes(d, a, n) { tanf($0) }
        case .asin: Self.lanes(d, a, n) { asinf($0) }
        case .acos: Self.lanes(d, a, n) { acosf($0) }
        case .sinh: Self.lanes(d, a, n) { sinhf($0) }
        case .cosh: Self.lanes(d, a, n) { coshf($0) }
        case .tanh: Self.lanes(d, a, n) { tanhf($0) }
        case .saturate: Self.lanes(d, a, n) { let m: Float = $0 >= 0 ? $0 : 0; return m < 1 ? m : 1 }
        case .not: Self.lanes(d, a, n) { $0 == 0 ? 1 : 0 }
        case .bool: Self.lanes(d, a, n) { $0 != 0 ? 1 : 0 }
        // Binary
        case .add: Self.lanes(d, a, b, n) { $0 + $1 }
        case .subtract: Self.lanes(d, a, b, n) { $0 - $1 }
        case .multiply: Self.lanes(d, a, b, n) { $0 * $1 }
        case .divide: Self.lanes(d, a, b, n) { $0 / $1 }
        case .fmod: Self.lanes(d, a, b, n) { $0 - $1 * LaneMath.trunc($0 / $1) }
        case .min: Self.lanes(d, a, b, n) { $1 < $0 ? $1 : $0 }
        case .max: Self.lanes(d, a, b, n) { $1 >= $0 ? $1 : $0 }
        case .pow: Self.lanes(d, a, b, n) { LaneMath.pow($0, $1) }
        case .atan2: Self.lanes(d, a, b, n) { LaneMath.atan2($0, $1) }
        case .step: Self.lanes(d, a, b, n) { $1 >= $0 ? 1 : 0 }
        case .less: Self.lanes(d, a, b, n) { $0 < $1 ? 1 : 0 }
        case .lessEqual: Self.lanes(d, a, b, n) { $0 <= $1 ? 1 : 0 }
        case .greater: Self.lanes(d, a, b, n) { $0 > $1 ? 1 : 0 }
        case .greaterEqual: Self.lanes(d, a, b, n) { $0 >= $1 ? 1 : 0 }
        case .equal: Self.lanes(d, a, b, n) { $0 == $1 ? 1 : 0 }
        case .notEqual: Self.lanes(d, a, b, n) { $0 != $1 ? 1 : 0 }
        case .and: Self.lanes(d, a, b, n) { $0 != 0 && $1 != 0 ? 1 : 0 }
        case .or: Self.lanes(d, a, b, n) { $0 != 0 || $1 != 0 ? 1 : 0 }
        // Ternary
        case .multiplyAdd: Self.lanes(d, a, b, c, n) { $0 * $1 + $2 }
        case .select: Self.lanes(d, a, b, c, n) { $0 != 0 ? $1 : $2 }
        case .lerp: Self.lanes(d, a, b, c, n) { $0 + ($1 - $0) * $2 }
        case .clamp: Self.lanes(d, a, b, c, n) { x, lo, hi in let m = lo >= x ? lo : x; return hi < m ? hi : m }
        case .smoothstep:
            Self.lanes(d, a, b, c, n) { e0, e1, x in
                let q = (x - e0) / (e1 - e0)
                let m: Float = q >= 0 ? q : 0
                let t: Float = m < 1 ? m : 1
                return t * t * (3 - 2 * t)
            }
        case .sample, .jump, .jumpIfNone, .loopBack:
            break   // handled by `run`
        }
    }
}
