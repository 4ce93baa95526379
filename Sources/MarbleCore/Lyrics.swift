/// Timed text for the `lyrics` layer: lyrics (`.lrc`) or captions (`.srt`, `.vtt`) as lines in time
/// order, each with its start, its end and, for word-timed lyrics, the time each word is sung.
///
/// It lives in MarbleCore because three modules above share it without knowing one another: MarbleMedia
/// reads it from a file's tags, MarbleKit from `--lyrics` and `--captions`, the Shaders module draws it
/// (through ``SongInfo/lyrics``). Parsing is plain Swift (``LyricsFormat``), so it needs no C library.
///
/// Times are whole milliseconds, the finest unit the three formats write; a line is shown at media
/// time `t` (seconds) when `start ≤ t · 1000 < end`, which makes frame `n` at `n / fps` show the line
/// exactly from the first frame whose time is at or past its start (see ``lineIndex(at:)``).
package struct Lyrics: Sendable, Equatable {
    /// A word of a word-timed line: its characters (Unicode scalar offsets into the line's text) and
    /// the time it is sung, from `start` (ms) to `end` (ms, the next word's start or the line's end).
    package struct Word: Sendable, Equatable {
        package var scalars: Range<Int>
        package var start: Int
        package var end: Int

        package init(scalars: Range<Int>, start: Int, end: Int) {
            self.scalars = scalars
            self.start = start
            self.end = end
        }
    }

    /// One line (a caption may hold several rows, separated by U+000A): shown from `start` to `end` (ms).
    package struct Line: Sendable, Equatable {
        package var start: Int
        package var end: Int
        package var text: String
        /// The words with their times; empty when the line is timed as a whole.
        package var words: [Word]

        package init(start: Int, end: Int, text: String, words: [Word]) {
            self.start = start
            self.end = end
            self.text = text
            self.words = words
        }
    }

    /// The lines by start time (lines starting together keep the file's order).
    package let lines: [Line]

    /// The lines sorted by start; `end` is never before `start`.
    package init(lines: [Line]) {
        self.lines = lines.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
    }

    /// The line (index into ``lines``) shown at media time `seconds`, or nil between lines. When lines
    /// overlap (captions may), the latest started one wins. No allocation; a binary search.
    package func lineIndex(at seconds: Double) -> Int? {
        guard let last = lastStarted(at: seconds) else { return nil }
        return seconds < Self.seconds(lines[last].end) ? last : nil
    }

    /// The index of the last line whose start is at or before `seconds`, or nil before the first one.
    package func lastStarted(at seconds: Double) -> Int? {
        var low = 0, high = lines.count   // invariant: lines[..<low] started, lines[high...] did not
        while low < high {
            let mid = (low + high) / 2
            if Self.seconds(lines[mid].start) <= seconds { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? low - 1 : nil
    }

    /// A time in milliseconds as seconds. `Double(n) / fps` and `Double(ms) / 1000` are both correctly
    /// rounded quotients of integers, and rounding is monotonic, so `frameTime >= seconds(ms)` holds
    /// exactly when the frame's exact time is at or past `ms` (the two rationals differ by at least
    /// 1 / (1000 · fps numerator), far more than a rounding step at any media time).
    @inline(__always)
    package static func seconds(_ milliseconds: Int) -> Double { Double(milliseconds) / 1000 }

    /// The end of a line that has no end of its own (the last line of an `.lrc`): shown to the end.
    package static let open = Int.max
}
