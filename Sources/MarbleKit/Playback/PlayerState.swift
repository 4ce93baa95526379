import Granite

extension PlayerComponent {
    /// The player's control state: what is loaded, where the transport is, how it looks.
    ///
    /// This is control state only. The frame loop reads a snapshot of it (``PlayerComponent/snapshot``)
    /// once per frame; render ticks and audio buffers never go through reducers.
    public struct State: GraniteState {
        /// The opened file's path, or `nil` before any `fileOpened`.
        public var source: String?
        public var status: TransportStatus
        /// Seconds from the start, within `0 ... duration` once the duration is known.
        public var position: Double
        /// Seconds; 0 while unknown (before `loadFinished`, or for media without a duration).
        public var duration: Double
        /// One of the available preset names, or `nil` when none are available.
        public var preset: String?
        /// Within ``Sensitivity/range``.
        public var sensitivity: Float

        public init(
            source: String? = nil, status: TransportStatus = .idle, position: Double = 0,
            duration: Double = 0, preset: String? = nil, sensitivity: Float = Sensitivity.default
        ) {
            self.source = source
            self.status = status
            self.position = position
            self.duration = duration
            self.preset = preset
            self.sensitivity = Sensitivity.clamped(sensitivity)
        }

        /// The settings part of the state (what ``PlayerSettings`` persists).
        public var settings: PlayerSettings {
            PlayerSettings(preset: preset, sensitivity: sensitivity)
        }
    }
}
