/// The player's dependencies, as a struct of closures: `marble play` passes one backed by its
/// ``PlayerSession`` (the duration it read when it opened the file, its audio thread for the
/// transport), tests pass their own.
public struct PlayerClient: Sendable {
    /// Opens the media file at `path` and returns its duration in seconds (0 if unknown).
    /// Throws an error whose description is a sentence a user understands.
    public var load: @Sendable (_ path: String) async throws -> Double
    /// Makes the playback engine follow the transport the store decided (pause, resume, seek).
    public var follow: @Sendable (_ transport: PlayerTransport) async -> Void

    /// A client from its closures; `follow` defaults to doing nothing (a player with no engine behind it).
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
    /// A jump the engine must make before it resumes.
    public struct Seek: Sendable, Equatable {
        /// Where to go, in seconds from the start of the media.
        public var seconds: Double
        /// The clock generation this seek starts (``PlayerComponent/State/seekGeneration``).
        public var generation: Int

        /// A seek to `seconds` that starts clock generation `generation`.
        public init(seconds: Double, generation: Int) {
            self.seconds = seconds
            self.generation = generation
        }
    }
    /// Increases with every transport the store decides; an engine ignores a version it has already passed.
    public var version: Int
    /// Whether the sound should be paused.
    public var paused: Bool
    /// A seek to make first, or nil to go on from where the engine is.
    public var seek: Seek?

    /// A transport with the given version, pause state and optional seek.
    public init(version: Int, paused: Bool, seek: Seek?) {
        self.version = version
        self.paused = paused
        self.seek = seek
    }
}
