import Synchronization

/// A Center with one shared store per type (Granite's services): every ``GraniteRelay`` of the
/// type, anywhere in the program, reads and changes the same state and hears every change.
public protocol GraniteService: GraniteCenter {
    init()
    /// The state the shared store starts from (before any persisted state is loaded).
    static var initialState: State { get }
    /// Persistence for the shared store; `nil` (the default) keeps it in memory.
    static var persistence: GranitePersistence<State>? { get }
}

extension GraniteService {
    public static var persistence: GranitePersistence<State>? { nil }
}

/// Holds the one store of each service type. The shared registry serves the program; tests make
/// their own so that they do not share state.
public final class GraniteServiceRegistry: Sendable {
    public static let shared = GraniteServiceRegistry()

    private let stores = Mutex<[ObjectIdentifier: any Sendable]>([:])
    private let clock: any GraniteClock

    public init(clock: any GraniteClock = GraniteSystemClock()) {
        self.clock = clock
    }

    /// The store of `service`, created (and started) on first use.
    public func store<S: GraniteService>(for service: S.Type) -> GraniteStore<S> {
        let key = ObjectIdentifier(service)
        let (store, created) = stores.withLock { stores -> (GraniteStore<S>, Bool) in
            if let existing = stores[key] as? GraniteStore<S> { return (existing, false) }
            let store = GraniteStore(
                center: S(), initialState: S.initialState, persistence: S.persistence, clock: clock)
            stores[key] = store
            return (store, true)
        }
        if created { store.start() }
        return store
    }

    /// Stops and forgets every store (their next use creates fresh ones).
    public func removeAll() {
        let all = stores.withLock { stores -> [any Sendable] in
            defer { stores.removeAll() }
            return Array(stores.values)
        }
        for store in all { (store as? any GraniteStopping)?.stop() }
    }
}

/// Lets the registry stop stores of any service type.
protocol GraniteStopping { func stop() }
extension GraniteStore: GraniteStopping {}

/// A holder of a service (Granite's `@Relay`): reads and sends to the shared store, and receives
/// its changes while not paused.
///
/// A paused relay is skipped by notifications; on `resume()` it receives the latest state once if
/// anything changed meanwhile. Reading ``state`` always gives the live state.
public final class GraniteRelay<Service: GraniteService>: Sendable {
    public let store: GraniteStore<Service>
    private let subscription: GraniteSubscription

    /// The changes of the service, in commit order, starting with the current state. Read it from one
    /// task; a relay has one stream, which keeps the newest 64 unread states if its reader lags.
    public let changes: AsyncStream<Service.State>

    /// - Parameters:
    ///   - onChange: called with every change delivered to this holder, one call at a time in commit
    ///     order, on the thread that delivers (often the sender's); keep it short. Optional:
    ///     `changes` carries the same values.
    public init(
        _ service: Service.Type = Service.self,
        registry: GraniteServiceRegistry = .shared,
        onChange: (@Sendable (Service.State) -> Void)? = nil
    ) {
        store = registry.store(for: service)
        let (stream, continuation) = AsyncStream.makeStream(
            of: Service.State.self, bufferingPolicy: .bufferingNewest(64))
        changes = stream
        subscription = store.subscribe { state in
            onChange?(state)
            continuation.yield(state)
        }
    }

    deinit { subscription.cancel() }

    public var state: Service.State { store.state }
    public func send(_ event: Service.Event) { store.send(event) }

    public var isPaused: Bool { subscription.isPaused }
    public func pause() { subscription.pause() }
    public func resume() { subscription.resume() }
}

/// Granite's name for a service holder.
public typealias Relay<Service: GraniteService> = GraniteRelay<Service>
