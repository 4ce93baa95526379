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
/// digit; lower-cased since names are case-insensitive) and operators. Skips spaces and `/* … */` (an
/// unterminated block comment runs to the end).
///
/// Line breaks are not spaces: MilkDrop 2 joins a block's numbered lines by dropping its line-break
/// marks (and cuts `//` or `\\` comments at each line's end) before ns-eel2 compiles the text, so a
/// number or name wrapped onto the next line (`q4*.` + `34`) reads as one, and presets rely on it.
/// This lexer does the same: `//…` and `\\…` run to the end of their line, then CR and LF vanish.
/// Error offsets still point into the original text.
enum ExpressionLexer {
    /// The text as MilkDrop compiles it: line comments cut, line breaks removed; `origin[k]` is the
    /// offset in `source` of byte `k` (plus one entry for the end).
    static func joinLines(_ source: String) -> (bytes: [UInt8], origin: [Int]) {
        let raw = Array(source.utf8)
        var bytes: [UInt8] = [], origin: [Int] = []
        bytes.reserveCapacity(raw.count)
        origin.reserveCapacity(raw.count + 1)
        var i = 0
        while i < raw.count {
            let c = raw[i]
            let next: UInt8 = i + 1 < raw.count ? raw[i + 1] : 0
            if (c == UInt8(ascii: "/") && next == UInt8(ascii: "/")) || (c == UInt8(ascii: "\\") && next == UInt8(ascii: "\\")) {
                while i < raw.count && raw[i] != 0x0A && raw[i] != 0x0D { i += 1 }
                continue
            }
            if c != 0x0A && c != 0x0D {
                bytes.append(c)
                origin.append(i)
            }
            i += 1
        }
        origin.append(raw.count)
        return (bytes, origin)
    }

    static func tokens(_ source: String) throws(ExpressionError) -> [ExpressionToken] {
        let (bytes, origin) = joinLines(source)
        var out: [ExpressionToken] = []
        do {
            try scan(bytes, into: &out)
        } catch {
            throw ExpressionError(offset: origin[min(error.offset, origin.count - 1)], message: error.message)
        }
        for k in out.indices { out[k].offset = origin[min(out[k].offset, origin.count - 1)] }
        return out
    }

    private static func scan(_ bytes: [UInt8], into out: inout [ExpressionToken]) throws(ExpressionError) {
        var i = 0
        func at(_ k: Int) -> UInt8 { k < bytes.count ? bytes[k] : 0 }
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x20 || c == 0x09 || c == 0x0B || c == 0x0C || c == 0 { i += 1; continue }
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
            if let symbol = symbol(c, at(i + 1)) {
                out.append(.init(kind: .symbol(symbol), offset: i))
                i += symbol.utf8.count
                continue
            }
            var end = i + 1
            while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
            let character = String(decoding: bytes[i..<end], as: UTF8.self)
            throw ExpressionError(offset: i, message: "unexpected character \"\(character)\"")
        }
        out.append(.init(kind: .end, offset: bytes.count))
    }

    /// The operator starting with `c` (two characters when `c`, `next` make one), nil when none does.
    private static func symbol(_ c: UInt8, _ next: UInt8) -> String? {
        let first = String(UnicodeScalar(c))
        switch c {
        case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "/"), UInt8(ascii: "%"),
             UInt8(ascii: "^"), UInt8(ascii: "!"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "="):
            return next == UInt8(ascii: "=") ? first + "=" : first
        case UInt8(ascii: "&"), UInt8(ascii: "|"):
            if next == c { return first + first }
            return next == UInt8(ascii: "=") ? first + "=" : first
        case UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "["),
             UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: ";"):
            return first
        default:
            return nil
        }
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

    @inline(__always) static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    @inline(__always) static func isNameStart(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == UInt8(ascii: "_")
    }
}
