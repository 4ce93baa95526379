import Foundation

/// The timed-text formats `--lyrics` and `--captions` read, and the one entry point that reads them.
///
/// Every file is checked before it sizes anything: its bytes against ``FileBounds/lyricsBytes``, then
/// its line count and each line's length; a UTF-8 byte-order mark and CRLF line ends are accepted. A
/// bad file is one ``MarbleError`` naming the file, the line and what is wrong with it.
package enum LyricsFormat: String, Sendable, CaseIterable {
    /// Synced lyrics: `[mm:ss.xx]` before each line, `<mm:ss.xx>` before each word (enhanced LRC).
    case lrc
    /// SubRip captions: numbered cues, `hh:mm:ss,mmm --> hh:mm:ss,mmm`.
    case srt
    /// WebVTT captions: a `WEBVTT` header, cues `[hh:]mm:ss.mmm --> [hh:]mm:ss.mmm`.
    case vtt

    /// The format a file's extension names (any case), or nil.
    package init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }

    /// The most lines a file may hold (a three-hour podcast's captions are ~3,000 cues).
    package static let maximumLines = 100_000
    /// The longest line, in bytes of UTF-8.
    package static let maximumLineBytes = 4096
    /// The most rows of text one caption may have (each row is drawn: the bound keeps the picture of a
    /// cue, and its memory, to the frame's size; real captions have 1–3).
    package static let maximumRows = 8
    /// The latest time a file may name: 100 hours, in milliseconds.
    package static let maximumMilliseconds = 100 * 3600 * 1000

    /// Reads and parses the file at `path` in this format; `kind` is the error's kind.
    package func read(_ path: String, kind: MarbleError.Kind = .option) throws(MarbleError) -> Lyrics {
        let data = try FileBounds.read(path, limit: FileBounds.lyricsBytes, what: ".\(rawValue) file", kind: kind)
        return try parse(data, name: path, kind: kind)
    }

    /// Parses `data` (the file's bytes); `name` heads every error message.
    package func parse(_ data: Data, name: String, kind: MarbleError.Kind = .option) throws(MarbleError) -> Lyrics {
        guard data.count <= FileBounds.lyricsBytes else {
            throw MarbleError(kind, "\(name): larger than the \(FileBounds.lyricsBytes >> 10) KB a .\(rawValue) file may be")
        }
        let text = try LyricsText(data, name: name, kind: kind)
        switch self {
        case .lrc: return try LRCParser(text).parse()
        case .srt: return try CaptionParser(text, webVTT: false).parse()
        case .vtt: return try CaptionParser(text, webVTT: true).parse()
        }
    }
}

extension LyricsFormat {
    /// The rows of an ASS event's text (what FFmpeg decodes every text subtitle into): `\N` and `\n`
    /// break rows, `\h` is a space, markup is dropped as in captions; empty rows are left out.
    package static func captionRows(ASS text: Substring) -> [String] {
        var rows: [String] = []
        var row = ""
        var rest = text
        while let c = rest.first {
            if c == "\\", let next = rest.dropFirst().first, next == "N" || next == "n" || next == "h" {
                if next == "h" { row.append(" ") } else { rows.append(row); row = "" }
                rest = rest.dropFirst(2)
            } else {
                row.append(c)
                rest = rest.dropFirst()
            }
        }
        rows.append(row)
        return Array(rows.map { String(CaptionParser.plain($0[...]).trimmingSpaces) }.filter { !$0.isEmpty }.prefix(maximumRows))
    }
}

/// A timed-text file as numbered lines (without their line ends), checked for size and UTF-8, and the
/// pieces its parsers share: errors that name a line, and time fields.
struct LyricsText {
    /// The lines, without `\n` or `\r\n`; line `i` is the file's line `i + 1`.
    let lines: [Substring]
    let name: String
    let kind: MarbleError.Kind

    init(_ data: Data, name: String, kind: MarbleError.Kind) throws(MarbleError) {
        self.name = name
        self.kind = kind
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        var lines: [Substring] = []
        var start = bytes.startIndex
        for i in bytes.indices where bytes[i] == 0x0A || i == bytes.endIndex - 1 {
            let end = bytes[i] == 0x0A ? i : i + 1
            try Self.append(bytes[start..<end], to: &lines, name: name, kind: kind)
            start = i + 1
        }
        self.lines = lines
    }

    private static func append(_ raw: Data.SubSequence, to lines: inout [Substring], name: String, kind: MarbleError.Kind) throws(MarbleError) {
        let number = lines.count + 1
        guard number <= LyricsFormat.maximumLines else {
            throw MarbleError(kind, "\(name), line \(number): more than \(LyricsFormat.maximumLines) lines")
        }
        var line = raw
        if line.last == 0x0D { line = line.dropLast() }
        guard line.count <= LyricsFormat.maximumLineBytes else {
            throw MarbleError(kind, "\(name), line \(number): longer than \(LyricsFormat.maximumLineBytes) bytes")
        }
        guard let text = String(validating: line, as: UTF8.self) else {
            throw MarbleError(kind, "\(name), line \(number): not valid UTF-8")
        }
        lines.append(text[...])
    }

    /// An error about line `index` (0-based).
    func error(_ index: Int, _ what: String) -> MarbleError {
        MarbleError(kind, "\(name), line \(index + 1): \(what)")
    }

    /// Milliseconds from `h:mm:ss.fff`-style fields: `fields` are the colon-separated parts before the
    /// fraction (hours and minutes unbounded but the total within ``LyricsFormat/maximumMilliseconds``,
    /// seconds below 60), `fraction` the 1–3 digits after the separator (tenths, hundredths or
    /// thousandths), or nil when the form is wrong.
    static func milliseconds(_ fields: [Substring], fraction: Substring?) -> Int? {
        guard (2...3).contains(fields.count) else { return nil }
        var total = 0
        for (i, field) in fields.enumerated() {
            guard (1...4).contains(field.count), field.allSatisfy(\.isASCIIDigit), let value = Int(field) else { return nil }
            if i == fields.count - 1 && value >= 60 { return nil }
            if i > 0 && i == fields.count - 2 && fields.count == 3 && value >= 60 { return nil }
            total = total * 60 + value
        }
        total *= 1000
        if let fraction {
            guard (1...3).contains(fraction.count), fraction.allSatisfy(\.isASCIIDigit), let value = Int(fraction) else { return nil }
            total += value * [100, 10, 1][fraction.count - 1]
        }
        return total <= LyricsFormat.maximumMilliseconds ? total : nil
    }
}

extension Character {
    /// 0–9 only (not the other scripts' digits `isNumber` admits).
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
