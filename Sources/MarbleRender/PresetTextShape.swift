import MarbleCore

/// What a preset's text may look like before the YAML parser sees it: at most
/// ``FileBounds/presetBytes`` bytes, nested at most ``FileBounds/presetDepth`` deep, and without
/// anchors or aliases (`&name`, `*name`: a preset has no use for them, and a few lines of aliases
/// expand into billions of nodes). The parser recurses once per level of nesting, so 10,000 `[` or
/// `- - - …` would exhaust its stack; this scan is linear and never recurses.
enum PresetTextShape {
    /// Throws a `.preset` error naming `source` and the line when `text` breaks a bound.
    static func check(_ text: String, source: String) throws(MarbleError) {
        let bytes = Array(text.utf8)
        guard bytes.count <= FileBounds.presetBytes else {
            throw MarbleError(.preset, "\(source): \(bytes.count) bytes, larger than the \(FileBounds.presetBytes >> 10) KB a preset may be")
        }
        var scanner = Scanner(bytes: bytes)
        if let problem = scanner.firstProblem() {
            throw MarbleError(.preset, "\(source): line \(problem.line): \(problem.what)")
        }
    }

    /// One pass over the bytes, tracking quotes, comments, flow brackets and each line's indentation.
    private struct Scanner {
        let bytes: [UInt8]
        var line = 1
        var flow = 0
        var quote: UInt8?

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func firstProblem() -> (line: Int, what: String)? {
            var i = 0, lineStart = true
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "\n") { line += 1; lineStart = true; i += 1; continue }
                if let q = quote {
                    if b == UInt8(ascii: "\\") && q == UInt8(ascii: "\"") { i += 2; continue }
                    if b == q { quote = nil }
                    i += 1
                    continue
                }
                if lineStart {
                    lineStart = false
                    let (column, next) = indentation(from: i)
                    if column / 2 > FileBounds.presetDepth { return (line, "nested deeper than \(FileBounds.presetDepth) levels") }
                    i = next
                    continue
                }
                let before = i == 0 ? UInt8(ascii: " ") : bytes[i - 1]
                let startsToken = Self.separators.contains(before)
                switch b {
                case UInt8(ascii: "#") where startsToken:
                    while i < bytes.count && bytes[i] != UInt8(ascii: "\n") { i += 1 }
                    continue
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    if startsToken { quote = b }
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    flow += 1
                    if flow > FileBounds.presetDepth { return (line, "nested deeper than \(FileBounds.presetDepth) levels") }
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    flow = max(0, flow - 1)
                case UInt8(ascii: "&"), UInt8(ascii: "*"):
                    if startsToken && i + 1 < bytes.count && !Self.separators.contains(bytes[i + 1]) && bytes[i + 1] != UInt8(ascii: "\n") {
                        return (line, "YAML anchors and aliases (&name, *name) are not allowed in a preset")
                    }
                default: break
                }
                i += 1
            }
            return nil
        }

        /// The column where a line's content starts, counting each `- ` of a sequence entry as a level
        /// of 2 columns (`- - - x` nests three sequences on one line), and the index of that content.
        func indentation(from start: Int) -> (column: Int, next: Int) {
            var i = start, column = 0
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: " ") {
                    column += 1; i += 1
                } else if bytes[i] == UInt8(ascii: "-"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: " ") {
                    column += 2; i += 2
                } else {
                    break
                }
            }
            return (column, i)
        }

        /// Bytes after which a YAML token (a comment, a quote, an anchor or alias) may start.
        static let separators: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "["), UInt8(ascii: "{"),
                                              UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "\n")]
    }
}
