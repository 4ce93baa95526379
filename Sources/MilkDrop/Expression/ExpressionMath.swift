import Foundation

/// The arithmetic of MilkDrop's expression language, written once and used by the interpreter, the
/// compound assignments and the constant folder, so all three agree.
///
/// Choices (after MilkDrop 2's ns-eel2 and projectM's projectm-eval; none of them can trap):
/// - `x / 0` is 0 (projectm-eval: a divisor within 1e-300 of 0 gives 0, not ±inf).
/// - `a % b` truncates both to integers, then takes C's remainder (sign of `a`); `% 0` is 0.
/// - `a ^ b` is `pow(a, b)`; `0 ^ negative` is 0 and a NaN result (negative base, fractional
///   exponent) is 0.
/// - `sqrt(x)` is `sqrt(|x|)`; `log(x)` and `log10(x)` are 0 for `x <= 0`; `invsqrt(x)` is `1/sqrt(|x|)`
///   computed exactly (MilkDrop used the fast approximation) and 0 for 0.
/// - Truth: a value is true when `|x| > 1e-300` (so NaN is false); `!`, `&&`, `||`, `if`, `?:`, `while`,
///   `band`, `bor`, `bnot` all use it.
/// - `==`, `!=`, `equal` compare within 0.00001 (ns-eel2's closeness factor); `<`, `>`, `<=`, `>=`,
///   `above`, `below` are exact.
/// - `&`, `|` (and `&=`, `|=`) work on the values truncated to 64-bit integers.
/// - Converting to an integer (`%`, `&`, `|`, `int`, loop counts) clamps to the 64-bit range and maps
///   NaN to 0. `int(x)` truncates toward 0.
/// - Everything else is plain IEEE arithmetic: `exp(1000)` is +inf, `asin(2)` is NaN; those values flow
///   on (they are Doubles, never a crash) and the renderer sanitises what it reads back.
enum ExpressionMath {
    static let closeFactor = 0.00001
    static let zeroFactor = 1e-300

    @inline(__always) static func truth(_ x: Double) -> Bool { abs(x) > zeroFactor }
    @inline(__always) static func bool(_ b: Bool) -> Double { b ? 1 : 0 }

    /// `x` truncated toward 0 into Int64, clamped, NaN → 0.
    @inline(__always) static func integer(_ x: Double) -> Int64 {
        if x.isNaN { return 0 }
        if x >= 9.2e18 { return Int64.max }
        if x <= -9.2e18 { return Int64.min }
        return Int64(x)
    }

    @inline(__always) static func divide(_ x: Double, _ y: Double) -> Double {
        abs(y) < zeroFactor ? 0 : x / y
    }

    @inline(__always) static func modulo(_ x: Double, _ y: Double) -> Double {
        let d = integer(y)
        if d == 0 { return 0 }
        let r = integer(x).remainderReportingOverflow(dividingBy: d)
        return r.overflow ? 0 : Double(r.partialValue)
    }

    @inline(__always) static func power(_ x: Double, _ y: Double) -> Double {
        if abs(x) < zeroFactor && y < 0 { return 0 }
        let r = Foundation.pow(x, y)
        return r.isNaN ? 0 : r
    }

    @inline(__always) static func log(_ x: Double) -> Double { x <= 0 ? 0 : Foundation.log(x) }
    @inline(__always) static func log10(_ x: Double) -> Double { x <= 0 ? 0 : Foundation.log10(x) }
    @inline(__always) static func sqrt(_ x: Double) -> Double { abs(x).squareRoot() }
    @inline(__always) static func invsqrt(_ x: Double) -> Double {
        let a = abs(x)
        return a < zeroFactor ? 0 : 1 / a.squareRoot()
    }

    @inline(__always) static func sign(_ x: Double) -> Double { x > 0 ? 1 : (x < 0 ? -1 : 0) }
    @inline(__always) static func int(_ x: Double) -> Double {
        x.isFinite ? x.rounded(.towardZero) : (x.isNaN ? 0 : x)
    }

    /// ns-eel2's sigmoid: `1 / (1 + exp(-a·b))`, 0 when the denominator is within 0.00001 of 0.
    @inline(__always) static func sigmoid(_ a: Double, _ b: Double) -> Double {
        let t = 1 + Foundation.exp(-a * b)
        return abs(t) > closeFactor ? 1 / t : 0
    }

    @inline(__always) static func equal(_ x: Double, _ y: Double) -> Bool { abs(x - y) < closeFactor }

    /// The next `rand(n)`: uniform in [0, m) with `m = max(1, floor(n))`, as ns-eel2 (which returns a
    /// fraction, not an integer, unlike MilkDrop 1's evallib). The generator is xorshift64* on the
    /// memory's own state, so a given seed gives the same sequence on every run and machine.
    @inline(__always) static func random(_ n: Double, _ state: UnsafeMutablePointer<UInt64>) -> Double {
        var s = state.pointee
        s ^= s >> 12
        s ^= s << 25
        s ^= s >> 27
        state.pointee = s
        let unit = Double((s &* 0x2545_F491_4F6C_DD1D) >> 11) * 0x1.0p-53
        let m = n.isNaN ? 1 : Swift.max(1, n.rounded(.down))
        return unit * m
    }

    /// An eager two-operand operation by kind (compound assignments and the constant folder).
    static func apply(_ op: BinaryOperator, _ x: Double, _ y: Double) -> Double {
        switch op {
        case .add: x + y
        case .subtract: x - y
        case .multiply: x * y
        case .divide: divide(x, y)
        case .modulo: modulo(x, y)
        case .power: power(x, y)
        case .equal: bool(equal(x, y))
        case .notEqual: bool(!equal(x, y))
        case .less: bool(x < y)
        case .greater: bool(x > y)
        case .lessOrEqual: bool(x <= y)
        case .greaterOrEqual: bool(x >= y)
        case .bitAnd: Double(integer(x) & integer(y))
        case .bitOr: Double(integer(x) | integer(y))
        case .min: Swift.min(x, y)
        case .max: Swift.max(x, y)
        case .atan2: Foundation.atan2(x, y)
        case .sigmoid: sigmoid(x, y)
        }
    }

    /// A one-operand operation by kind (the constant folder). `rand` is never folded.
    static func apply(_ op: UnaryOperator, _ x: Double) -> Double {
        switch op {
        case .negate: -x
        case .not: bool(!truth(x))
        case .sin: Foundation.sin(x)
        case .cos: Foundation.cos(x)
        case .tan: Foundation.tan(x)
        case .asin: Foundation.asin(x)
        case .acos: Foundation.acos(x)
        case .atan: Foundation.atan(x)
        case .sqr: x * x
        case .sqrt: sqrt(x)
        case .invsqrt: invsqrt(x)
        case .exp: Foundation.exp(x)
        case .log: log(x)
        case .log10: log10(x)
        case .abs: abs(x)
        case .sign: sign(x)
        case .int: int(x)
        case .floor: x.rounded(.down)
        case .ceil: x.rounded(.up)
        case .rand: 0
        }
    }
}

/// Two-operand operations evaluated eagerly (both operands, left first).
enum BinaryOperator: UInt8, Sendable {
    case add, subtract, multiply, divide, modulo, power
    case equal, notEqual, less, greater, lessOrEqual, greaterOrEqual
    case bitAnd, bitOr, min, max, atan2, sigmoid
}

/// One-operand operations.
enum UnaryOperator: UInt8, Sendable {
    case negate, not, sin, cos, tan, asin, acos, atan, sqr, sqrt, invsqrt, exp, log, log10, abs, sign, int, floor, ceil, rand
}
