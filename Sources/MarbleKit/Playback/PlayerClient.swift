/// The player's dependencies, as a struct of closures: `marble play` passes one backed by its
/// ``PlayerSession`` (the duration it read when it opened the file, its audio thread for the
/// transport), tests pass their own.
public struct PlayerClient: Sendable {
    /// Opens the media file at `path` and returns its duration in seconds (0 if unknown).
    /// Throws an error whose description is a sentence a user understands.
    public var load: @Sendable (_ path: String) async throws -> Double
    /// Makes the playback engine follow the transport the store decided (pause, resume, seek).
    public var follow: @Sendable (_ transport: PlayerTransport) async -> Void

    public init(load: @escaping @Sendable (_ path: String) async throws -> Double,
                follow: @escaping @Sendable (_ transport: PlayerTransport) async -> Void = { _ in }) {
        self.load = load
        self.follow = follow
    }
}

/// What the playback engine should be doing, as the store decided it: the engine applies a transport
/// only if its `version` is newer than the last one it applied, so effects that run out of order
/// never bring back an old state.
public struct PlayerTransport: Sendable, Equatable {
    public struct Seek: Sendable, Equatable {
        public var seconds: Double
        /// The clock generation this seek starts (``PlayerComponent/State/seekGeneration``).
        public var generation: Int

        public init(seconds: Double, generation: Int) {
            self.seconds = seconds
            self.generation = generation
        }
    }
    public var version: Int
    public var paused: Bool
    public var seek: Seek?

    public init(version: Int, paused: Bool, seek: Seek?) {
        self.version = version
        self.paused = paused
        self.seek = seek
    }
}
