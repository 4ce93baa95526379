/// The lines of a preset file's bytes, decoded: UTF-8 when the whole file is valid UTF-8, else Latin-1.
struct PresetLines {
    let encoding: MilkPresetEncoding
    /// Each line without its line end, with its 1-based number.
    let lines: [(number: Int, text: String)]

    init(_ bytes: [UInt8]) {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        let utf8 = String(validating: body, as: UTF8.self) != nil
        encoding = utf8 ? .utf8 : .latin1
        var lines: [(number: Int, text: String)] = []
        var start = body.startIndex, i = body.startIndex, number = 1
        func take(_ end: Int) {
            let slice = body[start..<end]
            let text = utf8 ? String(decoding: slice, as: UTF8.self)
                            : String(String.UnicodeScalarView(slice.map { Unicode.Scalar($0) }))
            lines.append((number, text))
        }
        while i < body.endIndex {
            let byte = body[i]
            if byte == 0x0A || byte == 0x0D {
                take(i)
                number += 1
                if byte == 0x0D, i + 1 < body.endIndex, body[i + 1] == 0x0A { i += 1 }
                start = i + 1
            }
            i += 1
        }
        if start < body.endIndex { take(body.endIndex) }
        self.lines = lines
    }

    /// The 1-based line holding byte `index` (LF, CRLF and lone CR end lines).
    static func lineNumber(ofByte index: Int, in bytes: [UInt8]) -> Int {
        var line = 1, i = 0
        while i < index {
            if bytes[i] == 0x0A { line += 1 }
            else if bytes[i] == 0x0D { line += 1; if i + 1 < index, bytes[i + 1] == 0x0A { i += 1 } }
            i += 1
        }
        return line
    }
}

/// Numbers in settings, read like C's `atof`: optional sign, digits with an optional point, an optional
/// exponent; the longest such start of the text counts. No hex, `inf` or `nan` (MilkDrop never wrote them).
enum PresetNumber {
    /// The value and how many UTF-8 bytes of `text` it used; nil when `text` starts with no number.
    static func leading(_ text: Substring) -> (Double, Int)? {
        let u = Array(text.utf8)
        var i = 0
        func digits() -> Int { let s = i; while i < u.count, u[i] >= 0x30, u[i] <= 0x39 { i += 1 }; return i - s }
        if i < u.count, u[i] == 0x2B || u[i] == 0x2D { i += 1 }
        var count = digits()
        if i < u.count, u[i] == 0x2E { i += 1; count += digits() }
        guard count > 0 else { return nil }
        var end = i
        if i < u.count, u[i] == 0x65 || u[i] == 0x45 {
            i += 1
            if i < u.count, u[i] == 0x2B || u[i] == 0x2D { i += 1 }
            if digits() > 0 { end = i }
        }
        guard let value = Double(String(decoding: u[0..<end], as: UTF8.self)) else { return nil }
        return (value, end)
    }
}
