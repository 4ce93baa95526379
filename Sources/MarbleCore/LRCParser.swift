/// Parses LRC synced lyrics, as lyric sites and players write them:
/// - `[mm:ss.xx]text`: the line's start (`mm:ss`, `.x`, `.xx` or `.xxx` fractions, `:` accepted for
///   the fraction too); several tags before one text repeat it (`[00:10.00][01:10.00]Chorus`);
/// - `[offset:+500]`: milliseconds; positive shows the lyrics sooner (as players do), anywhere in the
///   file, applied to every time;
/// - other `[name:value]` tags (`ar`, `ti`, `al`, `by`, `length`, …) are metadata and ignored;
/// - enhanced LRC: `<mm:ss.xx>` before each word times the words (a last tag after the last word
///   ends it);
/// - a line ends where the next one starts; an empty timed line (`[01:02.00]`) ends the one before it
///   and shows nothing; the last line shows to the end. Blank lines are skipped.
struct LRCParser {
    private let text: LyricsText

    init(_ text: LyricsText) { self.text = text }

    /// One timed line as read: its start, its text and its words (times before the offset).
    private struct Entry { var start: Int, text: String, words: [(scalars: Range<Int>, start: Int)], wordsEnd: Int? }

    func parse() throws(MarbleError) -> Lyrics {
        var entries: [Entry] = []
        var offset = 0
        for (index, raw) in text.lines.enumerated() {
            let line = raw.trimmingSpaces
            guard !line.isEmpty else { continue }
            guard line.first == "[" else { throw text.error(index, "no [mm:ss.xx] time before the text") }
            var rest = line[...]
            var starts: [Int] = []
            while rest.first == "[" {
                guard let close = rest.firstIndex(of: "]") else { throw text.error(index, "a [ without its ]") }
                let tag = rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: close)...]
                if let time = Self.time(tag) {
                    starts.append(time)
                } else if let value = Self.metadata(tag, named: "offset") {
                    guard let ms = Int(value.trimmingSpaces), abs(ms) <= LyricsFormat.maximumMilliseconds else {
                        throw text.error(index, "[offset:\(value)] is not a number of milliseconds like +250 or -100")
                    }
                    offset = ms
                } else if Self.metadata(tag, named: nil) == nil || !starts.isEmpty {
                    throw text.error(index, "[\(tag)] is not a time like [01:23.45]")
                }
            }
            guard !starts.isEmpty else { continue }   // a metadata line
            let (lyric, words, wordsEnd) = try Self.words(rest.trimmingSpaces, index, text)
            for start in starts { entries.append(Entry(start: start, text: lyric, words: words, wordsEnd: wordsEnd)) }
        }
        return Lyrics(lines: Self.lines(entries, offset: offset))
    }

    /// The lines: shifted by `offset`, ended by their successors, empty ones dropped.
    private static func lines(_ entries: [Entry], offset: Int) -> [Lyrics.Line] {
        let shift = { (ms: Int) in max(0, ms - offset) }
        let sorted = entries.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        var lines: [Lyrics.Line] = []
        for (i, entry) in sorted.enumerated() where !entry.text.isEmpty {
            let start = shift(entry.start)
            let end = i + 1 < sorted.count ? max(start, shift(sorted[i + 1].start)) : Lyrics.open
            var words: [Lyrics.Word] = []
            for (k, word) in entry.words.enumerated() {
                let wordStart = shift(word.start)
                let next = k + 1 < entry.words.count ? shift(entry.words[k + 1].start)
                    : entry.wordsEnd.map(shift) ?? (end == Lyrics.open ? wordStart + 1000 : end)
                words.append(Lyrics.Word(scalars: word.scalars, start: wordStart, end: max(wordStart, next)))
            }
            lines.append(Lyrics.Line(start: start, end: end, text: entry.text, words: words))
        }
        return lines
    }

    /// The text of a line without its `<mm:ss.xx>` word tags, each word's scalars and time, and the
    /// time of a last tag that follows the last word (its end).
    private static func words(_ line: Substring, _ index: Int, _ text: LyricsText) throws(MarbleError)
        -> (String, [(scalars: Range<Int>, start: Int)], Int?) {
        guard line.contains("<") else { return (String(line), [], nil) }
        var plain = String.UnicodeScalarView()
        var words: [(scalars: Range<Int>, start: Int)] = []
        var rest = line[...]
        var pending: Int?   // the time of the word being read
        var count = 0, wordBegin = 0   // text before the first tag belongs to no word
        while let open = rest.firstIndex(of: "<") {
            for s in rest[..<open].unicodeScalars { plain.append(s); count += 1 }
            guard let closing = rest[open...].firstIndex(of: ">") else { throw text.error(index, "a < without its >") }
            let tag = rest[rest.index(after: open)..<closing]
            guard let time = time(tag) else { throw text.error(index, "<\(tag)> is not a word time like <01:23.45>") }
            if let start = pending, count > wordBegin { words.append((wordBegin..<count, start)) }
            pending = time
            wordBegin = count
            rest = rest[rest.index(after: closing)...]
        }
        for s in rest.unicodeScalars { plain.append(s); count += 1 }
        var wordsEnd: Int?
        if let start = pending {
            if count > wordBegin { words.append((wordBegin..<count, start)) } else { wordsEnd = start }
        }
        let lyric = String(plain)
        return lyric.trimmingSpaces.isEmpty ? ("", [], nil) : (lyric, words, wordsEnd)
    }

    /// Milliseconds of a `mm:ss`, `mm:ss.xx` or `mm:ss:xx` time, or nil.
    static func time(_ tag: Substring) -> Int? {
        let parts = tag.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        if parts.count == 3 { return LyricsText.milliseconds(Array(parts[0...1]), fraction: parts[2]) }
        let seconds = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard seconds.count <= 2 else { return nil }
        return LyricsText.milliseconds([parts[0], seconds[0]], fraction: seconds.count == 2 ? seconds[1] : nil)
    }

    /// The value of a `name:value` metadata tag (a name of ASCII letters), when `name` is nil or matches.
    static func metadata(_ tag: Substring, named name: String?) -> Substring? {
        guard let colon = tag.firstIndex(of: ":") else { return nil }
        let key = tag[..<colon]
        guard !key.isEmpty, key.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        if let name, key.lowercased() != name { return nil }
        return tag[tag.index(after: colon)...]
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        guard let first = firstIndex(where: { $0 != " " && $0 != "\t" }) else { return self[endIndex...] }
        let last = lastIndex(where: { $0 != " " && $0 != "\t" })!
        return self[first...last]
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring { self[...].trimmingSpaces }
}
