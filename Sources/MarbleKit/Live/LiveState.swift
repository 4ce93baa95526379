import Granite

extension LiveComponent {
    /// The live session's control state: which source is asked for and which is captured, the
    /// connection, the look, and whether the session is still running.
    ///
    /// Control state only: audio buffers and frames never go through the store. The frame path reads
    /// ``LiveComponent/snapshot`` (preset, sensitivity) once per frame.
    public struct State: SessionControlState {
        /// The source asked for (`--source`), or nil for the monitor of the default sink.
        public var requestedSource: String?
        /// Where the capture stands: idle, connecting, capturing, reconnecting or failed.
        public var connection: Connection
        /// One of the available preset names.
        public var preset: String?
        /// Within ``Sensitivity/range``.
        public var sensitivity: Float
        /// The playlist's song playing now (its index), or nil (a capture, or before the first song).
        public var song: Int?
        /// True once the capture runs (connected, or waiting for a server with `--wait`).
        public var captureStarted: Bool
        /// Set once the session ends, with why.
        public var outcome: LiveOutcome?

        /// A state with the given values; `sensitivity` is clamped to ``Sensitivity/range`` (not-a-number gives the default).
        public init(requestedSource: String? = nil, connection: Connection = .idle, preset: String? = nil,
                    sensitivity: Float = Sensitivity.default, captureStarted: Bool = false, outcome: LiveOutcome? = nil) {
            self.requestedSource = requestedSource
            self.connection = connection
            self.preset = preset
            self.sensitivity = Sensitivity.clamped(sensitivity)
            self.captureStarted = captureStarted
            self.outcome = outcome
        }

        /// Whether the session still runs (no outcome yet).
        public var isRunning: Bool { outcome == nil }

        /// The user ended the session (the first outcome stays).
        public mutating func end(by reason: SessionEnd) {
            if isRunning { outcome = reason == .quit ? .quit : .interrupted }
        }
    }

    /// Where the capture stands.
    public enum Connection: Codable, Equatable, Sendable {
        /// The session has not started connecting yet.
        case idle
        /// Connecting, or waiting for a server to appear (`--wait`).
        case connecting
        /// Capturing from the named source (or playing the named song of a playlist).
        case capturing(source: String)
        /// The server went away; capture resumes by itself when it is back. The picture goes on (silence).
        case reconnecting(reason: String)
        /// The capture could not start: the error's kind (`MarbleError/Kind`) and message.
        case failed(kind: String, message: String)

        /// The words the status line shows.
        public var summary: String {
            switch self {
            case .idle: "idle"
            case .connecting: "connecting"
            case .capturing(let source): source
            case .reconnecting: "reconnecting"
            case .failed: "failed"
            }
        }
    }
}

/// How a live session ended.
public enum LiveOutcome: String, Codable, Sendable, Equatable {
    /// The user pressed q.
    case quit
    /// Ctrl-C or a termination signal.
    case interrupted
    /// `--duration` was reached, or the playlist played to its end.
    case durationReached
    /// The capture could not start.
    case failed
}
