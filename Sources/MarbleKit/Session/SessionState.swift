import Foundation
import Granite
import MarblePipeline

extension SessionComponent {
    /// A real-time session's control state: the look and the end every session shares, then its input's
    /// part, the transport of its songs (a file, a playlist) or the connection of a capture.
    ///
    /// Control state only: audio buffers and frames never go through the store. The frame path reads
    /// ``SessionComponent/snapshot`` once per frame.
    public struct State: SessionControlState {
        // MARK: Shared (``SessionControlsReducer``)

        /// One of the available preset names, or nil when none are available.
        public var preset: String?
        /// Within ``Sensitivity/range``.
        public var sensitivity: Float
        /// Set once the session ends, with why; the first outcome stays.
        public var outcome: SessionOutcome?
        /// What changed in the look while playing: parameters (OSC), the preset's file saved, cues.
        public var look = LookChanges()

        // MARK: The songs' transport (a file, a playlist)

        /// The songs to play, in order (empty for a capture).
        public var songs: [String]
        /// Whether the songs start again from the first after the last.
        public var loop: Bool
        /// Whether the session goes on at the end of the last song (`--keep-open`; space plays again).
        public var keepOpen: Bool
        /// The index in ``songs`` of the song loaded or playing, or nil (a capture, a file outside the list).
        public var song: Int?
        /// The title of the song playing (its file name without the extension), or nil.
        public var title: String?
        /// The path of the file loaded last (`load`), or nil.
        public var source: String?
        /// Where the transport is: idle, loading, playing, paused, ended or failed.
        public var status: TransportStatus
        /// Seconds from the start of the song, within `0 ... duration` once the duration is known.
        public var position: Double
        /// The song's length in seconds; 0 while unknown.
        public var duration: Double
        /// The generation of the last seek (the playback clock describes it once its own generation
        /// matches: positions from before the seek are never reported).
        public var seekGeneration: Int
        /// Increases with every transport change the store asks the engine for (see ``PlayerTransport``).
        public var transportVersion: Int
        /// Songs of the list that could not be loaded and were skipped, one line each (at most 100).
        public var skipped: [String]

        // MARK: The capture's connection

        /// The source asked for (`--source`), or nil for the monitor of the default sink.
        public var requestedSource: String?
        /// Where the capture stands: idle, connecting, capturing, reconnecting or failed.
        public var connection: Connection
        /// True once the capture runs (connected, or waiting for a server with `--wait`).
        public var captureStarted: Bool

        /// A state with the given values; `sensitivity` is clamped to ``Sensitivity/range`` (not-a-number
        /// gives the default).
        public init(preset: String? = nil, sensitivity: Float = Sensitivity.default, songs: [String] = [],
                    loop: Bool = false, keepOpen: Bool = false, requestedSource: String? = nil) {
            self.preset = preset
            self.sensitivity = Sensitivity.clamped(sensitivity)
            self.songs = songs
            self.loop = loop
            self.keepOpen = keepOpen
            status = .idle
            position = 0
            duration = 0
            seekGeneration = 0
            transportVersion = 0
            skipped = []
            self.requestedSource = requestedSource
            connection = .idle
            captureStarted = false
        }

        /// Whether the session still runs (no outcome yet).
        public var isRunning: Bool { outcome == nil }

        /// Whether the input is a capture (no songs: a connection instead of a transport).
        public var capturing: Bool { songs.isEmpty }

        /// The user ended the session (the first outcome stays).
        public mutating func end(by reason: SessionEnd) {
            if isRunning { outcome = reason == .quit ? .quit : .interrupted }
        }

        /// The settings part of the state (what ``PlayerSettings`` persists).
        public var settings: PlayerSettings { PlayerSettings(preset: preset, sensitivity: sensitivity) }

        /// What the status line calls the look: `fixed` (a scene of the caller's own) or the preset, and
        /// the error of its file's last save while that keeps the last good look.
        package func presetLabel(fixed: String?) -> String {
            let name = fixed ?? preset ?? "-"
            guard let error = look.fileError else { return name }
            return name + " [not reloaded: " + error + "]"
        }

        /// What the renderer draws now (read once per frame).
        package var sceneChoice: SceneChoice { look.choice(preset: preset) }

        /// What the status row names: the song playing, else the capture's connection.
        public var heard: String { title ?? connection.summary }
    }

    /// Where a capture stands.
    public enum Connection: Codable, Equatable, Sendable {
        /// The session has not started connecting yet.
        case idle
        /// Connecting, or waiting for a server to appear (`--wait`).
        case connecting
        /// Capturing from the named source.
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

    /// What a song is called in status lines: its file name without the extension.
    public static func title(of path: String) -> String {
        URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    }
}

/// How a real-time session ended.
public enum SessionOutcome: String, Codable, Sendable, Equatable {
    /// The user pressed q (or closed the window).
    case quit
    /// Ctrl-C or a termination signal.
    case interrupted
    /// The media played to its end (the last song, without `--loop` or `--keep-open`).
    case ended
    /// `--duration` was reached.
    case durationReached
    /// The input could not start: the capture failed to connect, or the file to load.
    case failed
}
