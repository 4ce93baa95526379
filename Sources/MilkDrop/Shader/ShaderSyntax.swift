/// An expression of shader code, with the line it starts on and the height of its tree (bounded by
/// the parser, so walking it recursively cannot overflow the stack).
struct ShaderExpression: Sendable {
    indirect enum Kind: Sendable {
        case number(Double, isInteger: Bool)
        case boolean(Bool)
        case name(String)
        /// `-x`, `+x`, `!x`, `~x`.
        case unary(String, ShaderExpression)
        /// `++x`, `--x` (`isPrefix`) or `x++`, `x--`.
        case increment(String, ShaderExpression, isPrefix: Bool)
        case binary(String, ShaderExpression, ShaderExpression)
        /// `=`, `+=`, `-=`, ... with the operator without its `=` (`""` for plain assignment).
        case assign(String, ShaderExpression, ShaderExpression)
        case conditional(ShaderExpression, ShaderExpression, ShaderExpression)
        /// A call of a function, an intrinsic or (for a type's name) a constructor.
        case call(String, [ShaderExpression])
        /// `(float2)x`.
        case cast(ShaderType, ShaderExpression)
        /// `v.xyz`, `m._m01`.
        case member(ShaderExpression, String)
        case index(ShaderExpression, ShaderExpression)
        /// `a, b`: both evaluated, the value is `b`'s.
        case comma(ShaderExpression, ShaderExpression)
    }
    var kind: Kind
    var line: Int
    var height: Int

    init(_ kind: Kind, line: Int) {
        self.kind = kind
        self.line = line
        var h = 0
        switch kind {
        case .number, .boolean, .name: h = 0
        case .unary(_, let a), .increment(_, let a, _), .cast(_, let a), .member(let a, _): h = a.height
        case .binary(_, let a, let b), .assign(_, let a, let b), .index(let a, let b), .comma(let a, let b): h = max(a.height, b.height)
        case .conditional(let a, let b, let c): h = max(a.height, b.height, c.height)
        case .call(_, let args): h = args.map(\.height).max() ?? 0
        }
        height = h + 1
    }
}

/// `float2 a, b = 1;` — one type, one or more names each with an optional initialiser.
struct ShaderDeclaration: Sendable {
    var type: ShaderType
    var names: [(name: String, initializer: ShaderExpression?, line: Int)]
    /// `static` or `const` (a global so marked is the shader's own, not a uniform the host sets).
    var isStatic: Bool
    var isConst: Bool
    /// The names declared as arrays (`float4 taps[5]`), with their lengths; their initialisers are
    /// lists, parsed as a call of the element type with every item (see ``ShaderLowering``).
    var arrayLengths: [String: Int] = [:]
}

/// A statement of a function or of the shader body.
struct ShaderStatement: Sendable {
    indirect enum Kind: Sendable {
        case declaration(ShaderDeclaration)
        case expression(ShaderExpression)
        case block([ShaderStatement])
        case ifElse(ShaderExpression, ShaderStatement, ShaderStatement?)
        /// `for (initial; condition; step) body`; a missing condition is `true`.
        case forLoop(ShaderStatement?, ShaderExpression?, ShaderExpression?, ShaderStatement)
        case whileLoop(ShaderExpression, ShaderStatement)
        case doWhile(ShaderStatement, ShaderExpression)
        case breakLoop, continueLoop
        case returnValue(ShaderExpression?)
        case empty
    }
    var kind: Kind
    var line: Int
}

/// A user function declared before `shader_body`.
struct ShaderFunction: Sendable {
    enum Direction: Sendable { case `in`, out, `inout` }
    var name: String
    /// nil for `void`.
    var returnType: ShaderType?
    var parameters: [(name: String, type: ShaderType, direction: Direction)]
    var body: [ShaderStatement]
    var line: Int
}

/// A whole shader as written: what comes before `shader_body` in order, then the body.
struct ShaderSource: Sendable {
    enum Item: Sendable {
        case global(ShaderDeclaration)
        /// `sampler sampler_NAME;` / `sampler2D` / `sampler3D` / `texture` declarations.
        case sampler(String, line: Int)
        case function(ShaderFunction)
    }
    var items: [Item]
    var body: [ShaderStatement]
    var bodyLine: Int
}
