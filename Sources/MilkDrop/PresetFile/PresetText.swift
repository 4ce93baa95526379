/// The lines of a preset file's bytes, and how to decode them: UTF-8 when the whole file is valid UTF-8
/// (after an optional byte-order mark), else Latin-1, one character per byte.
struct PresetLines {
    let encoding: MilkPresetEncoding
    let bytes: [UInt8]
    /// Each line's bytes without its line end, with its 1-based number (LF, CRLF and lone CR end lines).
    let lines: [(number: Int, range: Range<Int>)]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        encoding = String(validating: bytes[start...], as: UTF8.self) != nil ? .utf8 : .latin1
        var lines: [(number: Int, range: Range<Int>)] = []
        var i = start, number = 1
        while i < bytes.count {
            let byte = bytes[i]
            if byte == 0x0A || byte == 0x0D {
                lines.append((number, start..<i))
                number += 1
                if byte == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
                start = i + 1
            }
            i += 1
        }
        if start < bytes.count { lines.append((number, start..<bytes.count)) }
        self.lines = lines
    }

    /// Text from bytes of this file, in its encoding.
    func decode(_ slice: ArraySlice<UInt8>) -> String {
        switch encoding {
        case .utf8: String(decoding: slice, as: UTF8.self)
        case .latin1: String(String.UnicodeScalarView(slice.map { Unicode.Scalar($0) }))
        }
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
