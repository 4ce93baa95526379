/// Something that owns one store and has a lifecycle: `start()` fires the Center's `onStart`
/// events, `stop()` cancels its effects and fires `onStop` (Granite's appear/disappear, without UI).
///
/// ```swift
/// struct Counter: GraniteComponent {
///     let store = GraniteStore(center: Center(), initialState: .init())
/// }
/// ```
public protocol GraniteComponent: Sendable {
    associatedtype Center: GraniteCenter
    var store: GraniteStore<Center> { get }
}

extension GraniteComponent {
    /// A snapshot of the current state (see ``GraniteStore/state``).
    public var state: Center.State { store.state }

    /// Reduces `event` (see ``GraniteStore/send(_:)``).
    public func send(_ event: Center.Event) { store.send(event) }

    public func start() { store.start() }
    public func stop() { store.stop() }
}
