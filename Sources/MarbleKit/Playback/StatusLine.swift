import Foundation

/// The status row under the picture: transport, position/duration, preset, sensitivity, measured fps,
/// dropped frames and the keys. The text (ASCII, so bytes = cells) is rebuilt only when something
/// shown changes, at most a few times a second in steady playback.
struct StatusLine {
    struct Content: Equatable {
        var status: TransportStatus = .idle
        var second = 0
        var duration = 0
        var preset = ""
        var sensitivity: Float = 1
        var fpsTenths = 0
        var dropped = 0
    }

    private var shown: Content?
    private(set) var bytes: [UInt8] = []

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
        let text = String(format: " %@  %@ / %@  preset %@  sens %.2f  %d.%d fps  dropped %d   [space] pause  [<-/->] seek  [n/p] preset  [+/-] sens  [q] quit",
                          state, Self.clock(content.second), Self.clock(content.duration), content.preset,
                          Double(content.sensitivity), content.fpsTenths / 10, content.fpsTenths % 10, content.dropped)
        bytes = Array(text.unicodeScalars.map { $0.isASCII ? UInt8($0.value) : UInt8(ascii: "?") })
    }

    static func clock(_ seconds: Int) -> String {
        let s = max(0, seconds)
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
