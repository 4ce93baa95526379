/// The parsed form of a code block, before it is compiled to `ExpressionInstruction`s.
indirect enum ExpressionNode {
    case number(Double)
    case variable(Int)                       // a slot of the program's memory
    case register(Int)                       // reg00…reg99, in the global buffer
    case unary(UnaryOperator, ExpressionNode)
    case binary(BinaryOperator, ExpressionNode, ExpressionNode)
    /// `&&`, `band`: the right side only runs when the left is true; gives 0 or 1.
    case and(ExpressionNode, ExpressionNode)
    /// `||`, `bor`: the right side only runs when the left is false; gives 0 or 1.
    case or(ExpressionNode, ExpressionNode)
    /// `if(c, a, b)`, `c ? a : b`, `c ? a` (0 when false): only the chosen branch runs.
    case conditional(ExpressionNode, ExpressionNode, ExpressionNode?)
    /// `target = value` (operator nil) or `target op= value`.
    case assign(BinaryOperator?, ExpressionNode, ExpressionNode)
    /// `a; b; c`, `exec2`, `exec3`: the value of the last (0 when empty).
    case sequence([ExpressionNode])
    /// `megabuf(i)`, `i[]`, `a[b]` (local) or `gmegabuf(i)`, `gmem[i]` (global).
    case memory(global: Bool, ExpressionNode)
    /// `loop(n, body)`: body runs `n` times (truncated, capped); the value of its last run (0 if none).
    case loop(ExpressionNode, ExpressionNode)
    /// `while(body)`: body runs until it gives false (capped); the value of its last run.
    case whileLoop(ExpressionNode)
    /// `memset(dest, value, count)`, `memcpy(dest, src, count)` on the local megabuf; give `dest`.
    case memset(ExpressionNode, ExpressionNode, ExpressionNode)
    case memcpy(ExpressionNode, ExpressionNode, ExpressionNode)

    var isConstant: Bool { if case .number = self { true } else { false } }

    /// Deepest tree the compiler walks (it recurses once per level).
    static let maximumHeight = 600

    /// The tree's height, or some value above `limit` as soon as it is known to exceed it (so this
    /// recursion is bounded too).
    func height(limit: Int) -> Int {
        if limit < 0 { return 1 }
        let children: [ExpressionNode] = switch self {
        case .number, .variable, .register: []
        case .unary(_, let a), .memory(_, let a), .whileLoop(let a): [a]
        case .binary(_, let a, let b), .and(let a, let b), .or(let a, let b), .assign(_, let a, let b), .loop(let a, let b): [a, b]
        case .conditional(let a, let b, let c): [a, b] + (c.map { [$0] } ?? [])
        case .sequence(let items): items
        case .memset(let a, let b, let c), .memcpy(let a, let b, let c): [a, b, c]
        }
        var deepest = 0
        for child in children {
            deepest = max(deepest, child.height(limit: limit - 1))
            if deepest > limit { break }
        }
        return deepest + 1
    }
}

/// The functions a code block may call: name → how many arguments and what it becomes.
enum ExpressionBuiltin {
    case unary(UnaryOperator)
    case binary(BinaryOperator)
    case ifElse, and, or, not, exec2, exec3, loop, whileLoop, megabuf, gmegabuf, assign, memset, memcpy, freembuf

    var arity: Int {
        switch self {
        case .unary, .not, .megabuf, .gmegabuf, .whileLoop, .freembuf: 1
        case .binary, .and, .or, .exec2, .loop, .assign: 2
        case .ifElse, .exec3, .memset, .memcpy: 3
        }
    }

    /// ns-eel2's names (MilkDrop 2), plus its internal `_…` spellings that old presets sometimes use.
    static let table: [String: ExpressionBuiltin] = [
        "sin": .unary(.sin), "cos": .unary(.cos), "tan": .unary(.tan), "asin": .unary(.asin),
        "acos": .unary(.acos), "atan": .unary(.atan), "sqr": .unary(.sqr), "sqrt": .unary(.sqrt),
        "invsqrt": .unary(.invsqrt), "exp": .unary(.exp), "log": .unary(.log), "log10": .unary(.log10),
        "abs": .unary(.abs), "sign": .unary(.sign), "int": .unary(.int), "floor": .unary(.floor),
        "ceil": .unary(.ceil), "rand": .unary(.rand),
        "atan2": .binary(.atan2), "pow": .binary(.power), "min": .binary(.min), "max": .binary(.max),
        "sigmoid": .binary(.sigmoid), "above": .binary(.greater), "below": .binary(.less),
        "equal": .binary(.equal),
        "if": .ifElse, "band": .and, "bor": .or, "bnot": .not, "exec2": .exec2, "exec3": .exec3,
        "loop": .loop, "while": .whileLoop, "megabuf": .megabuf, "gmegabuf": .gmegabuf,
        "assign": .assign, "memset": .memset, "memcpy": .memcpy, "freembuf": .freembuf,
        "_if": .ifElse, "_and": .and, "_or": .or, "_not": .not, "_equal": .binary(.equal),
        "_noteq": .binary(.notEqual), "_above": .binary(.greater), "_below": .binary(.less),
        "_aboeq": .binary(.greaterOrEqual), "_beleq": .binary(.lessOrEqual), "_set": .assign,
        "_mem": .megabuf, "_gmem": .gmegabuf, "_add": .binary(.add), "_sub": .binary(.subtract),
        "_mul": .binary(.multiply), "_div": .binary(.divide), "_mod": .binary(.modulo),
        "_neg": .unary(.negate),
    ]
}
