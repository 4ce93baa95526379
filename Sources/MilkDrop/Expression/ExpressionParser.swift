/// Recursive-descent parser from tokens to `ExpressionNode`s, interning variable names in a memory.
///
/// Precedence, loosest first (ns-eel2's, as projectm-eval's grammar reproduces it):
/// `;` sequence · assignments `= += -= *= /= %= ^= &= |=` (right to left) · `?:` · `||` · `&&` · `|` ·
/// `&` · comparisons `== != < > <= >=` · `+ -` · `* /` · `%` · prefix `!` · `^` (left to right:
/// `2^3^2` is 64) · prefix `-` `+` (so `-2^2` is 4, as in ns-eel2) · `[ ]` subscripts and calls.
/// Function arguments and parentheses hold whole sequences: `loop(3, a += 1; b += a)`.
struct ExpressionParser {
    private let tokens: [ExpressionToken]
    private var position = 0
    private let memory: ExpressionMemory
    /// Current recursion depth (parentheses, arguments, prefix operators, right-hand sides), and the
    /// operators chained on the current path (`1+1+1` is a tree three deep): hostile input must not
    /// overflow the thread's stack, here or when the tree is compiled and freed. Presets nest < 20.
    private var level = 0, chain = 0
    static let maximumLevel = 64, maximumChain = 256

    init(tokens: [ExpressionToken], memory: ExpressionMemory) {
        self.tokens = tokens
        self.memory = memory
    }

    /// The whole block; an error when something is left over.
    mutating func parseProgram() throws(ExpressionError) -> ExpressionNode {
        let node = try parseSequence()
        if case .end = current.kind {
            guard node.height(limit: ExpressionNode.maximumHeight) <= ExpressionNode.maximumHeight else {
                throw ExpressionError(offset: 0, message: "expression nested too deeply")
            }
            return node
        }
        throw error("unexpected \(describe(current))")
    }

    // MARK: levels

    private mutating func parseSequence() throws(ExpressionError) -> ExpressionNode {
        var items: [ExpressionNode] = []
        while true {
            if accept(";") { continue }
            if isSequenceEnd { break }
            items.append(try parseAssignment())
            if accept(";") { continue }
            if isSequenceEnd { break }
            throw error("expected \";\" before \(describe(current))")
        }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    private var isSequenceEnd: Bool {
        switch current.kind {
        case .end: true
        case .symbol(let s): s == ")" || s == "," || s == "]"
        default: false
        }
    }

    private static let compound: [String: BinaryOperator] = [
        "+=": .add, "-=": .subtract, "*=": .multiply, "/=": .divide, "%=": .modulo, "^=": .power,
        "&=": .bitAnd, "|=": .bitOr,
    ]

    private mutating func parseAssignment() throws(ExpressionError) -> ExpressionNode {
        level += 1
        defer { level -= 1 }
        guard level <= Self.maximumLevel else { throw error("expression nested too deeply") }
        let target = try parseConditional()
        guard case .symbol(let s) = current.kind else { return target }
        if s == "=" {
            advance()
            return .assign(nil, target, try parseAssignment())
        }
        if let op = Self.compound[s] {
            advance()
            return .assign(op, target, try parseAssignment())
        }
        return target
    }

    private mutating func parseConditional() throws(ExpressionError) -> ExpressionNode {
        let condition = try parseOr()
        guard accept("?") else { return condition }
        let whenTrue = try parseAssignment()
        let whenFalse: ExpressionNode? = accept(":") ? try parseAssignment() : nil
        return .conditional(condition, whenTrue, whenFalse)
    }

    /// What a two-operand operator builds: the lazy `&&`/`||` or an eager operation.
    private enum Infix { case and, or, eager(BinaryOperator) }

    /// The two-operand operators and their binding strength, from `||` (1, loosest) to `%` (8), all
    /// left to right.
    private static let infixOperators: [String: (strength: Int, infix: Infix)] = [
        "||": (1, .or), "&&": (2, .and), "|": (3, .eager(.bitOr)), "&": (4, .eager(.bitAnd)),
        "==": (5, .eager(.equal)), "!=": (5, .eager(.notEqual)), "<": (5, .eager(.less)), ">": (5, .eager(.greater)),
        "<=": (5, .eager(.lessOrEqual)), ">=": (5, .eager(.greaterOrEqual)),
        "+": (6, .eager(.add)), "-": (6, .eager(.subtract)), "*": (7, .eager(.multiply)), "/": (7, .eager(.divide)),
        "%": (8, .eager(.modulo)),
    ]

    private mutating func parseOr() throws(ExpressionError) -> ExpressionNode { try parseInfix(1) }

    /// Precedence climbing: operands joined by operators at least `minimum` strong (one recursion per
    /// operator, not per level, to keep the stack shallow).
    private mutating func parseInfix(_ minimum: Int) throws(ExpressionError) -> ExpressionNode {
        var left = try parseNot()
        var chained = 0
        defer { chain -= chained }
        while case .symbol(let s) = current.kind, let (strength, infix) = Self.infixOperators[s], strength >= minimum {
            advance()
            chained += 1
            try deeper()
            let right = try parseInfix(strength + 1)
            switch infix {
            case .and: left = .and(left, right)
            case .or: left = .or(left, right)
            case .eager(let op): left = .binary(op, left, right)
            }
        }
        return left
    }

    private mutating func parseNot() throws(ExpressionError) -> ExpressionNode {
        if accept("!") { return .unary(.not, try nestedSign()) }
        return try parsePower()
    }

    private mutating func parsePower() throws(ExpressionError) -> ExpressionNode {
        var left = try parseSign()
        var chained = 0
        defer { chain -= chained }
        while accept("^") {
            chained += 1
            try deeper()
            left = .binary(.power, left, try parseSign())
        }
        return left
    }

    private mutating func parseSign() throws(ExpressionError) -> ExpressionNode {
        if accept("-") { return .unary(.negate, try nestedSign()) }
        if accept("+") { return try nestedSign() }
        if accept("!") { return .unary(.not, try nestedSign()) }
        return try parsePostfix()
    }

    /// One more operator chained on the current path; undone by the caller.
    private mutating func deeper() throws(ExpressionError) {
        chain += 1
        guard chain <= Self.maximumChain else { throw error("expression nested too deeply") }
    }

    private mutating func nestedSign() throws(ExpressionError) -> ExpressionNode {
        level += 1
        defer { level -= 1 }
        guard level <= Self.maximumLevel else { throw error("expression nested too deeply") }
        return try parseSign()
    }

    /// `base[offset]` → local megabuf at base + offset (`base[]`: at base); `gmem[i]` → gmegabuf.
    private mutating func parsePostfix() throws(ExpressionError) -> ExpressionNode {
        var node = try parsePrimary()
        while case .symbol("[") = current.kind {
            advance()
            var global = false
            if case .variable(let slot) = node, memory.variableNames[slot] == "gmem" { global = true }
            let inner = try parseSequence()
            try expect("]")
            let empty: Bool = if case .sequence(let items) = inner, items.isEmpty { true } else { false }
            let index: ExpressionNode = global ? inner : (empty ? node : .binary(.add, node, inner))
            node = .memory(global: global, index)
        }
        return node
    }

    private mutating func parsePrimary() throws(ExpressionError) -> ExpressionNode {
        let token = current
        switch token.kind {
        case .number(let v):
            advance()
            return .number(v)
        case .identifier(let name):
            advance()
            if case .symbol("(") = current.kind { return try parseCall(name, at: token.offset) }
            if name.count == 5, name.hasPrefix("reg"), let n = Int(name.dropFirst(3)), name.dropFirst(3).allSatisfy(\.isNumber) {
                return .register(n)
            }
            do { return .variable(try memory.slot(name)) } catch { throw ExpressionError(offset: token.offset, message: error.message) }
        case .symbol("("):
            advance()
            let inner = try parseSequence()
            try expect(")")
            return inner
        default:
            throw error("expected an expression before \(describe(token))")
        }
    }

    private mutating func parseCall(_ name: String, at offset: Int) throws(ExpressionError) -> ExpressionNode {
        guard let builtin = ExpressionBuiltin.table[name] else {
            throw ExpressionError(offset: offset, message: "unknown function \"\(name)\"")
        }
        advance()
        var args: [ExpressionNode] = []
        if case .symbol(")") = current.kind {} else {
            while true {
                args.append(try parseSequence())
                if !accept(",") { break }
            }
        }
        try expect(")")
        guard args.count == builtin.arity else {
            let plural = builtin.arity == 1 ? "argument" : "arguments"
            throw ExpressionError(offset: offset, message: "\(name) takes \(builtin.arity) \(plural), not \(args.count)")
        }
        switch builtin {
        case .unary(let op): return .unary(op, args[0])
        case .binary(let op): return .binary(op, args[0], args[1])
        case .ifElse: return .conditional(args[0], args[1], args[2])
        case .and: return .and(args[0], args[1])
        case .or: return .or(args[0], args[1])
        case .not: return .unary(.not, args[0])
        case .exec2, .exec3: return .sequence(args)
        case .loop: return .loop(args[0], args[1])
        case .whileLoop: return .whileLoop(args[0])
        case .megabuf: return .memory(global: false, args[0])
        case .gmegabuf: return .memory(global: true, args[0])
        case .assign: return .assign(nil, args[0], args[1])
        case .memset: return .memset(args[0], args[1], args[2])
        case .memcpy: return .memcpy(args[0], args[1], args[2])
        case .freembuf: return args[0]   // a no-op in MilkDrop 2 and projectM: gives its argument
        }
    }

    // MARK: tokens

    private var current: ExpressionToken { tokens[position] }

    private mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    private mutating func accept(_ symbol: String) -> Bool {
        if case .symbol(let s) = current.kind, s == symbol {
            advance()
            return true
        }
        return false
    }

    private mutating func expect(_ symbol: String) throws(ExpressionError) {
        guard accept(symbol) else {
            throw error("expected \"\(symbol)\" before \(describe(current))")
        }
    }

    private func error(_ message: String) -> ExpressionError { ExpressionError(offset: current.offset, message: message) }

    private func describe(_ token: ExpressionToken) -> String {
        switch token.kind {
        case .end: "the end"
        case .number(let v): "number \(v)"
        case .identifier(let n): "\"\(n)\""
        case .symbol(let s): "\"\(s)\""
        }
    }
}
