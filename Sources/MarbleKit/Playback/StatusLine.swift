import Foundation
import MarbleCore

/// The status row under the picture: transport, position/duration, preset, sensitivity, measured fps,
/// dropped frames and the keys. The text (ASCII, so bytes = cells) is rebuilt only when something
/// shown changes, at most a few times a second in steady playback.
struct StatusLine {
    struct Content: Equatable {
        var status: TransportStatus = .idle
        /// The song playing, in a playlist ("" for a single file).
        var title = ""
        var second = 0
        var duration = 0
        var preset = ""
        var sensitivity: Float = 1
        var fpsTenths = 0
        var dropped = 0
    }

    private var shown: Content?
    private(set) var bytes: [UInt8] = []
    /// Measured frames per second (tenths) and dropped frames, from the pipeline's progress reports.
    private(set) var fpsTenths = 0
    private(set) var dropped = 0
    private var window = (frames: 0, seconds: 0.0)

    /// Takes a progress report (frames drawn, dropped, wall seconds since the start).
    mutating func measured(frames: Int, dropped: Int, wallSeconds: Double) {
        self.dropped = dropped
        let elapsed = wallSeconds - window.seconds
        guard elapsed >= 1 else { return }
        fpsTenths = Int((Double(frames - window.frames) / elapsed * 10).rounded())
        window = (frames, wallSeconds)
    }

    mutating func update(_ content: Content) {
        guard content != shown else { return }
        shown = content
        let state: String
        switch content.status {
        case .playing: state = "playing"
        case .paused: state = "paused"
        case .ended: state = "ended"
        case .loading: state = "loading"
        case .idle: state = "idle"
        case .failed: state = "failed"
        }
        let song = content.title.isEmpty ? "" : content.title + "  "
        let text = String(format: " %@  %@%@ / %@  preset %@  sens %.2f  %d.%d fps  dropped %d   [space] pause  [<-/->] seek  [n/p] preset  [+/-] sens  [q] quit",
                          state, song, TimeFormat.clock(Double(max(0, content.second))), TimeFormat.clock(Double(max(0, content.duration))), content.preset,
                          Double(content.sensitivity), content.fpsTenths / 10, content.fpsTenths % 10, content.dropped)
        bytes = Array(text.unicodeScalars.map { $0.isASCII ? UInt8($0.value) : UInt8(ascii: "?") })
    }
}
