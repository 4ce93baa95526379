/// Parses SubRip (`.srt`) and WebVTT (`.vtt`) captions into ``Lyrics`` lines timed as a whole.
///
/// SubRip: cues separated by blank lines, each an optional number, a timing line
/// `hh:mm:ss,mmm --> hh:mm:ss,mmm` (a `.` is accepted for the `,`; coordinates after it ignored) and
/// one or more text lines. WebVTT: a first line `WEBVTT` (with anything after a space), header lines
/// up to a blank line, then blocks: `NOTE`, `STYLE` and `REGION` blocks skipped, cues with an optional
/// id line, a timing line `[hh:]mm:ss.mmm --> [hh:]mm:ss.mmm` whose cue settings are ignored, and text.
/// In both, markup is dropped (`<i>`, `<b>`, `<font …>`, `<v Name>`, `<c.class>`, inline times, and
/// SSA overrides like `{\an8}`), WebVTT's character references decoded (`&amp;`, `&lt;`, `&gt;`,
/// `&nbsp;`, …), and a cue's rows kept as rows of one line.
struct CaptionParser {
    private let text: LyricsText
    private let webVTT: Bool

    init(_ text: LyricsText, webVTT: Bool) {
        self.text = text
        self.webVTT = webVTT
    }

    func parse() throws(MarbleError) -> Lyrics {
        var i = 0
        let lines = text.lines
        if webVTT {
            guard let first = lines.first, first.hasPrefix("WEBVTT"),
                  first.count == 6 || first.dropFirst(6).first == " " || first.dropFirst(6).first == "\t" else {
                throw text.error(0, "a WebVTT file starts with the line WEBVTT")
            }
            while i < lines.count && !lines[i].trimmingSpaces.isEmpty { i += 1 }   // the header
        }
        var cues: [Lyrics.Line] = []
        while i < lines.count {
            guard !lines[i].trimmingSpaces.isEmpty else { i += 1; continue }
            let block = i
            while i < lines.count && !lines[i].trimmingSpaces.isEmpty { i += 1 }
            if let cue = try cue(block..<i) { cues.append(cue) }
        }
        return Lyrics(lines: cues)
    }

    /// The cue in the non-blank lines `block`, or nil for a block that is not one (a WebVTT note,
    /// style or region, or a cue without text).
    private func cue(_ block: Range<Int>) throws(MarbleError) -> Lyrics.Line? {
        let lines = text.lines
        let head = lines[block.lowerBound].trimmingSpaces
        if webVTT, ["NOTE", "STYLE", "REGION"].contains(where: { head == $0 || head.hasPrefix($0 + " ") || head.hasPrefix($0 + "\t") }) {
            return nil
        }
        var timing = block.lowerBound
        if !head.contains("-->") {
            timing += 1   // a cue number (SubRip) or identifier (WebVTT)
            if !webVTT && !head.allSatisfy(\.isASCIIDigit) {
                throw text.error(block.lowerBound, "expected a cue number or a time line like 00:00:01,000 --> 00:00:02,500")
            }
            guard timing < block.upperBound else {
                throw text.error(block.lowerBound, "a cue without its time line (00:00:01,000 --> 00:00:02,500)")
            }
        }
        let (start, end) = try times(timing)
        var rows: [String] = []
        for (index, row) in zip((timing + 1)..<block.upperBound, lines[(timing + 1)..<block.upperBound]) {
            let clean = Self.plain(row).trimmingSpaces
            guard !clean.isEmpty else { continue }
            guard rows.count < LyricsFormat.maximumRows else {
                throw text.error(index, "a cue with more than \(LyricsFormat.maximumRows) rows of text")
            }
            rows.append(String(clean))
        }
        guard !rows.isEmpty else { return nil }
        return Lyrics.Line(start: start, end: end, text: rows.joined(separator: "\n"), words: [])
    }

    /// The start and end of the timing line `index`.
    private func times(_ index: Int) throws(MarbleError) -> (Int, Int) {
        let line = text.lines[index]
        let example = webVTT ? "00:01.000 --> 00:02.500" : "00:00:01,000 --> 00:00:02,500"
        guard let arrow = line.range(of: "-->") else { throw text.error(index, "expected a time line like \(example)") }
        let left = line[..<arrow.lowerBound].trimmingSpaces
        let right = line[arrow.upperBound...].trimmingSpaces.split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? ""
        guard let start = time(left) else { throw text.error(index, "\"\(left)\" is not a time like \(example.prefix(webVTT ? 9 : 12))") }
        guard let end = time(right) else { throw text.error(index, "\"\(right)\" is not a time like \(example.prefix(webVTT ? 9 : 12))") }
        guard end >= start else { throw text.error(index, "the cue ends (\(right)) before it starts (\(left))") }
        return (start, end)
    }

    /// Milliseconds of `hh:mm:ss,mmm` (SubRip; `.` too) or `[hh:]mm:ss.mmm` (WebVTT), or nil.
    private func time(_ field: Substring) -> Int? {
        let separator = field.lastIndex { $0 == "," || $0 == "." }
        guard let separator, webVTT ? field[separator] == "." : true else { return nil }
        let fraction = field[field.index(after: separator)...]
        guard fraction.count == 3 else { return nil }
        let parts = field[..<separator].split(separator: ":", omittingEmptySubsequences: false)
        guard webVTT ? (2...3).contains(parts.count) : parts.count == 3 else { return nil }
        return LyricsText.milliseconds(parts, fraction: fraction)
    }

    /// A text row without markup: `<…>` tags and `{\…}` overrides removed, character references decoded.
    static func plain(_ row: Substring) -> String {
        var out = ""
        var rest = row[...]
        while let c = rest.first {
            if c == "<", let close = rest.firstIndex(of: ">") {
                rest = rest[rest.index(after: close)...]
            } else if c == "{", rest.dropFirst().first == "\\", let close = rest.firstIndex(of: "}") {
                rest = rest[rest.index(after: close)...]
            } else if c == "&", let semicolon = rest.prefix(8).firstIndex(of: ";"),
                      let decoded = Self.entities[String(rest[rest.index(after: rest.startIndex)..<semicolon])] {
                out.append(decoded)
                rest = rest[rest.index(after: semicolon)...]
            } else {
                out.append(c)
                rest = rest.dropFirst()
            }
        }
        return out
    }

    private static let entities: [String: Character] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "lrm": "\u{200E}", "rlm": "\u{200F}",
    ]
}
