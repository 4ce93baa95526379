/// Something that owns one store and has a lifecycle: `start()` fires the Center's `onStart`
/// events, `stop()` cancels its effects and fires `onStop` (Granite's appear/disappear, without UI).
///
/// ```swift
/// struct Counter: GraniteComponent {
///     let store = GraniteStore(center: Center(), initialState: .init())
/// }
/// ```
public protocol GraniteComponent: Sendable {
    /// The center whose state and events the component's store holds.
    associatedtype Center: GraniteCenter
    /// The component's one store; create it in the component's initialiser.
    var store: GraniteStore<Center> { get }
}

extension GraniteComponent {
    /// A snapshot of the current state (see ``GraniteStore/state``).
    public var state: Center.State { store.state }

    /// Reduces `event` (see ``GraniteStore/send(_:)``).
    public func send(_ event: Center.Event) { store.send(event) }

    /// Starts the store: reduces the center's `onStart` events (see ``GraniteStore/start()``).
    public func start() { store.start() }
    /// Stops the store: cancels its effects, then reduces the center's `onStop` events (see ``GraniteStore/stop()``).
    public func stop() { store.stop() }
}
