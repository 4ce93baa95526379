import Synchronization

/// The one state store of a ``GraniteCenter``: the serial executor its events are reduced on.
///
/// Semantics:
/// - **Serial.** Every reduction runs under the store's lock, one at a time, on the sending thread.
///   `send` is synchronous: when it returns, the event has been reduced (unless the store is still
///   loading its persisted state, see below). Sends from many tasks at once are never lost.
/// - **Effects after the commit.** A reduction's ``GraniteEffect`` starts after the lock is
///   released. Events effects send are reduced against the state current when they arrive.
/// - **Cancellation.** Cancelling an id (``GraniteEffect/cancel(id:)``, ``cancel(id:)``, `stop()`)
///   cancels the tasks and marks them dead under the lock; an event they send later is dropped.
/// - **Notifications in commit order.** Subscribers are called one at a time, outside the lock,
///   with each state that differs from the previous one, in the order the commits happened.
///   A subscriber may call `send`; that commit is delivered after the current one.
/// - **Persistence.** With ``GranitePersistence`` the state is loaded (synchronously with
///   `preload`, else in the background; events sent meanwhile are queued and reduced, in order,
///   on the loaded state) and committed snapshots are written atomically, debounced by `autoSave`.
public final class GraniteStore<Center: GraniteCenter>: Sendable {
    /// The state the store holds.
    public typealias State = Center.State
    /// The events the store reduces.
    public typealias Event = Center.Event

    @usableFromInline let center: Center
    let clock: any GraniteClock
    let persistence: GranitePersistence<State>?
    /// `persistence?.autoSave`, read once: commits consult it on every event.
    @usableFromInline let autoSave: Bool
    /// Test stores divert effect-fed events here instead of reducing them at once.
    let interceptor: (@Sendable (Event) -> Void)?
    @usableFromInline let core: Mutex<Core>
    /// Serialises file writes; holds the commit count of the last snapshot written.
    let lastSaved = Mutex<UInt64>(0)

    struct Running {
        let id: GraniteEffectID?
        let task: Task<Void, Never>
    }

    @usableFromInline struct Note: Sendable {
        @usableFromInline let state: State
        /// `nil`: every subscriber; otherwise only this one (its first value, or a resume).
        @usableFromInline let target: Int?

        @usableFromInline init(state: State, target: Int?) {
            self.state = state
            self.target = target
        }
    }

    /// Everything the lock protects. (`@usableFromInline` parts are read by the inlinable hot path,
    /// so that other modules get `send` specialised for their own Center.)
    @usableFromInline struct Core {
        @usableFromInline var state: State
        /// Reductions committed so far (one per event, changed or not).
        @usableFromInline var commits: UInt64 = 0
        var isStarted = false
        @usableFromInline var isLoaded: Bool
        @usableFromInline var queuedWhileLoading: [Event] = []
        var loadWaiters: [CheckedContinuation<Void, Never>] = []

        var nextToken = 0
        var running: [Int: Running] = [:]

        var nextSubscriberID = 0
        @usableFromInline var subscribers: [Subscriber] = []
        @usableFromInline var outbox: [Note] = []
        /// An empty buffer with capacity, swapped with `outbox` when delivering (no allocation).
        @usableFromInline var spareOutbox: [Note] = []
        @usableFromInline var isDelivering = false

        var saveDeadline: Duration?
        var saveTask: Task<Void, Never>?
    }

    /// What one commit asks the caller to do once the lock is released.
    @usableFromInline struct Followup: Sendable {
        @usableFromInline var effect: GraniteEffect<Event>
        @usableFromInline var deliver: Bool
        @usableFromInline var save: Bool

        @usableFromInline init(effect: GraniteEffect<Event> = .none, deliver: Bool = false, save: Bool = false) {
            self.effect = effect
            self.deliver = deliver
            self.save = save
        }

        @inlinable var isEmpty: Bool { effect.isNone && !deliver && !save }
    }

    /// Creates a store holding `initialState` (or the persisted state, see ``GranitePersistence``).
    public convenience init(
        center: Center,
        initialState: State,
        persistence: GranitePersistence<State>? = nil,
        clock: any GraniteClock = GraniteSystemClock()
    ) {
        self.init(center: center, initialState: initialState, persistence: persistence, clock: clock,
                  interceptor: nil)
    }

    init(
        center: Center,
        initialState: State,
        persistence: GranitePersistence<State>?,
        clock: any GraniteClock,
        interceptor: (@Sendable (Event) -> Void)?
    ) {
        self.center = center
        self.clock = clock
        self.persistence = persistence
        self.autoSave = persistence?.autoSave ?? false
        self.interceptor = interceptor
        var state = initialState
        let loadNow = persistence?.preload ?? true
        if loadNow, let persistence, let loaded = persistence.load() { state = loaded }
        core = Mutex(Core(state: state, isLoaded: loadNow))
        if !loadNow { loadInBackground() }
    }

    /// Cancels what is still running (effects hold their store weakly, so dropping the last
    /// reference to a store ends its effects) and ends the subscribers' streams.
    deinit {
        let (leftovers, subscribers) = core.withLock { core -> ([Task<Void, Never>], [Subscriber]) in
            var tasks = core.running.values.map(\.task)
            if let save = core.saveTask { tasks.append(save) }
            return (tasks, core.subscribers)
        }
        for task in leftovers { task.cancel() }
        for subscriber in subscribers { subscriber.onEnd?() }
    }

    // MARK: Reading

    /// A snapshot of the current state: one lock hold and a copy (reference-counted storage).
    /// This is what the frame loop reads; it never goes through reducers.
    @inlinable public var state: State { core.withLock { $0.state } }

    /// Reads part of the state under the lock without copying the rest.
    public func withState<T: Sendable>(_ body: (State) -> T) -> T {
        core.withLock { core in body(core.state) }
    }

    /// The number of events reduced so far. Cheap change detection for pollers.
    public var commitCount: UInt64 { core.withLock { $0.commits } }

    // MARK: Sending

    /// Reduces `event` now, on the calling thread, under the store's lock; then starts the effects
    /// the reduction returned and delivers notifications. Before a background load has finished the
    /// event is queued instead, and reduced on the loaded state.
    @inlinable public func send(_ event: Event) {
        let followup = core.withLock { core -> Followup in
            guard core.isLoaded else {
                core.queuedWhileLoading.append(event)
                return Followup()
            }
            return commit(event, &core)
        }
        if !followup.isEmpty { perform(followup) }
    }

    /// An event sent by the effect with `token`: dropped if that effect was cancelled or finished.
    func send(_ event: Event, fromEffect token: Int) {
        let followup = core.withLock { core -> Followup in
            guard core.running[token] != nil else { return Followup() }
            if let interceptor {
                interceptor(event)
                return Followup()
            }
            guard core.isLoaded else {
                core.queuedWhileLoading.append(event)
                return Followup()
            }
            return commit(event, &core)
        }
        perform(followup)
    }

    /// Reduces one event under the lock. The hot path (no subscribers, no auto-save) neither copies
    /// nor compares the state and allocates nothing unless the reducer returns effects.
    @inlinable func commit(_ event: Event, _ core: inout Core) -> Followup {
        if core.subscribers.isEmpty && !autoSave {
            let effect = center.reduce(state: &core.state, event: event)
            core.commits &+= 1
            return Followup(effect: effect)
        }
        let before = core.state
        let effect = center.reduce(state: &core.state, event: event)
        core.commits &+= 1
        var followup = Followup(effect: effect)
        guard core.state != before else { return followup }
        if !core.subscribers.isEmpty {
            followup.deliver = enqueueNote(Note(state: core.state, target: nil), &core)
        }
        followup.save = autoSave
        return followup
    }

    @inlinable func perform(_ followup: Followup) {
        if !followup.effect.isNone { start(followup.effect) }
        if followup.deliver { deliverNotes() }
        if followup.save { scheduleSave() }
    }

    // MARK: Lifecycle

    /// Whether `start()` has been called (and `stop()` not since).
    public var isStarted: Bool { core.withLock { $0.isStarted } }

    /// Starts the store: reduces the Center's `onStart` events in order. Calling it again while
    /// started does nothing.
    public func start() {
        let wasStarted = core.withLock { core -> Bool in
            defer { core.isStarted = true }
            return core.isStarted
        }
        if wasStarted { return }
        for event in center.onStart { send(event) }
    }

    /// Stops the store: cancels every in-flight effect (their later events are dropped), reduces the
    /// Center's `onStop` events in order (their effects do run), then writes a pending auto-save.
    public func stop() {
        let wasStarted = core.withLock { core -> Bool in
            defer { core.isStarted = false }
            return core.isStarted
        }
        cancelAllEffects()
        if wasStarted { for event in center.onStop { send(event) } }
        flushSave()
    }
}
