/// What a virtual register of the compiler holds before registers are allocated.
enum ShaderValueSource: Hashable, Sendable {
    /// Computed by the code.
    case computed
    case constant(Float)
    /// The uniform block's float at this offset.
    case uniform(Int32)
    case input(ShaderPixelInput)
    /// `texsize_NAME`'s component (width, height, 1/width, 1/height) of the texture named.
    case textureSize(String, Int32)
}

/// Builds the operations of a program over *virtual* registers (as many as wanted; ``ShaderOptimizer``
/// maps them onto few), folding as it goes: operations on constants are computed now with
/// ``ShaderReference``'s own arithmetic, identities (`x * 1`, `x + 0`, `select(1, a, b)`) vanish, and an
/// operation already emitted on the same operands is reused (value numbering; forgotten at loop edges).
struct ShaderEmitter {
    private(set) var code: [ShaderOperation] = []
    private(set) var sources: [ShaderValueSource] = []
    private var preloaded: [ShaderValueSource: Int32] = [:]
    private var known: [Key: Int32] = [:]
    /// Registers known to hold 0 or 1, and registers known to be in 0…1 (a `saturate`'s result).
    private var booleans: Set<Int32> = [], saturated: Set<Int32> = []

    fileprivate enum Key: Hashable {
        case unary(ShaderUnary, Int32)
        case binary(ShaderBinary, Int32, Int32)
        case ternary(ShaderTernary, Int32, Int32, Int32)
        /// A texture read: its first register (the other three follow it).
        case sample(Int32, Int32, Int32, Int32)
    }

    /// A register computed by the code (an operation still has to write it).
    mutating func fresh() throws(ShaderFault) -> Int32 {
        guard sources.count < 4 * ShaderLimits.operations else { throw ShaderFault(0, "shader too large", .tooLarge) }
        sources.append(.computed)
        return Int32(sources.count - 1)
    }

    /// The register holding `source` (one per distinct constant, uniform, input or size).
    mutating func preload(_ source: ShaderValueSource) -> Int32 {
        if let r = preloaded[source] { return r }
        sources.append(source)
        let r = Int32(sources.count - 1)
        preloaded[source] = r
        return r
    }

    mutating func constant(_ value: Float) -> Int32 { preload(.constant(value)) }

    func constantValue(_ r: Int32) -> Float? {
        if case .constant(let v) = sources[Int(r)] { return v }
        return nil
    }

    mutating func emit(_ op: ShaderOperation) throws(ShaderFault) {
        guard code.count < ShaderLimits.operations else {
            throw ShaderFault(0, "more than \(ShaderLimits.operations) operations", .tooLarge)
        }
        code.append(op)
    }

    /// Forgets reusable results: after a loop (whose registers were rewritten) or a rollback.
    mutating func forgetReuse() { known.removeAll(keepingCapacity: true) }

    /// The state to come back to when an attempt (unrolling a loop) is abandoned.
    struct Mark { fileprivate var count: Int; fileprivate var known: [Key: Int32] }
    func mark() -> Mark { Mark(count: code.count, known: known) }
    mutating func rollBack(to mark: Mark) {
        code.removeSubrange(mark.count...)
        known = mark.known
    }

    // MARK: operations

    mutating func unary(_ f: ShaderUnary, _ a: Int32) throws(ShaderFault) -> Int32 {
        if let x = constantValue(a) { return constant(ShaderReference.unary(f, x)) }
        if case .bool = f, isBoolean(a) { return a }
        if case .saturate = f, saturated.contains(a) || isBoolean(a) { return a }
        let key = Key.unary(f, a)
        if let r = known[key] { return r }
        let r = try fresh()
        try emit(.unary(f, dst: r, a: a))
        known[key] = r
        switch f {
        case .not, .bool: booleans.insert(r)
        case .saturate: saturated.insert(r)
        default: break
        }
        return r
    }

    mutating func binary(_ f: ShaderBinary, _ a: Int32, _ b: Int32) throws(ShaderFault) -> Int32 {
        let x = constantValue(a), y = constantValue(b)
        if let x, let y { return constant(ShaderReference.binary(f, x, y)) }
        switch f {
        case .add:
            if x == 0 { return b }
            if y == 0 { return a }
        case .subtract:
            if y == 0 { return a }
            if x == 0 { return try unary(.negate, b) }
        case .multiply:
            if x == 1 { return b }
            if y == 1 { return a }
            if x == 0 || y == 0 { return constant(0) }
            if x == -1 { return try unary(.negate, b) }
            if y == -1 { return try unary(.negate, a) }
        case .divide:
            if y == 1 { return a }
        case .min, .max:
            if a == b { return a }
        case .and:
            if let x { return x == 0 ? constant(0) : try unary(.bool, b) }
            if let y { return y == 0 ? constant(0) : try unary(.bool, a) }
            if a == b { return try unary(.bool, a) }
        case .or:
            if let x { return x != 0 ? constant(1) : try unary(.bool, b) }
            if let y { return y != 0 ? constant(1) : try unary(.bool, a) }
            if a == b { return try unary(.bool, a) }
        default: break
        }
        // Commutative operations reuse either order.
        let commutative: Bool = switch f { case .add, .multiply, .min, .max, .equal, .notEqual, .and, .or: true; default: false }
        let key = Key.binary(f, commutative ? min(a, b) : a, commutative ? max(a, b) : b)
        if let r = known[key] { return r }
        let r = try fresh()
        try emit(.binary(f, dst: r, a: a, b: b))
        known[key] = r
        switch f {
        case .less, .lessEqual, .greater, .greaterEqual, .equal, .notEqual, .and, .or, .step: booleans.insert(r)
        default: break
        }
        return r
    }

    mutating func ternary(_ f: ShaderTernary, _ a: Int32, _ b: Int32, _ c: Int32) throws(ShaderFault) -> Int32 {
        if let x = constantValue(a), let y = constantValue(b), let z = constantValue(c) {
            return constant(ShaderReference.ternary(f, x, y, z))
        }
        switch f {
        case .select:
            if let x = constantValue(a) { return x != 0 ? b : c }
            if b == c { return b }
        case .lerp:
            if constantValue(c) == 0 { return a }
            if constantValue(c) == 1 { return b }
        case .multiplyAdd:
            if constantValue(c) == 0 { return try binary(.multiply, a, b) }
            if constantValue(a) == 1 { return try binary(.add, b, c) }
            if constantValue(b) == 1 { return try binary(.add, a, c) }
        default: break
        }
        let key = Key.ternary(f, a, b, c)
        if let r = known[key] { return r }
        let r = try fresh()
        try emit(.ternary(f, dst: r, a: a, b: b, c: c))
        known[key] = r
        if f == .select, isBoolean(b), isBoolean(c) { booleans.insert(r) }
        return r
    }

    /// Reads texture `slot` at (u, v[, w]) into four new consecutive registers (red first), or gives
    /// those of the same read made before.
    mutating func sample(slot: Int32, u: Int32, v: Int32, w: Int32) throws(ShaderFault) -> [Int32] {
        let key = Key.sample(slot, u, v, w)
        if let r = known[key] { return [r, r + 1, r + 2, r + 3] }
        let r = [try fresh(), try fresh(), try fresh(), try fresh()]
        try emit(.sample(slot: slot, u: u, v: v, w: w, r: r[0], g: r[1], b: r[2], a: r[3]))
        known[key] = r[0]
        return r
    }

    /// `select(mask, new, old)` written into `dst` itself (a loop's carried register), or nothing
    /// when it would not change it.
    mutating func update(_ dst: Int32, mask: Int32?, value: Int32) throws(ShaderFault) {
        guard value != dst else { return }
        if let mask { try emit(.ternary(.select, dst: dst, a: mask, b: value, c: dst)) } else { try emit(.move(dst: dst, a: value)) }
    }

    /// True when `r` is known to hold 0 or 1 (a comparison, a logic result or such a constant).
    func isBoolean(_ r: Int32) -> Bool {
        if let v = constantValue(r) { return v == 0 || v == 1 }
        return booleans.contains(r)
    }
}

extension ShaderEmitter {
    /// Points the jump at `index` (emitted with a placeholder target) at `target`.
    mutating func patchJump(at index: Int, to target: Int32) {
        if case .jumpIfNone(let mask, _) = code[index] { code[index] = .jumpIfNone(mask: mask, to: target) }
    }
}
