/// A `#define`: its body, and its parameters when it is function-like (`#define F(a, b) ...`).
struct ShaderMacro: Sendable {
    var parameters: [String]?
    var body: [ShaderToken]
}

/// The C preprocessor as far as MilkDrop's shaders use it, over tokens: `#define` (object- and
/// function-like), `#undef`, `#ifdef`/`#ifndef`/`#if`/`#elif`/`#else`/`#endif` (conditions of integer
/// constants, `defined`, `! && || == != < > <= >= + - * /` and parentheses), `#include` and `#pragma`
/// ignored (the header is ``ShaderHeader``'s, already defined). Macros expand as in C: arguments are
/// expanded before they are substituted, the result is rescanned with the macro itself disabled; the
/// expansion depth and count are bounded by ``ShaderLimits``. `#` and `##` are not supported.
struct ShaderPreprocessor {
    private var macros: [String: ShaderMacro]
    private var expansions = 0

    init(predefined: [String: ShaderMacro]) { macros = predefined }

    /// An open conditional: whether its current branch is taken, whether one branch already was.
    private typealias Conditional = (taking: Bool, taken: Bool, sawElse: Bool, line: Int)

    /// The tokens of `input` with directives carried out and macros expanded.
    mutating func run(_ input: [ShaderToken]) throws(ShaderFault) -> [ShaderToken] {
        var out: [ShaderToken] = []
        out.reserveCapacity(input.count)
        var conditions: [Conditional] = []
        var i = 0
        var pending: [ShaderToken] = []
        func flush(_ out: inout [ShaderToken], _ pp: inout ShaderPreprocessor) throws(ShaderFault) {
            guard !pending.isEmpty else { return }
            out += try pp.expand(pending, depth: 0, disabled: [])
            pending.removeAll(keepingCapacity: true)
            guard out.count <= ShaderLimits.tokens else {
                throw ShaderFault(out.last?.line ?? 0, "more than \(ShaderLimits.tokens) tokens", .tooLarge)
            }
        }
        while i < input.count {
            let token = input[i]
            guard token.kind == .directive else {
                if conditions.allSatisfy(\.taking) { pending.append(token) }
                i += 1
                // Function-like macro calls may span lines, so expansion waits for the next directive.
                continue
            }
            try flush(&out, &self)
            var end = i + 1
            while end < input.count && input[end].logicalLine == token.logicalLine && input[end].kind != .directive { end += 1 }
            let words = Array(input[(i + 1)..<end])
            i = end
            try directive(words, line: token.line, conditions: &conditions)
        }
        try flush(&out, &self)
        if let open = conditions.last { throw ShaderFault(open.line, "#if without #endif", .preprocessor) }
        return out
    }

    /// Carries out the directive `words` (its name first, after the `#`) on `line`: a conditional opens,
    /// switches or closes one of `conditions`; the others count only where every conditional is taking.
    private mutating func directive(_ words: [ShaderToken], line: Int, conditions: inout [Conditional]) throws(ShaderFault) {
        let active = conditions.allSatisfy(\.taking)
        let name = words.first?.text ?? ""
        let rest = Array(words.dropFirst())
        switch name {
        case "ifdef", "ifndef":
            let defined = rest.first.map { macros[$0.text] != nil } ?? false
            let taking = active && (name == "ifdef" ? defined : !defined)
            conditions.append((taking, taking, false, line))
        case "if":
            let holds = try condition(rest, line: line)
            let taking = active && holds
            conditions.append((taking, taking, false, line))
        case "elif", "else":
            guard var last = conditions.popLast(), !last.sawElse else {
                throw ShaderFault(line, "#\(name) without #if", .preprocessor)
            }
            let outer = conditions.allSatisfy(\.taking)
            if name == "else" {
                last.taking = outer && !last.taken
                last.sawElse = true
            } else {
                let holds = try condition(rest, line: line)
                last.taking = outer && !last.taken && holds
            }
            last.taken = last.taken || last.taking
            conditions.append(last)
        case "endif":
            guard conditions.popLast() != nil else { throw ShaderFault(line, "#endif without #if", .preprocessor) }
        case _ where !active:
            break
        case "define":
            try define(words, line: line)
        case "undef":
            if let macro = rest.first { macros[macro.text] = nil }
        case "include", "pragma", "":
            break
        case "error":
            throw ShaderFault(line, "#error \(rest.map(\.text).joined(separator: " "))", .preprocessor)
        default:
            throw ShaderFault(line, "unknown directive #\(name)", .preprocessor)
        }
    }

    /// `#define NAME body` or `#define NAME(a, b) body` (`words` starts at `define`).
    private mutating func define(_ words: [ShaderToken], line: Int) throws(ShaderFault) {
        guard words.count >= 2, words[1].kind == .identifier else { throw ShaderFault(line, "#define without a name", .preprocessor) }
        var k = 2
        var parameters: [String]?
        if k < words.count, words[k].isSymbol("("), !words[k].spaced {
            var names: [String] = []
            k += 1
            while k < words.count, !words[k].isSymbol(")") {
                if words[k].kind == .identifier { names.append(words[k].text) } else if !words[k].isSymbol(",") {
                    throw ShaderFault(line, "bad macro parameter \"\(words[k].text)\"", .preprocessor)
                }
                k += 1
            }
            guard k < words.count else { throw ShaderFault(line, "unclosed macro parameter list", .preprocessor) }
            k += 1
            parameters = names
        }
        macros[words[1].text] = ShaderMacro(parameters: parameters, body: Array(words[k...]))
    }

    /// Expands the macros in `input` as C does: an expansion replaces the macro's name (and its
    /// arguments) in the text still to be read, so `#define MyGet GetPixel` followed by `MyGet(uv)`
    /// calls `GetPixel`; each token carries the macros it came from, which do not expand again inside it.
    private mutating func expand(_ input: [ShaderToken], depth: Int, disabled: Set<String>) throws(ShaderFault) -> [ShaderToken] {
        guard depth <= ShaderLimits.macroDepth else {
            throw ShaderFault(input.first?.line ?? 0, "macros nested more than \(ShaderLimits.macroDepth) deep", .tooLarge)
        }
        var out: [ShaderToken] = []
        // The text still to be read, last token first, each with the macros it came from.
        var pending: [(token: ShaderToken, hidden: Set<String>)] = input.reversed().map { ($0, disabled) }
        while let (token, hidden) = pending.popLast() {
            guard token.kind == .identifier, let macro = macros[token.text], !hidden.contains(token.text) else {
                out.append(token)
                continue
            }
            expansions += 1
            guard expansions <= ShaderLimits.macroExpansions, out.count + pending.count <= ShaderLimits.tokens else {
                throw ShaderFault(token.line, "macro expansion too large", .tooLarge)
            }
            var body: [ShaderToken]
            if let parameters = macro.parameters {
                guard let next = pending.last, next.token.isSymbol("(") else { out.append(token); continue }
                pending.removeLast()
                let arguments = try collectArguments(&pending, line: token.line)
                guard arguments.count == parameters.count || (parameters.isEmpty && arguments.count == 1 && arguments[0].isEmpty) else {
                    throw ShaderFault(token.line, "macro \(token.text) takes \(parameters.count) arguments, not \(arguments.count)", .preprocessor)
                }
                var expanded: [[ShaderToken]] = []
                for argument in arguments { expanded.append(try expand(argument, depth: depth + 1, disabled: hidden)) }
                body = []
                for b in macro.body {
                    if b.kind == .identifier, let p = parameters.firstIndex(of: b.text) { body += expanded[p] } else { body.append(b) }
                }
            } else {
                body = macro.body
            }
            for k in body.indices { body[k].line = token.line; body[k].logicalLine = token.logicalLine }
            if let first = body.indices.first { body[first].spaced = token.spaced }
            let inner = hidden.union([token.text])
            guard inner.count <= ShaderLimits.macroDepth else {
                throw ShaderFault(token.line, "macros nested more than \(ShaderLimits.macroDepth) deep", .tooLarge)
            }
            for b in body.reversed() { pending.append((b, inner)) }
        }
        return out
    }

    /// The comma-separated arguments of a macro call whose `(` was just taken from `pending`, taken
    /// up to its `)`.
    private func collectArguments(_ pending: inout [(token: ShaderToken, hidden: Set<String>)], line: Int) throws(ShaderFault) -> [[ShaderToken]] {
        var arguments: [[ShaderToken]] = [[]]
        var level = 0
        while let (t, _) = pending.popLast() {
            if t.isSymbol("(") || t.isSymbol("[") { level += 1 }
            if t.isSymbol(")") || t.isSymbol("]") {
                if level == 0 && t.text == ")" { return arguments }
                level -= 1
            }
            if t.isSymbol(","), level == 0 { arguments.append([]) } else { arguments[arguments.count - 1].append(t) }
        }
        throw ShaderFault(line, "unclosed macro call", .preprocessor)
    }

    // MARK: #if conditions

    private mutating func condition(_ words: [ShaderToken], line: Int) throws(ShaderFault) -> Bool {
        // `defined X` / `defined(X)` first, then macros, then the arithmetic.
        var resolved: [ShaderToken] = []
        var k = 0
        while k < words.count {
            if words[k].text == "defined" {
                var n = k + 1
                let parenthesised = n < words.count && words[n].isSymbol("(")
                if parenthesised { n += 1 }
                let name = n < words.count ? words[n].text : ""
                var one = words[k]
                one.kind = .number(macros[name] != nil ? 1 : 0, isInteger: true)
                resolved.append(one)
                k = n + (parenthesised ? 2 : 1)
                continue
            }
            resolved.append(words[k]); k += 1
        }
        var evaluator = ConditionEvaluator(tokens: try expand(resolved, depth: 0, disabled: []), line: line)
        let value = try evaluator.expression(0)
        return value != 0
    }
}

/// The arithmetic of an `#if` line (unknown names are 0, as in C).
struct ConditionEvaluator {
    let tokens: [ShaderToken]
    let line: Int
    var position = 0
    /// Operators and parentheses followed so far on the current path (bounded: hostile lines nest).
    private var depth = 0

    init(tokens: [ShaderToken], line: Int) { self.tokens = tokens; self.line = line }

    private static let strength: [String: Int] = [
        "||": 1, "&&": 2, "==": 3, "!=": 3, "<": 4, ">": 4, "<=": 4, ">=": 4, "+": 5, "-": 5, "*": 6, "/": 6, "%": 6,
    ]

    mutating func expression(_ minimum: Int) throws(ShaderFault) -> Double {
        depth += 1
        defer { depth -= 1 }
        guard depth < 64 else { throw ShaderFault(line, "#if condition too deep", .preprocessor) }
        var left = try unary()
        while position < tokens.count, tokens[position].kind == .symbol,
              let s = Self.strength[tokens[position].text], s > minimum {
            let op = tokens[position].text
            position += 1
            let right = try expression(s)
            switch op {
            case "||": left = (left != 0 || right != 0) ? 1 : 0
            case "&&": left = (left != 0 && right != 0) ? 1 : 0
            case "==": left = left == right ? 1 : 0
            case "!=": left = left != right ? 1 : 0
            case "<": left = left < right ? 1 : 0
            case ">": left = left > right ? 1 : 0
            case "<=": left = left <= right ? 1 : 0
            case ">=": left = left >= right ? 1 : 0
            case "+": left += right
            case "-": left -= right
            case "*": left *= right
            case "/": left = right == 0 ? 0 : (left / right).rounded(.towardZero)
            default: left = right == 0 ? 0 : left.truncatingRemainder(dividingBy: right)
            }
        }
        return left
    }

    private mutating func unary() throws(ShaderFault) -> Double {
        depth += 1
        defer { depth -= 1 }
        guard depth < 64, position < tokens.count else { throw ShaderFault(line, "bad #if condition", .preprocessor) }
        let t = tokens[position]
        position += 1
        switch t.kind {
        case .number(let v, _): return v
        case .identifier: return 0
        default:
            if t.text == "!" { return try unary() == 0 ? 1 : 0 }
            if t.text == "-" { return -(try unary()) }
            if t.text == "+" { return try unary() }
            if t.text == "(" {
                let v = try expression(0)
                guard position < tokens.count, tokens[position].isSymbol(")") else { throw ShaderFault(line, "expected \")\" in #if", .preprocessor) }
                position += 1
                return v
            }
            throw ShaderFault(line, "bad #if condition", .preprocessor)
        }
    }
}
