/// Declares a state, the events that can happen to it, and how each event changes it.
///
/// `reduce(state:event:)` is synchronous and runs on the store's serial executor (under its lock):
/// it must not block, sleep or await. Work that takes time is returned as a ``GraniteEffect``; its
/// results come back as new events, reduced against the state current when they arrive.
///
/// Event names say what happened (`fileOpened`, `playPauseToggled`), not what to do.
///
/// ```swift
/// struct Counter: GraniteCenter {
///     struct State: GraniteState { var count = 0 }
///     enum Event: Equatable, Sendable { case incremented }
///     func reduce(state: inout State, event: Event) -> GraniteEffect<Event> {
///         switch event {
///         case .incremented: return fire(Increment(), on: &state)
///         }
///     }
/// }
/// ```
public protocol GraniteCenter: Sendable {
    /// The one value this center's store holds.
    associatedtype State: GraniteState
    /// What can happen to the state; usually an enum whose cases are named after facts.
    associatedtype Event: Sendable

    /// Applies one event to the state and returns the effects to start. Synchronous, never awaits.
    func reduce(state: inout State, event: Event) -> GraniteEffect<Event>

    /// Lifecycle: events reduced, in this order, when the store starts (``GraniteStore/start()``).
    var onStart: [Event] { get }

    /// Lifecycle: events reduced, in this order, when the store stops (``GraniteStore/stop()``),
    /// after its in-flight effects were cancelled.
    var onStop: [Event] { get }
}

extension GraniteCenter {
    public var onStart: [Event] { [] }
    public var onStop: [Event] { [] }
}
