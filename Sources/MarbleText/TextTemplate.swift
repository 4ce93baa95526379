import MarbleCore

/// A text with fields, as a text layer's `text` parameter writes it: `{title}`, `{artist}`, `{album}`,
/// any other tag by name (`{date}`, `{genre}`, …), and the clock fields `{elapsed}`, `{remaining}` and
/// `{duration}` (m:ss, or h:mm:ss when the song lasts an hour or more). `{name|text}` gives `text`
/// when the field is empty; `{{` and `}}` write braces; a line feed or `\n` (backslash, n) starts a
/// new line.
///
/// Filled per frame into a buffer of Unicode scalar values: a missing tag gives nothing, and a line
/// whose fields all came out empty disappears (as does a line with nothing but spaces); lines are
/// trimmed. Without a song (a live session) every tag is missing and `{remaining}` and `{duration}`
/// are empty; `{elapsed}` counts from the session's start. Filling allocates nothing once the buffer
/// has grown to the text's length.
package struct TextTemplate: Sendable {
    private enum Segment: Sendable {
        case literal([UInt32])
        case field(name: String, fallback: [UInt32])
        case newline
    }
    private let segments: [Segment]
    /// True when the text has a clock field (it changes once a second).
    package let usesClock: Bool

    package init(_ template: String) {
        var segments: [Segment] = []
        var literal: [UInt32] = []
        var usesClock = false
        func flush() { if !literal.isEmpty { segments.append(.literal(literal)); literal = [] } }
        let scalars = Array(template.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            if (c == "{" || c == "}") && i + 1 < scalars.count && scalars[i + 1] == c {
                literal.append(c.value); i += 2; continue
            }
            // A line feed, or a backslash and n as typed in a shell or a plain YAML string.
            if c == "\n" || (c == "\\" && i + 1 < scalars.count && scalars[i + 1] == "n") {
                flush(); segments.append(.newline); i += c == "\n" ? 1 : 2; continue
            }
            if c == "{", let close = scalars[(i + 1)...].firstIndex(of: "}") {
                let inside = scalars[(i + 1)..<close]
                let bar = inside.firstIndex(of: "|")
                let name = String(String.UnicodeScalarView(inside[..<(bar ?? close)])).lowercased()
                let fallback = bar.map { inside[($0 + 1)...].map(\.value) } ?? []
                if !name.isEmpty && name.unicodeScalars.allSatisfy({ $0 != "{" && $0 != " " }) {
                    flush()
                    segments.append(.field(name: name, fallback: fallback))
                    usesClock = usesClock || ["elapsed", "remaining", "duration"].contains(name)
                    i = close + 1
                    continue
                }
            }
            literal.append(c.value)
            i += 1
        }
        flush()
        self.segments = segments
        self.usesClock = usesClock
    }

    /// Writes the text for a frame at `time` seconds of `song` into `out` (emptied first).
    package func fill(_ out: inout [UInt32], song: SongInfo?, time: Double) {
        out.removeAll(keepingCapacity: true)
        var lineStart = 0, hasField = false, hasValue = false
        for segment in segments {
            switch segment {
            case .literal(let text):
                out.append(contentsOf: text)
            case .field(let name, let fallback):
                let before = out.count
                appendField(name, &out, song: song, time: time)
                if out.count == before { out.append(contentsOf: fallback) }
                hasField = true
                hasValue = hasValue || out.count > before
            case .newline:
                if finishLine(&out, from: lineStart, drop: hasField && !hasValue) { out.append(0x0A) }
                lineStart = out.count; hasField = false; hasValue = false
            }
        }
        _ = finishLine(&out, from: lineStart, drop: hasField && !hasValue)
        while out.last == 0x0A { out.removeLast() }
    }

    /// Trims the line `out[start...]`; removes it when `drop` or when nothing is left. True when kept.
    private func finishLine(_ out: inout [UInt32], from start: Int, drop: Bool) -> Bool {
        func isSpace(_ c: UInt32) -> Bool { c == 0x20 || c == 0x09 || c == 0x0D || c == 0xA0 || c == 0x3000 }
        while out.count > start, isSpace(out[out.count - 1]) { out.removeLast() }
        var first = start
        while first < out.count, isSpace(out[first]) { first += 1 }
        if first > start { out.removeSubrange(start..<first) }
        if drop || out.count == start {
            out.removeSubrange(start...)
            return false
        }
        return true
    }

    private func appendField(_ name: String, _ out: inout [UInt32], song: SongInfo?, time: Double) {
        let duration = song?.duration ?? 0
        let hours = duration >= 3600
        switch name {
        case "elapsed":
            var t = max(0, time.isFinite ? time : 0)
            if duration > 0 { t = min(t, duration) }
            Self.appendClock(Int(t.rounded(.down)), hours: hours, &out)
        case "remaining":
            guard duration > 0 else { return }
            Self.appendClock(Int(max(0, duration - max(0, time)).rounded(.up)), hours: hours, &out)
        case "duration":
            guard duration > 0 else { return }
            Self.appendClock(Int(duration.rounded()), hours: hours, &out)
        default:
            guard let value = song?.tags[name] else { return }
            for scalar in value.unicodeScalars {
                // Line breaks inside a tag would split the layout; they read as spaces.
                out.append(scalar == "\n" || scalar == "\r" ? 0x20 : scalar.value)
            }
        }
    }

    /// `seconds` as m:ss, or h:mm:ss when `hours` or from one hour on.
    static func appendClock(_ seconds: Int, hours: Bool, _ out: inout [UInt32]) {
        let s = min(max(0, seconds), 999 * 3600)
        func digits(_ v: Int, width: Int) {
            var divisor = 1
            for _ in 1..<max(1, width) { divisor *= 10 }
            while divisor * 10 <= v { divisor *= 10 }
            while divisor > 0 { out.append(0x30 + UInt32(v / divisor % 10)); divisor /= 10 }
        }
        if hours || s >= 3600 {
            digits(s / 3600, width: 1); out.append(0x3A); digits(s / 60 % 60, width: 2)
        } else {
            digits(s / 60, width: 1)
        }
        out.append(0x3A)
        digits(s % 60, width: 2)
    }
}
