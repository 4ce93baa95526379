import MarbleMedia

/// The live session's side effects, as a struct of closures: the live value drives an
/// `AudioCapture`; tests pass their own.
public struct LiveClient: Sendable {
    /// Starts capturing; returns the source captured (nil while waiting for a server).
    /// Throws a `MarbleError` whose message is one sentence a user understands.
    public var connect: @Sendable () async throws -> String?
    /// Stops capturing (idempotent).
    public var disconnect: @Sendable () async -> Void

    /// A client from its two closures (tests pass fakes; ``capturing(_:)`` wraps a real capture).
    public init(connect: @escaping @Sendable () async throws -> String?,
                disconnect: @escaping @Sendable () async -> Void) {
        self.connect = connect
        self.disconnect = disconnect
    }

    /// The client of a real capture.
    public static func capturing(_ capture: AudioCapture) -> LiveClient {
        LiveClient(connect: {
            try capture.start()
            return capture.sourceName
        }, disconnect: {
            capture.stop()
        })
    }
}
