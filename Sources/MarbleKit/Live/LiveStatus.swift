import Foundation
import MarbleCore
import MarbleMedia

/// The status row under the live picture: source (or "reconnecting"), preset, sensitivity, measured
/// fps, dropped frames, capture-to-picture latency, recording time, keys. Used on the sink thread only;
/// the text is rebuilt only when something shown changes (a few times a second).
final class LiveStatus {
    struct Content: Equatable {
        var connection = ""
        var preset = ""
        var sensitivity: Float = 1
        var fpsTenths = 0
        var dropped = 0
        var latencyMilliseconds = 0
        var recordingSeconds: Int?
        var idle = false
        /// The streams' state, e.g. "stream ok" or "stream reconnecting, 12 dropped" ("" without any).
        var streams = ""
    }

    /// One word for the streams' state and their dropped frames, for the status row.
    static func streamSummary(_ streams: [StreamStatus]) -> String {
        guard !streams.isEmpty else { return "" }
        let snapshots = streams.map(\.current)
        let dropped = snapshots.reduce(0) { $0 + $1.framesDropped }
        let down = snapshots.contains { if case .reconnecting = $0.state { true } else { false } }
        return "stream " + (down ? "reconnecting" : "ok") + (dropped > 0 ? " (\(dropped) dropped)" : "")
    }

    private var shown: Content?
    private(set) var bytes: [UInt8] = []
    private var content = Content()
    private var framesInWindow = 0
    private var windowStart: UInt64 = 0

    /// Counts a frame shown now (for the fps figure).
    func frameShown(at now: UInt64 = MonotonicClock.now()) {
        if windowStart == 0 { windowStart = now }
        framesInWindow += 1
        let elapsed = Double(now &- windowStart) / 1e9
        if elapsed >= 1 {
            content.fpsTenths = Int((Double(framesInWindow) / elapsed * 10).rounded())
            framesInWindow = 0
            windowStart = now
        }
    }

    func update(_ change: (inout Content) -> Void) {
        change(&content)
        guard content != shown else { return }
        shown = content
        var text = String(format: " live  %@  preset %@  sens %.2f  %d.%d fps  dropped %d  latency %d ms",
                          content.connection, content.preset, Double(content.sensitivity),
                          content.fpsTenths / 10, content.fpsTenths % 10, content.dropped, content.latencyMilliseconds)
        if content.idle { text += "  (idle)" }
        if let seconds = content.recordingSeconds { text += "  rec " + TimeFormat.clock(Double(seconds)) }
        if !content.streams.isEmpty { text += "  " + content.streams }
        text += "   [n/p] preset  [+/-] sens  [q] quit"
        bytes = Array(text.unicodeScalars.map { $0.isASCII ? UInt8($0.value) : UInt8(ascii: "?") })
    }
}
