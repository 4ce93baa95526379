/// One token of shader text: a name, a number, an operator or punctuation, with the line it is on.
struct ShaderToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case identifier
        /// A number; `isInteger` for literals without `.`, exponent or `f`/`h` suffix (HLSL's `int`).
        case number(Double, isInteger: Bool)
        case symbol
        /// `#` first on its line: a preprocessor directive starts.
        case directive
    }
    var kind: Kind
    var text: String
    /// 1-based line in the shader text.
    var line: Int
    /// The logical line (lines joined by a trailing `\` share one): a directive ends with its logical line.
    var logicalLine: Int
    /// True when white space or a comment comes right before (a macro name followed directly by `(` is
    /// function-like; with a space it is an object-like macro whose body starts with `(`).
    var spaced: Bool

    func isSymbol(_ s: String) -> Bool { kind == .symbol && text == s }
}

/// Splits HLSL text into tokens: names, numbers (`1`, `1.`, `.5`, `1e-3`, `1.f`, `2h`, `0x1F`),
/// operators (longest first: `<<=`, `++`, `+=`, `&&` ...) and `#` directives; skips white space, `//`
/// and `/* */` comments (an unterminated one runs to the end, as MilkDrop's comment stripper lets it).
enum ShaderLexer {
    private static let threeCharacter: Set<String> = ["<<=", ">>="]
    private static let twoCharacter: Set<String> = [
        "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>",
    ]
    private static let single: Set<UInt8> = Set("+-*/%=<>!~&|^?:;,.()[]{}".utf8)

    static func tokens(_ text: String) throws(ShaderFault) -> [ShaderToken] {
        let bytes = Array(text.utf8)
        var out: [ShaderToken] = []
        var i = 0, line = 1, logical = 1
        var lineStart = true, spaced = true
        func at(_ k: Int) -> UInt8 { k < bytes.count ? bytes[k] : 0 }
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x0A {
                line += 1; logical += 1; lineStart = true; spaced = true; i += 1; continue
            }
            if c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0B || c == 0x0C || c == 0 { spaced = true; i += 1; continue }
            if c == UInt8(ascii: "\\") {
                // A line continuation: the next line belongs to this logical line.
                var k = i + 1
                while at(k) == 0x20 || at(k) == 0x09 || at(k) == 0x0D { k += 1 }
                if at(k) == 0x0A || k >= bytes.count { line += 1; i = k + 1; spaced = true; continue }
            }
            if c == UInt8(ascii: "/") && at(i + 1) == UInt8(ascii: "/") {
                while i < bytes.count && bytes[i] != 0x0A { i += 1 }
                continue
            }
            if c == UInt8(ascii: "/") && at(i + 1) == UInt8(ascii: "*") {
                let (end, newlines) = blockCommentEnd(bytes, from: i)
                line += newlines; logical += newlines
                i = end
                spaced = true
                continue
            }
            let (kind, end) = try token(bytes, at: i, lineStart: lineStart, line: line)
            out.append(ShaderToken(kind: kind, text: String(decoding: bytes[i..<end], as: UTF8.self),
                                   line: line, logicalLine: logical, spaced: spaced))
            spaced = false; lineStart = false
            i = end
        }
        return out
    }

    /// Where the `/* */` comment starting at `start` ends (after its `*/`, or at the end of the text),
    /// and how many line breaks it holds.
    private static func blockCommentEnd(_ bytes: [UInt8], from start: Int) -> (end: Int, newlines: Int) {
        var i = start + 2, newlines = 0
        while i < bytes.count && !(bytes[i] == UInt8(ascii: "*") && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/")) {
            if bytes[i] == 0x0A { newlines += 1 }
            i += 1
        }
        return (min(bytes.count, i + 2), newlines)
    }

    /// The kind of the token starting at `i` (not white space or a comment) and where it ends.
    private static func token(_ bytes: [UInt8], at i: Int, lineStart: Bool, line: Int) throws(ShaderFault) -> (ShaderToken.Kind, Int) {
        func at(_ k: Int) -> UInt8 { k < bytes.count ? bytes[k] : 0 }
        let c = bytes[i]
        if isDigit(c) || (c == UInt8(ascii: ".") && isDigit(at(i + 1))) {
            let (value, isInteger, end) = try number(bytes, from: i, line: line)
            return (.number(value, isInteger: isInteger), end)
        }
        if isNameStart(c) {
            var end = i + 1
            while isNameStart(at(end)) || isDigit(at(end)) { end += 1 }
            return (.identifier, end)
        }
        if c == UInt8(ascii: "\"") {
            // A string (only `#include "file"` has one); the parser refuses it anywhere else.
            var end = i + 1
            while end < bytes.count && bytes[end] != UInt8(ascii: "\"") && bytes[end] != 0x0A { end += 1 }
            return (.symbol, min(bytes.count, end + 1))
        }
        if c == UInt8(ascii: "#") {
            guard lineStart else { throw ShaderFault(line, "unexpected \"#\"") }
            return (.directive, i + 1)
        }
        if i + 3 <= bytes.count, threeCharacter.contains(String(decoding: bytes[i..<i + 3], as: UTF8.self)) { return (.symbol, i + 3) }
        if i + 2 <= bytes.count, twoCharacter.contains(String(decoding: bytes[i..<i + 2], as: UTF8.self)) { return (.symbol, i + 2) }
        if single.contains(c) { return (.symbol, i + 1) }
        var end = i + 1
        while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
        throw ShaderFault(line, "unexpected character \"\(String(decoding: bytes[i..<end], as: UTF8.self))\"")
    }

    /// A number starting at `i`: its value, whether it is an integer literal, and where it ends.
    private static func number(_ bytes: [UInt8], from start: Int, line: Int) throws(ShaderFault) -> (Double, Bool, Int) {
        func at(_ k: Int) -> UInt8 { k < bytes.count ? bytes[k] : 0 }
        var i = start
        if at(i) == UInt8(ascii: "0") && at(i + 1) | 0x20 == UInt8(ascii: "x") {
            i += 2
            var value: Double = 0
            while let d = hexDigit(at(i)) { value = value * 16 + Double(d); i += 1 }
            guard i > start + 2 else { throw ShaderFault(line, "bad hexadecimal number") }
            if at(i) | 0x20 == UInt8(ascii: "u") || at(i) | 0x20 == UInt8(ascii: "l") { i += 1 }
            return (value, true, i)
        }
        var isInteger = true
        while isDigit(at(i)) { i += 1 }
        if at(i) == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            while isDigit(at(i)) { i += 1 }
        }
        if at(i) | 0x20 == UInt8(ascii: "e") {
            let signed = at(i + 1) == UInt8(ascii: "+") || at(i + 1) == UInt8(ascii: "-")
            if isDigit(at(i + (signed ? 2 : 1))) {
                isInteger = false
                i += signed ? 2 : 1
                while isDigit(at(i)) { i += 1 }
            }
        }
        let end = i
        switch at(i) | 0x20 {
        case UInt8(ascii: "f"), UInt8(ascii: "h"): isInteger = false; i += 1
        case UInt8(ascii: "l"), UInt8(ascii: "u"): i += 1
        default: break
        }
        guard !isNameStart(at(i)) && !isDigit(at(i)) else {
            throw ShaderFault(line, "bad number \"\(String(decoding: bytes[start...i], as: UTF8.self))\"")
        }
        guard let value = Double(String(decoding: bytes[start..<end], as: UTF8.self)) else {
            throw ShaderFault(line, "bad number \"\(String(decoding: bytes[start..<i], as: UTF8.self))\"")
        }
        return (value, isInteger, i)
    }

    @inline(__always) static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    @inline(__always) static func isNameStart(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == UInt8(ascii: "_")
    }
    private static func hexDigit(_ c: UInt8) -> Int? {
        if isDigit(c) { return Int(c - 0x30) }
        let l = c | 0x20
        return l >= UInt8(ascii: "a") && l <= UInt8(ascii: "f") ? Int(l - UInt8(ascii: "a") + 10) : nil
    }
}
