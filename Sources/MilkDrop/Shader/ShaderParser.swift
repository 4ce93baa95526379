/// Recursive-descent parser from preprocessed tokens to a ``ShaderSource``.
///
/// Grammar: declarations before `shader_body` (globals with `static`/`const`/`uniform`, samplers,
/// functions with `in`/`out`/`inout` parameters), then `shader_body { ... }`. Statements: blocks,
/// declarations, `if`/`else`, `for`, `while`, `do … while`, `break`, `continue`, `return`, expressions.
/// Expressions with C's (and HLSL's) precedence, loosest first: `,` · assignments (right to left) ·
/// `?:` · `||` · `&&` · `|` · `^` · `&` · `== !=` · `< > <= >=` · `<< >>` · `+ -` · `* / %` · prefix
/// `- + ! ~ ++ --` and casts · postfix `.swizzle [index] ++ --` and calls.
///
/// Every recursion passes through ``enter()``, so nesting deeper than ``ShaderLimits/nesting`` is a
/// one-line error, never a stack overflow; operator chains are bounded by the trees' heights.
/// Expressions are parsed in `ShaderParser+Expressions.swift`.
struct ShaderParser {
    let tokens: [ShaderToken]
    /// The next token's index, and the recursion depth (see ``enter()``).
    var position = 0
    var depth = 0

    init(tokens: [ShaderToken]) { self.tokens = tokens }

    mutating func parseSource() throws(ShaderFault) -> ShaderSource {
        var items: [ShaderSource.Item] = []
        while !atEnd {
            if accept(";") { continue }
            if current.text == "shader_body" && current.kind == .identifier {
                let line = current.line
                advance()
                guard current.isSymbol("{") else { throw fault("expected \"{\" after shader_body") }
                let body = try parseBlock()
                while accept(";") {}
                guard atEnd else { throw fault("unexpected \(describe(current)) after the shader body") }
                return ShaderSource(items: items, body: body, bodyLine: line)
            }
            items += try parseTopLevel()
        }
        throw ShaderFault(tokens.last?.line ?? 1, "no shader_body")
    }

    // MARK: declarations before the body

    private mutating func parseTopLevel() throws(ShaderFault) -> [ShaderSource.Item] {
        let line = current.line
        var isStatic = false, isConst = false
        while current.kind == .identifier, ["static", "const", "uniform", "extern", "volatile", "shared", "inline"].contains(current.text) {
            if current.text == "static" { isStatic = true }
            if current.text == "const" { isConst = true }
            advance()
        }
        if current.kind == .identifier, ["sampler", "sampler2D", "sampler3D", "samplerCUBE", "texture", "texture2D", "texture3D"].contains(current.text) {
            let isTexture = current.text.hasPrefix("texture")
            advance()
            var names: [ShaderSource.Item] = []
            repeat {
                let name = try identifier()
                if accept("=") { try skipSamplerState() }
                if !isTexture { names.append(.sampler(name, line: line)) }
            } while accept(",")
            try expect(";")
            return names
        }
        if current.text == "struct" { throw ShaderFault(line, "struct is not supported", .unsupported("struct")) }
        let returnType: ShaderType?
        if current.text == "void" { advance(); returnType = nil } else { returnType = try parseType() }
        let name = try identifier()
        if current.isSymbol("(") {
            return [.function(try parseFunction(name, returnType, line: line))]
        }
        guard let type = returnType else { throw ShaderFault(line, "a variable cannot be void", .typeMismatch) }
        return [.global(try parseDeclarators(type, first: name, isStatic: isStatic, isConst: isConst, line: line))]
    }

    /// `= sampler_state { ... }` or `= <expression>` after a sampler name: skipped.
    private mutating func skipSamplerState() throws(ShaderFault) {
        var level = 0
        while !atEnd {
            if current.isSymbol("{") { level += 1 }
            if current.isSymbol("}") { level -= 1; if level == 0 { advance(); return } }
            if level == 0 && (current.isSymbol(";") || current.isSymbol(",")) { return }
            advance()
        }
    }

    private mutating func parseFunction(_ name: String, _ returnType: ShaderType?, line: Int) throws(ShaderFault) -> ShaderFunction {
        try expect("(")
        var parameters: [(String, ShaderType, ShaderFunction.Direction)] = []
        if !accept(")") {
            if current.text == "void" && tokens.indices.contains(position + 1) && tokens[position + 1].isSymbol(")") {
                advance()
            } else {
                repeat {
                    var direction = ShaderFunction.Direction.in
                    while current.kind == .identifier, ["in", "out", "inout", "uniform", "const"].contains(current.text) {
                        if current.text == "out" { direction = .out }
                        if current.text == "inout" { direction = .inout }
                        advance()
                    }
                    let type = try parseType()
                    let parameter = try identifier()
                    if accept(":") { _ = try identifier() }
                    if current.isSymbol("[") { throw fault("arrays are not supported", .unsupported("array")) }
                    parameters.append((parameter, type, direction))
                } while accept(",")
            }
            try expect(")")
        }
        if accept(":") { _ = try identifier() }
        guard current.isSymbol("{") else {
            if accept(";") { throw ShaderFault(line, "function prototypes are not supported", .unsupported("prototype")) }
            throw fault("expected \"{\" to start function \(name)")
        }
        let body = try parseBlock()
        return ShaderFunction(name: name, returnType: returnType, parameters: parameters, body: body, line: line)
    }

    private mutating func parseDeclarators(_ type: ShaderType, first: String, isStatic: Bool, isConst: Bool,
                                           line: Int) throws(ShaderFault) -> ShaderDeclaration {
        var names: [(String, ShaderExpression?, Int)] = []
        var arrayLengths: [String: Int] = [:]
        var name = first
        var nameLine = line
        while true {
            if accept("[") { arrayLengths[name] = try parseArrayLength() }
            if accept(":") { _ = try identifier() }
            var initializer: ShaderExpression?
            if accept("=") {
                if arrayLengths[name] != nil && !current.isSymbol("{") {
                    throw fault("the array \(name) is initialised with a list in braces", .unsupported("array"))
                }
                if current.isSymbol("{") {
                    let braceLine = current.line
                    var items: [ShaderExpression] = []
                    try parseInitializerList(into: &items)
                    initializer = try node(.call(type.description, items), braceLine)
                } else {
                    initializer = try parseAssignment()
                }
            }
            names.append((name, initializer, nameLine))
            guard accept(",") else { break }
            nameLine = current.line
            name = try identifier()
        }
        try expect(";")
        return ShaderDeclaration(type: type, names: names, isStatic: isStatic, isConst: isConst, arrayLengths: arrayLengths)
    }

    /// `N]` after an array's name (the `[` taken): a whole number 1…``ShaderLimits/arrayElements``,
    /// written as a literal or a macro that expands to one. One dimension only.
    private mutating func parseArrayLength() throws(ShaderFault) -> Int {
        guard case .number(let value, isInteger: true) = current.kind, value >= 1, value <= Double(ShaderLimits.arrayElements) else {
            throw fault("an array's length must be a whole number from 1 to \(ShaderLimits.arrayElements), not \(describe(current))",
                        .unsupported("array"))
        }
        let length = Int(value)
        advance()
        try expect("]")
        if current.isSymbol("[") { throw fault("arrays of arrays are not supported", .unsupported("array")) }
        return length
    }

    /// `{ a, b, { c, d } }`: the items in order, inner braces flattened (a constructor of the declared
    /// type takes them).
    private mutating func parseInitializerList(into items: inout [ShaderExpression]) throws(ShaderFault) {
        try enter()
        defer { depth -= 1 }
        try expect("{")
        while !accept("}") {
            if current.isSymbol("{") { try parseInitializerList(into: &items) } else { items.append(try parseAssignment()) }
            if !accept(",") {
                try expect("}")
                return
            }
        }
    }

    private mutating func parseType() throws(ShaderFault) -> ShaderType {
        guard current.kind == .identifier else { throw fault("expected a type before \(describe(current))") }
        if let type = ShaderType.named(current.text) {
            advance()
            return type
        }
        if current.text == "vector" || current.text == "matrix" {
            throw fault("\(current.text)<> is not supported", .unsupported(current.text))
        }
        throw fault("unknown type \"\(current.text)\"", .unknownIdentifier)
    }

    private var startsDeclaration: Bool {
        guard current.kind == .identifier else { return false }
        if ["static", "const", "uniform"].contains(current.text) { return true }
        guard ShaderType.named(current.text) != nil, position + 1 < tokens.count else { return false }
        return tokens[position + 1].kind == .identifier
    }

    // MARK: statements

    private mutating func parseBlock() throws(ShaderFault) -> [ShaderStatement] {
        try enter()
        defer { depth -= 1 }
        try expect("{")
        var statements: [ShaderStatement] = []
        while !accept("}") {
            guard !atEnd else { throw fault("expected \"}\" before the end") }
            statements.append(try parseStatement())
        }
        return statements
    }

    private mutating func parseStatement() throws(ShaderFault) -> ShaderStatement {
        try enter()
        defer { depth -= 1 }
        let line = current.line
        if current.isSymbol("{") { return ShaderStatement(kind: .block(try parseBlock()), line: line) }
        if accept(";") { return ShaderStatement(kind: .empty, line: line) }
        if current.kind == .identifier {
            switch current.text {
            case "if": return try parseIf(line: line)
            case "for": return try parseFor(line: line)
            case "while": return try parseWhile(line: line)
            case "do": return try parseDoWhile(line: line)
            case "break":
                advance(); try expect(";")
                return ShaderStatement(kind: .breakLoop, line: line)
            case "continue":
                advance(); try expect(";")
                return ShaderStatement(kind: .continueLoop, line: line)
            case "discard":
                throw fault("discard is not supported", .unsupported("discard"))
            case "return": return try parseReturn(line: line)
            case "struct":
                throw fault("struct is not supported", .unsupported("struct"))
            default:
                if startsDeclaration {
                    return ShaderStatement(kind: .declaration(try parseLocalDeclaration()), line: line)
                }
            }
        }
        let expression = try parseExpression()
        try expect(";")
        return ShaderStatement(kind: .expression(expression), line: line)
    }

    /// `if (condition) statement [else statement]`, at its `if`.
    private mutating func parseIf(line: Int) throws(ShaderFault) -> ShaderStatement {
        advance()
        try expect("(")
        let condition = try parseExpression()
        try expect(")")
        let then = try parseStatement()
        var otherwise: ShaderStatement?
        if current.kind == .identifier && current.text == "else" {
            advance()
            otherwise = try parseStatement()
        }
        return ShaderStatement(kind: .ifElse(condition, then, otherwise), line: line)
    }

    /// `for (initial; condition; step) statement`, each of the three optional, at its `for`.
    private mutating func parseFor(line: Int) throws(ShaderFault) -> ShaderStatement {
        advance()
        try expect("(")
        var initial: ShaderStatement?
        if accept(";") {} else if startsDeclaration {
            initial = ShaderStatement(kind: .declaration(try parseLocalDeclaration()), line: line)
        } else {
            initial = ShaderStatement(kind: .expression(try parseExpression()), line: line)
            try expect(";")
        }
        let condition = current.isSymbol(";") ? nil : try parseExpression()
        try expect(";")
        let step = current.isSymbol(")") ? nil : try parseExpression()
        try expect(")")
        let body = try parseStatement()
        return ShaderStatement(kind: .forLoop(initial, condition, step, body), line: line)
    }

    /// `while (condition) statement`, at its `while`.
    private mutating func parseWhile(line: Int) throws(ShaderFault) -> ShaderStatement {
        advance()
        try expect("(")
        let condition = try parseExpression()
        try expect(")")
        return ShaderStatement(kind: .whileLoop(condition, try parseStatement()), line: line)
    }

    /// `do statement while (condition);`, at its `do`.
    private mutating func parseDoWhile(line: Int) throws(ShaderFault) -> ShaderStatement {
        advance()
        let body = try parseStatement()
        guard current.text == "while" else { throw fault("expected \"while\" after do's body") }
        advance()
        try expect("(")
        let condition = try parseExpression()
        try expect(")")
        try expect(";")
        return ShaderStatement(kind: .doWhile(body, condition), line: line)
    }

    /// `return [value];`, at its `return`.
    private mutating func parseReturn(line: Int) throws(ShaderFault) -> ShaderStatement {
        advance()
        if accept(";") { return ShaderStatement(kind: .returnValue(nil), line: line) }
        let value = try parseExpression()
        try expect(";")
        return ShaderStatement(kind: .returnValue(value), line: line)
    }

    private mutating func parseLocalDeclaration() throws(ShaderFault) -> ShaderDeclaration {
        let line = current.line
        var isStatic = false, isConst = false
        while current.kind == .identifier, ["static", "const", "uniform"].contains(current.text) {
            if current.text == "static" { isStatic = true }
            if current.text == "const" { isConst = true }
            advance()
        }
        let type = try parseType()
        let name = try identifier()
        return try parseDeclarators(type, first: name, isStatic: isStatic, isConst: isConst, line: line)
    }

    // MARK: tokens

    var atEnd: Bool { position >= tokens.count }
    var current: ShaderToken {
        position < tokens.count ? tokens[position]
            : ShaderToken(kind: .symbol, text: "", line: tokens.last?.line ?? 1, logicalLine: 0, spaced: true)
    }
    mutating func advance() { position += 1 }

    mutating func accept(_ symbol: String) -> Bool {
        if current.isSymbol(symbol) { advance(); return true }
        return false
    }

    mutating func expect(_ symbol: String) throws(ShaderFault) {
        guard accept(symbol) else { throw fault("expected \"\(symbol)\" before \(describe(current))") }
    }

    mutating func identifier() throws(ShaderFault) -> String {
        guard current.kind == .identifier else { throw fault("expected a name before \(describe(current))") }
        defer { advance() }
        return current.text
    }

    /// One more level of recursion (undone by the caller's `defer`).
    mutating func enter() throws(ShaderFault) {
        depth += 1
        guard depth <= ShaderLimits.nesting else {
            throw ShaderFault(current.line, "nested more than \(ShaderLimits.nesting) deep", .tooLarge)
        }
    }

    /// A node whose tree is no higher than ``ShaderLimits/nesting``.
    func node(_ kind: ShaderExpression.Kind, _ line: Int) throws(ShaderFault) -> ShaderExpression {
        let e = ShaderExpression(kind, line: line)
        guard e.height <= ShaderLimits.nesting else {
            throw ShaderFault(line, "expression nested more than \(ShaderLimits.nesting) deep", .tooLarge)
        }
        return e
    }

    func fault(_ message: String, _ reason: ShaderError.Reason = .syntax) -> ShaderFault {
        ShaderFault(current.line, message, reason)
    }

    func describe(_ token: ShaderToken) -> String {
        if position >= tokens.count { return "the end" }
        return "\"\(token.text)\""
    }
}
