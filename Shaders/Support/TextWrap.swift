import MarbleText

/// Fits a text to a width the way a title card does: lines are broken at spaces (or, for a word wider
/// than the width, between characters: CJK has no spaces) so each fits, and when there are more than
/// `maxLines`, the last one kept ends in an ellipsis (…) cut to fit. Lines the text already breaks
/// (`\n`) stay broken. Measured with `layout` at the size the text will be drawn; lays out the text
/// many times, so it runs only when the text or its size changes, never per frame.
enum TextWrap {
    static let ellipsis: UInt32 = 0x2026
    static let newline: UInt32 = 0x0A

    /// `text` with line breaks inserted (and an ellipsis at the end when cut), into `out`. Returns
    /// false when the text had to be cut.
    @discardableResult
    static func wrap(_ text: [UInt32], layout: TextLayout, pixelSize: Int, maxWidth: Float, maxLines: Int,
                     into out: inout [UInt32]) -> Bool {
        out.removeAll(keepingCapacity: true)
        var lines = 0
        func fits(_ line: ArraySlice<UInt32>) -> Bool { width(line, layout, pixelSize) <= maxWidth }
        func newLine() { if !out.isEmpty || lines > 0 { out.append(newline) } }
        let paragraphs = text.split(separator: newline, omittingEmptySubsequences: false)
        for (p, paragraph) in paragraphs.enumerated() {
            var rest = paragraph[...]
            repeat {
                if lines == maxLines - 1 {
                    // The last line allowed: the rest of the text goes on it whole, or cut with an ellipsis.
                    newLine()
                    if p == paragraphs.count - 1 && fits(rest) { out.append(contentsOf: rest); return true }
                    appendCut(rest, fits: fits, into: &out)
                    return false
                }
                let line = longestLine(rest, fits: fits)
                newLine()
                out.append(contentsOf: trimmed(line))
                lines += 1
                rest = rest[line.endIndex...].drop { $0 == 0x20 }
            } while !rest.isEmpty
        }
        return true
    }

    /// The longest start of `rest` that fits, ending before a space when it can, else between
    /// characters (at least one character, so a line always moves on).
    private static func longestLine(_ rest: ArraySlice<UInt32>, fits: (ArraySlice<UInt32>) -> Bool) -> ArraySlice<UInt32> {
        if fits(rest) { return rest }
        var best: ArraySlice<UInt32>?
        var i = rest.startIndex
        while i < rest.endIndex {
            if rest[i] == 0x20, i > rest.startIndex {
                let candidate = rest[rest.startIndex..<i]
                guard fits(candidate) else { break }
                best = candidate
            }
            i += 1
        }
        if let best { return best }
        // One word wider than the line: as many characters as fit.
        var end = rest.startIndex + 1
        while end < rest.endIndex, fits(rest[rest.startIndex..<end + 1]) { end += 1 }
        return rest[rest.startIndex..<end]
    }

    /// The last line: as much of `rest` as fits with an ellipsis after it.
    private static func appendCut(_ rest: ArraySlice<UInt32>, fits: (ArraySlice<UInt32>) -> Bool, into out: inout [UInt32]) {
        var line = Array(trimmed(rest)) + [ellipsis]
        while line.count > 1, !fits(line[...]) {
            line.remove(at: line.count - 2)
            while line.count > 1, line[line.count - 2] == 0x20 { line.remove(at: line.count - 2) }
        }
        out.append(contentsOf: line)
    }

    private static func trimmed(_ s: ArraySlice<UInt32>) -> ArraySlice<UInt32> {
        var t = s
        while let last = t.last, last == 0x20 { t = t.dropLast() }
        return t
    }

    /// The widest line of `scalars` laid out at `pixelSize`, pixels.
    static func width(_ scalars: ArraySlice<UInt32>, _ layout: TextLayout, _ pixelSize: Int) -> Float {
        scalars.withUnsafeBufferPointer { layout.layout($0, pixelSize: pixelSize) }
        return layout.lines.reduce(0) { max($0, $1.width) }
    }
}
