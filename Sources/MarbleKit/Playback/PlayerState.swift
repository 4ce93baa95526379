import Granite

extension PlayerComponent {
    /// The player's control state: what is loaded, where the transport is, how it looks.
    ///
    /// This is control state only. The frame loop reads a snapshot of it (``PlayerComponent/snapshot``)
    /// once per frame; render ticks and audio buffers never go through reducers.
    public struct State: SessionControlState {
        /// The opened file's path, or `nil` before any `fileOpened`.
        public var source: String?
        /// Where the transport is: idle, loading, playing, paused, ended or failed.
        public var status: TransportStatus
        /// Seconds from the start, within `0 ... duration` once the duration is known.
        public var position: Double
        /// Seconds; 0 while unknown (before `loadFinished`, or for media without a duration).
        public var duration: Double
        /// One of the available preset names, or `nil` when none are available.
        public var preset: String?
        /// Within ``Sensitivity/range``.
        public var sensitivity: Float
        /// The generation of the last seek (the playback clock describes it once its own generation
        /// matches: positions from before the seek are never reported).
        public var seekGeneration: Int
        /// Increases with every transport change the store asks the engine for (see ``PlayerTransport``).
        public var transportVersion: Int
        /// Whether the session goes on at the end of the media (`--keep-open`); if not, reaching the end
        /// ends it (outcome ``PlayOutcome/ended``).
        public var keepOpen: Bool
        /// Set when the session ends: the user (q, Ctrl-C) or, without `keepOpen`, the end of the media.
        public var outcome: PlayOutcome?

        /// A state with the given values; `sensitivity` is clamped to ``Sensitivity/range``.
        public init(
            source: String? = nil, status: TransportStatus = .idle, position: Double = 0,
            duration: Double = 0, preset: String? = nil, sensitivity: Float = Sensitivity.default,
            seekGeneration: Int = 0, transportVersion: Int = 0, keepOpen: Bool = true, outcome: PlayOutcome? = nil
        ) {
            self.source = source
            self.status = status
            self.position = position
            self.duration = duration
            self.preset = preset
            self.sensitivity = Sensitivity.clamped(sensitivity)
            self.seekGeneration = seekGeneration
            self.transportVersion = transportVersion
            self.keepOpen = keepOpen
            self.outcome = outcome
        }

        /// The user ended the session (the first outcome stays).
        public mutating func end(by reason: SessionEnd) {
            if outcome == nil { outcome = reason == .quit ? .quit : .interrupted }
        }

        /// The settings part of the state (what ``PlayerSettings`` persists).
        public var settings: PlayerSettings {
            PlayerSettings(preset: preset, sensitivity: sensitivity)
        }
    }
}
