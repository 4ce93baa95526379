import MarbleCore
import MarbleStudio

/// What a studio that stopped did with the renders it was running.
package struct StudioStopped: Sendable {
    /// Renders running or waiting at Ctrl-C: cancelled, their files removed.
    package var cancelledRenders = 0
}

#if Studio
import Hummingbird
import HummingbirdWebSocket
import Logging
import ServiceLifecycle
import Synchronization

/// The request context of every route: Hummingbird's, with the WebSocket upgrade.
typealias StudioContext = BasicWebSocketRequestContext

/// `marble studio`'s web server: Hummingbird on SwiftNIO, one router for the page, the API and the
/// sockets, behind ``StudioGuard``. The work is ``StudioState``'s (module MarbleStudio); this only
/// turns requests into its calls and its answers into responses.
package enum StudioServer {
    package static let isAvailable = true

    /// Serves until SIGINT or SIGTERM, then cancels the renders still running (their files removed).
    /// `announce` gets the page's URL once the server listens.
    /// - Throws: `.option` for a folder that is not one, `.output` when the address cannot be listened on.
    package static func run(_ configuration: StudioConfiguration,
                            announce: @escaping @Sendable (String) -> Void) async throws(MarbleError) -> StudioStopped {
        let studio = try StudioState(configuration)
        let router = Router(context: StudioContext.self)
        router.middlewares.add(StudioGuard(access: StudioAccess(configuration: configuration)))
        StudioPage(folder: configuration.pageFolder).add(to: router)
        StudioAPI(studio: studio).add(to: router)
        LibraryRoutes(studio: studio).add(to: router)
        PreviewSocket(studio: studio).add(to: router)
        EventsSocket(studio: studio).add(to: router)
        var logger = Logger(label: "marble-studio")
        logger.logLevel = .critical
        let stopper = StudioStopper(studio: studio)
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(webSocketRouter: router, configuration: .init(ws: .init(maxFrameSize: StudioLimits.maxBody, closeTimeout: .seconds(2)))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "marble"),
            onServerRunning: { _ in announce(configuration.url) },
            logger: logger)
        // The stopper comes last, so a stop reaches it first: it cancels the renders and closes the
        // sockets, and then the server's own graceful shutdown has no connection left to wait for.
        // The signals are watched by `StopSignals`, as every marble command watches them, not by the
        // group: dispatch's signal sources on Linux miss signals while other threads leave them unblocked
        // (seen here: a Ctrl-C during a render was lost).
        let group = ServiceGroup(services: [app, stopper], gracefulShutdownSignals: [], logger: logger)
        let watch = StopSignals.watch { _ in Task { await group.triggerGracefulShutdown() } }
        defer { watch.stop() }
        do {
            try await group.run()
        } catch {
            throw MarbleError(.output, "cannot listen on \(configuration.host):\(configuration.port): \(String(describing: error).prefix(200))")
        }
        return StudioStopped(cancelledRenders: stopper.cancelled.withLock { $0 })
    }
}
/// Waits for the signal to stop, then stops what the studio runs (``StudioState/shutdown()``).
final class StudioStopper: Service {
    let studio: StudioState
    /// Renders that were running or waiting when it stopped.
    let cancelled = Mutex(0)

    init(studio: StudioState) { self.studio = studio }

    func run() async throws {
        try? await gracefulShutdown()
        let count = await studio.shutdown()
        cancelled.withLock { $0 = count }
    }
}
#else
/// The studio's web server: this build was made without the `Studio` trait.
package enum StudioServer {
    package static let isAvailable = false

    package static func run(_ configuration: StudioConfiguration,
                            announce: @escaping @Sendable (String) -> Void) async throws(MarbleError) -> StudioStopped {
        throw MarbleError(.option, "this marble was built without the studio (the `Studio` trait)")
    }
}
#endif
