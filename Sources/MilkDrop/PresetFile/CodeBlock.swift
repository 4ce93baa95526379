/// The numbered lines of one piece of preset code (`per_frame_1`, `per_frame_2` …), joined in numeric
/// order with `"\n"`, remembering which file line each part came from so that a compile error at an
/// offset in ``text`` can name the line of the `.milk` file.
package struct CodeBlock: Sendable, Equatable {
    /// The joined code.
    package private(set) var text: String
    /// UTF-8 offset in `text` where each joined line starts (ascending; the first is 0).
    private var starts: [Int]
    /// The file line each joined line came from.
    private var fileLines: [Int]

    /// An empty block.
    package init() { text = ""; starts = []; fileLines = [] }

    /// Lines in the order given, each with the file line it came from.
    package init(lines: [(fileLine: Int, text: String)]) {
        var text = ""
        var starts: [Int] = [], fileLines: [Int] = []
        starts.reserveCapacity(lines.count); fileLines.reserveCapacity(lines.count)
        for (i, line) in lines.enumerated() {
            if i > 0 { text += "\n" }
            starts.append(text.utf8.count)
            fileLines.append(line.fileLine)
            text += line.text
        }
        self.text = text; self.starts = starts; self.fileLines = fileLines
    }

    /// Code not from a file: its own lines are numbered 1, 2, 3 …
    package init(_ text: String) {
        let parts = text.split(separator: "\n", omittingEmptySubsequences: false)
        self.init(lines: parts.enumerated().map { (fileLine: $0.offset + 1, text: String($0.element)) })
    }

    /// True when the block holds nothing but white space.
    package var isEmpty: Bool { text.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D } }

    /// How many lines were joined.
    package var lineCount: Int { starts.count }

    /// The file line that the UTF-8 offset `utf8Offset` of ``text`` came from. An offset on a joining
    /// `"\n"` belongs to the line it ends; offsets past the end give the last line; 0 for an empty block.
    package func line(atOffset utf8Offset: Int) -> Int {
        guard !starts.isEmpty else { return 0 }
        // The last start at or before the offset (binary search: blocks can have thousands of lines).
        var low = 0, high = starts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= utf8Offset { low = mid } else { high = mid - 1 }
        }
        return fileLines[low]
    }
}
