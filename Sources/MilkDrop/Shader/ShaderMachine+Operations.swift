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

    /// A binary operation; an operand the same in every lane (`uniform` bit 0: a, bit 1: b) is read
    /// once. The same `f` either way, so the results are the same.
    @inline(__always)
    static func lanes(_ d: UnsafeMutablePointer<Float>, _ a: UnsafeMutablePointer<Float>, _ b: UnsafeMutablePointer<Float>,
                      _ n: Int, _ uniform: UInt8, _ f: (Float, Float) -> Float) {
        switch uniform & 3 {
        case 1: let s = a[0]; for k in 0..<n { d[k] = f(s, b[k]) }
        case 2: let s = b[0]; for k in 0..<n { d[k] = f(a[k], s) }
        default: for k in 0..<n { d[k] = f(a[k], b[k]) }
        }
    }

    /// A ternary operation; uniform `b` and/or `c` (bits 1 and 2) are read once (a uniform `a` is rare).
    @inline(__always)
    static func lanes(_ d: UnsafeMutablePointer<Float>, _ a: UnsafeMutablePointer<Float>, _ b: UnsafeMutablePointer<Float>,
                      _ c: UnsafeMutablePointer<Float>, _ n: Int, _ uniform: UInt8, _ f: (Float, Float, Float) -> Float) {
        switch uniform & 6 {
        case 2: let s = b[0]; for k in 0..<n { d[k] = f(a[k], s, c[k]) }
        case 4: let s = c[0]; for k in 0..<n { d[k] = f(a[k], b[k], s) }
        case 6: let s = b[0], t = c[0]; for k in 0..<n { d[k] = f(a[k], s, t) }
        default: for k in 0..<n { d[k] = f(a[k], b[k], c[k]) }
        }
    }

    /// Runs one arithmetic operation over lanes `0..<n`.
    // Long on purpose: the interpreter's one switch over operations, each case a lane loop the optimiser vectorises in place.
    func execute(_ i: LaneInstruction, _ n: Int) {
        let d = i.inPlace ? scratch : file + i.dst, a = file + i.a, b = file + i.b, c = file + i.c
        let u = i.uniform
        defer { if i.inPlace { (file + i.dst).update(from: scratch, count: n) } }
        switch i.kind {
        case .move: if i.dst != i.a { (file + i.dst).update(from: a, count: n) }
        // Unary
        case .negate: Self.lanes(d, a, n) { -$0 }
        case .abs: Self.lanes(d, a, n) { LaneMath.abs($0) }
        case .sign: Self.lanes(d, a, n) { $0 > 0 ? 1 : ($0 < 0 ? -1 : 0) }
        case .floor: LaneLoops.floor(d, a, n)
        case .ceil: LaneLoops.ceil(d, a, n)
        case .frac: LaneLoops.frac(d, a, n)
        case .round: LaneLoops.round(d, a, n)
        case .trunc: LaneLoops.trunc(d, a, n)
        case .sqrt: Self.lanes(d, a, n) { LaneMath.abs($0).squareRoot() }
        case .rsqrt: Self.lanes(d, a, n) { 1 / LaneMath.abs($0).squareRoot() }
        case .reciprocal: Self.lanes(d, a, n) { 1 / $0 }
        case .exp: LaneLoops.exp(d, a, n)
        case .exp2: LaneLoops.exp2(d, a, n)
        case .log: LaneLoops.log2(d, a, n, scale: 0.693_147_18)
        case .log2: LaneLoops.log2(d, a, n, scale: 1)
        case .log10: LaneLoops.log2(d, a, n, scale: 0.301_029_99)
        case .sin: LaneLoops.sin(d, a, n)
        case .cos: LaneLoops.cos(d, a, n)
        case .atan: LaneLoops.atan(d, a, n)
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
        case .add: Self.lanes(d, a, b, n, u) { $0 + $1 }
        case .subtract: Self.lanes(d, a, b, n, u) { $0 - $1 }
        case .multiply: Self.lanes(d, a, b, n, u) { $0 * $1 }
        case .divide: Self.lanes(d, a, b, n, u) { $0 / $1 }
        case .fmod: LaneLoops.fmod(d, a, b, n)
        case .min: Self.lanes(d, a, b, n, u) { $1 < $0 ? $1 : $0 }
        case .max: Self.lanes(d, a, b, n, u) { $1 >= $0 ? $1 : $0 }
        case .pow: LaneLoops.pow(d, a, b, n)
        case .atan2: LaneLoops.atan2(d, a, b, n)
        case .step: Self.lanes(d, a, b, n, u) { $1 >= $0 ? 1 : 0 }
        case .less: Self.lanes(d, a, b, n, u) { $0 < $1 ? 1 : 0 }
        case .lessEqual: Self.lanes(d, a, b, n, u) { $0 <= $1 ? 1 : 0 }
        case .greater: Self.lanes(d, a, b, n, u) { $0 > $1 ? 1 : 0 }
        case .greaterEqual: Self.lanes(d, a, b, n, u) { $0 >= $1 ? 1 : 0 }
        case .equal: Self.lanes(d, a, b, n, u) { $0 == $1 ? 1 : 0 }
        case .notEqual: Self.lanes(d, a, b, n, u) { $0 != $1 ? 1 : 0 }
        case .and: Self.lanes(d, a, b, n, u) { $0 != 0 && $1 != 0 ? 1 : 0 }
        case .or: Self.lanes(d, a, b, n, u) { $0 != 0 || $1 != 0 ? 1 : 0 }
        // Ternary
        case .multiplyAdd: Self.lanes(d, a, b, c, n, u) { $0 * $1 + $2 }
        case .select: Self.lanes(d, a, b, c, n, u) { $0 != 0 ? $1 : $2 }
        case .lerp: Self.lanes(d, a, b, c, n, u) { $0 + ($1 - $0) * $2 }
        case .clamp: Self.lanes(d, a, b, c, n, u) { x, lo, hi in let m = lo >= x ? lo : x; return hi < m ? hi : m }
        case .smoothstep:
            Self.lanes(d, a, b, c, n, u) { e0, e1, x in
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

/// The loops of the costlier operations, each its own function: inlined into `execute` (one huge
/// function) the optimizer ran out of budget, stopped inlining `Float.bitPattern` and left them
/// scalar. Rows are whole (no uniform operand variants): their arithmetic dwarfs the loads.
enum LaneLoops {
    typealias Lanes = UnsafeMutablePointer<Float>

    @inline(never) static func floor(_ d: Lanes, _ a: Lanes, _ n: Int) { for k in 0..<n { d[k] = LaneMath.floor(a[k]) } }
    @inline(never) static func ceil(_ d: Lanes, _ a: Lanes, _ n: Int) { for k in 0..<n { d[k] = LaneMath.ceil(a[k]) } }
    @inline(never) static func frac(_ d: Lanes, _ a: Lanes, _ n: Int) { for k in 0..<n { d[k] = a[k] - LaneMath.floor(a[k]) } }
    @inline(never) static func round(_ d: Lanes, _ a: Lanes, _ n: Int) { for k in 0..<n { d[k] = LaneMath.rint(a[k]) } }
    @inline(never) static func trunc(_ d: Lanes, _ a: Lanes, _ n: Int) { for k in 0..<n { d[k] = LaneMath.trunc(a[k]) } }
    @inline(never) static func exp(_ d: Lanes, _ a: Lanes, _ n: Int) { for k in 0..<n { d[k] = LaneMath.exp2(a[k] * 1.442_695_04) } }
    @inline(never) static func exp2(_ d: Lanes, _ a: Lanes, _ n: Int) { for k in 0..<n { d[k] = LaneMath.exp2(a[k]) } }
    /// log2, times `scale` (1, ln 2 for log, log10 2 for log10).
    @inline(never) static func log2(_ d: Lanes, _ a: Lanes, _ n: Int, scale: Float) {
        if scale == 1 {
            for k in 0..<n { d[k] = LaneMath.log2(a[k]) }
        } else {
            for k in 0..<n { d[k] = LaneMath.log2(a[k]) * scale }
        }
    }
    @inline(never) static func sin(_ d: Lanes, _ a: Lanes, _ n: Int) { for k in 0..<n { d[k] = LaneMath.sin(a[k]) } }
    @inline(never) static func cos(_ d: Lanes, _ a: Lanes, _ n: Int) { for k in 0..<n { d[k] = LaneMath.cos(a[k]) } }
    @inline(never) static func atan(_ d: Lanes, _ a: Lanes, _ n: Int) { for k in 0..<n { d[k] = LaneMath.atan2(a[k], 1) } }
    @inline(never) static func fmod(_ d: Lanes, _ a: Lanes, _ b: Lanes, _ n: Int) {
        for k in 0..<n { d[k] = a[k] - b[k] * LaneMath.trunc(a[k] / b[k]) }
    }
    @inline(never) static func pow(_ d: Lanes, _ a: Lanes, _ b: Lanes, _ n: Int) { for k in 0..<n { d[k] = LaneMath.pow(a[k], b[k]) } }
    @inline(never) static func atan2(_ d: Lanes, _ a: Lanes, _ b: Lanes, _ n: Int) { for k in 0..<n { d[k] = LaneMath.atan2(a[k], b[k]) } }
}
