/// One token of an expression's source, with its UTF-8 offset (for error messages).
struct ExpressionToken: Equatable {
    enum Kind: Equatable {
        case number(Double)
        case identifier(String)      // lower-cased
        case symbol(String)          // an operator or punctuation: "+", "+=", "(", ";"…
        case end
    }
    var kind: Kind
    var offset: Int
}

/// Splits source text into tokens: numbers (`1`, `1.`, `.5`, `1e3`, `2.5E-2`), ns-eel2's `$` constants
/// (`$pi`, `$e`, `$phi`, hex `$x1F`, character `$'a'`), names (letters, digits, `_`; not starting with a
/// digit; lower-cased since names are case-insensitive) and operators. Skips spaces, `// …` to the end of
/// the line and `/* … */` (an unterminated block comment runs to the end, as ns-eel2's scanner treats it).
enum ExpressionLexer {
    /// Longest operators first, so `+=` wins over `+`.
    private static let symbols: [String] = [
        "+=", "-=", "*=", "/=", "%=", "^=", "&=", "|=", "==", "!=", "<=", ">=", "&&", "||",
        "+", "-", "*", "/", "%", "^", "&", "|", "!", "<", ">", "=", "?", ":", "(", ")", "[", "]", ",", ";",
    ].sorted { $0.utf8.count > $1.utf8.count }

    static func tokens(_ source: String) throws(ExpressionError) -> [ExpressionToken] {
        let bytes = Array(source.utf8)
        var out: [ExpressionToken] = []
        var i = 0
        func at(_ k: Int) -> UInt8 { k < bytes.count ? bytes[k] : 0 }
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0B || c == 0x0C || c == 0 { i += 1; continue }
            if c == UInt8(ascii: "/") && at(i + 1) == UInt8(ascii: "/") {
                while i < bytes.count && bytes[i] != 0x0A { i += 1 }
                continue
            }
            if c == UInt8(ascii: "/") && at(i + 1) == UInt8(ascii: "*") {
                i += 2
                while i < bytes.count && !(bytes[i] == UInt8(ascii: "*") && at(i + 1) == UInt8(ascii: "/")) { i += 1 }
                i = min(bytes.count, i + 2)
                continue
            }
            let start = i
            if isDigit(c) || (c == UInt8(ascii: ".") && isDigit(at(i + 1))) {
                while isDigit(at(i)) { i += 1 }
                if at(i) == UInt8(ascii: ".") {
                    i += 1
                    while isDigit(at(i)) { i += 1 }
                }
                if at(i) | 0x20 == UInt8(ascii: "e") {
                    let signed = at(i + 1) == UInt8(ascii: "+") || at(i + 1) == UInt8(ascii: "-")
                    if isDigit(at(i + (signed ? 2 : 1))) {
                        i += signed ? 2 : 1
                        while isDigit(at(i)) { i += 1 }
                    }
                }
                let text = String(decoding: bytes[start..<i], as: UTF8.self)
                guard let value = Double(text) else { throw ExpressionError(offset: start, message: "bad number \"\(text)\"") }
                out.append(.init(kind: .number(value), offset: start))
                continue
            }
            if isNameStart(c) {
                while isNameStart(at(i)) || isDigit(at(i)) { i += 1 }
                out.append(.init(kind: .identifier(String(decoding: bytes[start..<i], as: UTF8.self).lowercased()), offset: start))
                continue
            }
            if c == UInt8(ascii: "$") {
                out.append(.init(kind: .number(try constant(bytes, &i)), offset: start))
                continue
            }
            var matched = false
            for s in symbols where matches(bytes, i, s) {
                out.append(.init(kind: .symbol(s), offset: i))
                i += s.utf8.count
                matched = true
                break
            }
            if !matched {
                let scalar = String(decoding: bytes[i..<min(bytes.count, i + (c < 0x80 ? 1 : 2))], as: UTF8.self)
                throw ExpressionError(offset: i, message: "unexpected character \"\(scalar)\"")
            }
        }
        out.append(.init(kind: .end, offset: bytes.count))
        return out
    }

    /// `$pi`, `$e`, `$phi`, `$x…` (hex), `$'c'`; `i` is at the `$` and ends after the constant.
    private static func constant(_ bytes: [UInt8], _ i: inout Int) throws(ExpressionError) -> Double {
        let start = i
        i += 1
        if i + 2 < bytes.count && bytes[i] == UInt8(ascii: "'") && bytes[i + 2] == UInt8(ascii: "'") {
            i += 3
            return Double(bytes[i - 2])
        }
        var end = i
        while end < bytes.count && (isNameStart(bytes[end]) || isDigit(bytes[end])) { end += 1 }
        let name = String(decoding: bytes[i..<end], as: UTF8.self).lowercased()
        i = end
        switch name {
        case "pi": return Double.pi
        case "e": return 2.718281828459045
        case "phi": return 1.618033988749895
        default:
            if name.hasPrefix("x"), name.count > 1, let v = UInt64(name.dropFirst(), radix: 16) { return Double(v) }
            throw ExpressionError(offset: start, message: "unknown constant \"$\(name)\"")
        }
    }

    private static func matches(_ bytes: [UInt8], _ i: Int, _ s: String) -> Bool {
        var k = i
        for b in s.utf8 {
            guard k < bytes.count, bytes[k] == b else { return false }
            k += 1
        }
        return true
    }

    @inline(__always) static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    @inline(__always) static func isNameStart(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == UInt8(ascii: "_")
    }
}
