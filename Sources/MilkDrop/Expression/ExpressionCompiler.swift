/// Turns an `ExpressionNode` tree into stack-machine instructions, computing the deepest stack and the
/// deepest loop nesting the program needs, so `run()` works in buffers sized once.
///
/// It folds constant sub-expressions (`2 * $pi` becomes one number; `rand` is never folded), fuses
/// `value op constant` / `value op variable` for `+ - * /` into one instruction, and stores
/// statements' assignments without pushing a value that would be dropped.
struct ExpressionCompiler {
    private(set) var code: [ExpressionInstruction] = []
    private(set) var maximumDepth = 0
    private(set) var maximumLoops = 0
    private var depth = 0
    private var loops = 0

    static func compile(_ root: ExpressionNode) -> ExpressionCompiler {
        var compiler = ExpressionCompiler()
        compiler.discard(simplify(root))
        compiler.append(.init(op: .end))
        return compiler
    }

    // MARK: folding

    static func simplify(_ node: ExpressionNode) -> ExpressionNode {
        switch node {
        case .number, .variable, .register: return node
        case .unary(let op, let a):
            let a = simplify(a)
            if op != .rand, case .number(let x) = a { return .number(ExpressionMath.apply(op, x)) }
            return .unary(op, a)
        case .binary(let op, let a, let b):
            let a = simplify(a), b = simplify(b)
            if case .number(let x) = a, case .number(let y) = b { return .number(ExpressionMath.apply(op, x, y)) }
            return .binary(op, a, b)
        case .and(let a, let b): return .and(simplify(a), simplify(b))
        case .or(let a, let b): return .or(simplify(a), simplify(b))
        case .conditional(let c, let a, let b): return .conditional(simplify(c), simplify(a), b.map(simplify))
        case .assign(let op, let t, let v): return .assign(op, simplify(t), simplify(v))
        case .sequence(let items): return items.count == 1 ? simplify(items[0]) : .sequence(items.map(simplify))
        case .memory(let g, let i): return .memory(global: g, simplify(i))
        case .loop(let n, let body): return .loop(simplify(n), simplify(body))
        case .whileLoop(let body): return .whileLoop(simplify(body))
        case .memset(let a, let b, let c): return .memset(simplify(a), simplify(b), simplify(c))
        case .memcpy(let a, let b, let c): return .memcpy(simplify(a), simplify(b), simplify(c))
        }
    }

    // MARK: emission

    private mutating func append(_ i: ExpressionInstruction, stack change: Int = 0) {
        code.append(i)
        depth += change
        maximumDepth = max(maximumDepth, depth)
    }

    private var here: Int32 { Int32(code.count) }

    private mutating func patch(_ at: Int, to target: Int32) { code[at].a = target }

    /// Evaluates `node` for its effects only: the stack is as before.
    private mutating func discard(_ node: ExpressionNode) {
        switch node {
        case .number, .variable, .register: return
        case .sequence(let items):
            for item in items { discard(item) }
        case .assign(nil, .variable(let slot), let value):
            push(value)
            append(.init(op: .storeVarPop, a: Int32(slot)), stack: -1)
        default:
            push(node)
            append(.init(op: .pop), stack: -1)
        }
    }

    /// Evaluates `node`, leaving its value on top of the stack.
    private mutating func push(_ node: ExpressionNode) {
        switch node {
        case .number(let v): append(.init(op: .pushConst, k: v), stack: 1)
        case .variable(let slot): append(.init(op: .pushVar, a: Int32(slot)), stack: 1)
        case .register(let r): append(.init(op: .pushRegister, a: Int32(r)), stack: 1)
        case .unary(let op, let a):
            push(a)
            append(.init(op: Self.opcode(op)))
        case .binary(let op, let a, let b):
            push(a)
            if let fused = Self.fused(op, b) {
                append(fused)
            } else {
                push(b)
                append(.init(op: Self.opcode(op)), stack: -1)
            }
        case .and(let a, let b): pushShortCircuit(a, b, isAnd: true)
        case .or(let a, let b): pushShortCircuit(a, b, isAnd: false)
        case .conditional(let c, let a, let b): pushConditional(c, a, b)
        case .sequence(let items):
            guard let last = items.last else { return push(.number(0)) }
            for item in items.dropLast() { discard(item) }
            push(last)
        case .assign(let op, let target, let value):
            assign(op, target, value)
        case .memory(let global, let index):
            push(index)
            append(.init(op: global ? .globalLoad : .memLoad))
        case .loop(let count, let body): pushLoop(count: count, body)
        case .whileLoop(let body): pushWhile(body)
        case .memset(let a, let b, let c), .memcpy(let a, let b, let c):
            push(a)
            push(b)
            push(c)
            let isSet: Bool = if case .memset = node { true } else { false }
            append(.init(op: isSet ? .memset : .memcpy), stack: -2)
        }
    }

    /// `a && b` or `a || b`: `b` is evaluated only when `a` does not decide; the result is 0 or 1.
    private mutating func pushShortCircuit(_ a: ExpressionNode, _ b: ExpressionNode, isAnd: Bool) {
        push(a)
        let jump = code.count
        append(.init(op: isAnd ? .andLeft : .orLeft), stack: -1)
        push(b)
        append(.init(op: .toBool))
        patch(jump, to: here)
    }

    /// `c ? a : b` (`if(c, a, b)`), only the branch taken evaluated; a missing `b` is 0.
    private mutating func pushConditional(_ c: ExpressionNode, _ a: ExpressionNode, _ b: ExpressionNode?) {
        push(c)
        let toElse = code.count
        append(.init(op: .jumpIfFalse), stack: -1)
        push(a)
        let toEnd = code.count
        append(.init(op: .jump), stack: -1)
        patch(toElse, to: here)
        push(b ?? .number(0))
        patch(toEnd, to: here)
    }

    /// `loop(count, body)`: the body `count` times, the value of its last run left (0 when it never runs).
    private mutating func pushLoop(count: ExpressionNode, _ body: ExpressionNode) {
        push(count)
        let start = code.count
        append(.init(op: .loopStart))          // count → result 0 (then one value either way)
        enterLoop()
        let bodyStart = here
        append(.init(op: .pop), stack: -1)
        push(body)
        append(.init(op: .loopNext, a: bodyStart))
        loops -= 1
        patch(start, to: here)
    }

    /// `while(body)`: the body until it gives 0 (bounded by the machine), its last value left.
    private mutating func pushWhile(_ body: ExpressionNode) {
        append(.init(op: .whileStart), stack: 1)
        enterLoop()
        let bodyStart = here
        append(.init(op: .pop), stack: -1)
        push(body)
        append(.init(op: .whileNext, a: bodyStart))
        loops -= 1
    }

    private mutating func enterLoop() {
        loops += 1
        maximumLoops = max(maximumLoops, loops)
    }

    /// `target = value` / `target op= value`, leaving the stored value. Targets that are not places
    /// (a number, `a + b`) still run, and the value is given without being stored anywhere.
    private mutating func assign(_ op: BinaryOperator?, _ target: ExpressionNode, _ value: ExpressionNode) {
        switch target {
        case .variable(let slot), .register(let slot):
            let isVariable: Bool = if case .variable = target { true } else { false }
            if let op {
                push(target)
                push(value)
                append(.init(op: Self.opcode(op)), stack: -1)
            } else {
                push(value)
            }
            append(.init(op: isVariable ? .storeVar : .storeRegister, a: Int32(slot)))
        case .memory(let global, let index):
            push(index)
            push(value)
            if let op {
                append(.init(op: global ? .globalUpdate : .memUpdate, a: Int32(op.rawValue)), stack: -1)
            } else {
                append(.init(op: global ? .globalStore : .memStore), stack: -1)
            }
        case .conditional(let c, let a, let b):
            push(.conditional(c, .assign(op, a, value), b.map { .assign(op, $0, value) }))
        case .sequence(let items) where !items.isEmpty:
            for item in items.dropLast() { discard(item) }
            assign(op, items[items.count - 1], value)
        default:
            if let op {
                push(.binary(op, target, value))
            } else {
                discard(target)
                push(value)
            }
        }
    }

    private static func fused(_ op: BinaryOperator, _ right: ExpressionNode) -> ExpressionInstruction? {
        switch (op, right) {
        case (.add, .number(let k)): .init(op: .addConst, k: k)
        case (.subtract, .number(let k)): .init(op: .subtractConst, k: k)
        case (.multiply, .number(let k)): .init(op: .multiplyConst, k: k)
        case (.divide, .number(let k)) where abs(k) >= ExpressionMath.zeroFactor: .init(op: .divideConst, k: k)
        case (.add, .variable(let s)): .init(op: .addVar, a: Int32(s))
        case (.subtract, .variable(let s)): .init(op: .subtractVar, a: Int32(s))
        case (.multiply, .variable(let s)): .init(op: .multiplyVar, a: Int32(s))
        case (.divide, .variable(let s)): .init(op: .divideVar, a: Int32(s))
        default: nil
        }
    }

    static func opcode(_ op: UnaryOperator) -> ExpressionOpcode {
        switch op {
        case .negate: .negate
        case .not: .not
        case .sin: .sin
        case .cos: .cos
        case .tan: .tan
        case .asin: .asin
        case .acos: .acos
        case .atan: .atan
        case .sqr: .sqr
        case .sqrt: .sqrt
        case .invsqrt: .invsqrt
        case .exp: .exp
        case .log: .log
        case .log10: .log10
        case .abs: .abs
        case .sign: .sign
        case .int: .int
        case .floor: .floor
        case .ceil: .ceil
        case .rand: .rand
        }
    }

    static func opcode(_ op: BinaryOperator) -> ExpressionOpcode {
        switch op {
        case .add: .add
        case .subtract: .subtract
        case .multiply: .multiply
        case .divide: .divide
        case .modulo: .modulo
        case .power: .power
        case .equal: .equal
        case .notEqual: .notEqual
        case .less: .less
        case .greater: .greater
        case .lessOrEqual: .lessOrEqual
        case .greaterOrEqual: .greaterOrEqual
        case .bitAnd: .bitAnd
        case .bitOr: .bitOr
        case .min: .min
        case .max: .max
        case .atan2: .atan2
        case .sigmoid: .sigmoid
        }
    }
}
