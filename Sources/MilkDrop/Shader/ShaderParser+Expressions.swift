/// Expressions, by precedence climbing (see ``ShaderParser`` for the table of operators).
extension ShaderParser {
    mutating func parseExpression() throws(ShaderFault) -> ShaderExpression {
        var left = try parseAssignment()
        while current.isSymbol(",") {
            let line = current.line
            advance()
            left = try node(.comma(left, try parseAssignment()), line)
        }
        return left
    }

    static let assignments: [String: String] = [
        "=": "", "+=": "+", "-=": "-", "*=": "*", "/=": "/", "%=": "%", "&=": "&", "|=": "|", "^=": "^", "<<=": "<<", ">>=": ">>",
    ]

    mutating func parseAssignment() throws(ShaderFault) -> ShaderExpression {
        try enter()
        defer { depth -= 1 }
        let target = try parseConditional()
        if current.kind == .symbol, let op = Self.assignments[current.text] {
            let line = current.line
            advance()
            return try node(.assign(op, target, try parseAssignment()), line)
        }
        return target
    }

    private mutating func parseConditional() throws(ShaderFault) -> ShaderExpression {
        let condition = try parseBinary(1)
        guard current.isSymbol("?") else { return condition }
        let line = current.line
        advance()
        let whenTrue = try parseAssignment()
        try expect(":")
        let whenFalse = try parseAssignment()
        return try node(.conditional(condition, whenTrue, whenFalse), line)
    }

    static let binary: [String: Int] = [
        "||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, ">": 7, "<=": 7, ">=": 7,
        "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
    ]

    /// Precedence climbing: operands joined by operators at least `minimum` strong, left to right.
    private mutating func parseBinary(_ minimum: Int) throws(ShaderFault) -> ShaderExpression {
        try enter()
        defer { depth -= 1 }
        var left = try parseUnary()
        while current.kind == .symbol, let strength = Self.binary[current.text], strength >= minimum {
            let op = current.text, line = current.line
            advance()
            let right = try parseBinary(strength + 1)
            left = try node(.binary(op, left, right), line)
        }
        return left
    }

    private mutating func parseUnary() throws(ShaderFault) -> ShaderExpression {
        try enter()
        defer { depth -= 1 }
        let line = current.line
        if current.kind == .symbol {
            switch current.text {
            case "-", "+", "!", "~":
                let op = current.text
                advance()
                return try node(.unary(op, try parseUnary()), line)
            case "++", "--":
                let op = current.text
                advance()
                return try node(.increment(op, try parseUnary(), isPrefix: true), line)
            case "(":
                // `(type) expression` is a cast; `(type(...))` or `(name)` are not.
                if position + 2 < tokens.count, tokens[position + 1].kind == .identifier,
                   let type = ShaderType.named(tokens[position + 1].text), tokens[position + 2].isSymbol(")") {
                    position += 3
                    return try node(.cast(type, try parseUnary()), line)
                }
            default: break
            }
        }
        return try parsePostfix()
    }

    private mutating func parsePostfix() throws(ShaderFault) -> ShaderExpression {
        var value = try parsePrimary()
        while current.kind == .symbol {
            let line = current.line
            switch current.text {
            case ".":
                advance()
                guard current.kind == .identifier else { throw fault("expected a component after \".\"") }
                let name = current.text
                advance()
                value = try node(.member(value, name), line)
            case "[":
                advance()
                let index = try parseExpression()
                try expect("]")
                value = try node(.index(value, index), line)
            case "++", "--":
                let op = current.text
                advance()
                value = try node(.increment(op, value, isPrefix: false), line)
            default:
                return value
            }
        }
        return value
    }

    private mutating func parsePrimary() throws(ShaderFault) -> ShaderExpression {
        let token = current
        switch token.kind {
        case .number(let v, let isInteger):
            advance()
            return ShaderExpression(.number(v, isInteger: isInteger), line: token.line)
        case .identifier:
            advance()
            if token.text == "true" || token.text == "false" {
                return ShaderExpression(.boolean(token.text == "true"), line: token.line)
            }
            if current.isSymbol("(") {
                advance()
                var arguments: [ShaderExpression] = []
                if !accept(")") {
                    repeat { arguments.append(try parseAssignment()) } while accept(",")
                    try expect(")")
                }
                return try node(.call(token.text, arguments), token.line)
            }
            return ShaderExpression(.name(token.text), line: token.line)
        case .symbol where token.text == "(":
            advance()
            let inner = try parseExpression()
            try expect(")")
            return inner
        default:
            throw fault("expected an expression before \(describe(token))")
        }
    }
}
