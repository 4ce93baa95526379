/// A session's side effects, as a struct of closures: the run step passes the ones of the engine it
/// opened (the audio thread of a file, a playlist's feed, a capture), tests pass their own. Each
/// closure runs in the store's effect tasks, never under its lock.
public struct SessionClient: Sendable {
    /// Opens the media file at `path` for playing and returns its duration in seconds (0 if unknown).
    /// Throws an error whose description is a sentence a user understands.
    public var load: @Sendable (_ path: String) async throws -> Double
    /// Makes the playback engine follow the transport the store decided (pause, resume, seek).
    public var follow: @Sendable (_ transport: PlayerTransport) async -> Void
    /// Starts capturing; returns the source captured (nil while waiting for a server).
    /// Throws a `MarbleError` whose message is one sentence a user understands.
    public var connect: @Sendable () async throws -> String?
    /// Stops the input (a capture, a feed) when the session ends (idempotent).
    public var disconnect: @Sendable () async -> Void

    /// A client from its closures; those not given do nothing (`load` gives an unknown duration,
    /// `connect` no source).
    public init(load: @escaping @Sendable (_ path: String) async throws -> Double = { _ in 0 },
                follow: @escaping @Sendable (_ transport: PlayerTransport) async -> Void = { _ in },
                connect: @escaping @Sendable () async throws -> String? = { nil },
                disconnect: @escaping @Sendable () async -> Void = {}) {
        self.load = load
        self.follow = follow
        self.connect = connect
        self.disconnect = disconnect
    }
}

/// What the playback engine should be doing, as the store decided it: the engine applies a transport
/// only if its `version` is newer than the last one it applied, so effects that run out of order
/// never bring back an old state.
public struct PlayerTransport: Sendable, Equatable {
    /// A jump the engine must make before it resumes.
    public struct Seek: Sendable, Equatable {
        /// Where to go, in seconds from the start of the song.
        public var seconds: Double
        /// The clock generation this seek starts (``SessionComponent/State/seekGeneration``).
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
