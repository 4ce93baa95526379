/// One named, synchronous state transition of a ``GraniteCenter``.
///
/// Chaining: `before` events are reduced first, then this reducer, then `after` events, all inside
/// the same commit (one lock hold, one notification). The order is depth-first: each chained event
/// is reduced through ``GraniteCenter/reduce(state:event:)`` and may itself fire reducers with
/// their own chains, which complete before the next step. Effects are merged in the same order.
/// A chain that reaches its own event again recurses forever: keep chains acyclic.
///
/// ```swift
/// struct Increment: GraniteReducer {
///     typealias Center = Counter
///     var after: [Counter.Event] { [.clampRequested] }
///     func reduce(state: inout Counter.State) -> GraniteEffect<Counter.Event> {
///         state.count += 1
///         return .none
///     }
/// }
/// ```
public protocol GraniteReducer: Sendable {
    /// The center whose state this reducer changes.
    associatedtype Center: GraniteCenter

    /// Events reduced before this reducer, in order, within the same commit.
    var before: [Center.Event] { get }
    /// Events reduced after this reducer, in order, within the same commit.
    var after: [Center.Event] { get }

    /// Changes the state; returns the effects to start after the commit. Synchronous, never awaits.
    func reduce(state: inout Center.State) -> GraniteEffect<Center.Event>
}

extension GraniteReducer {
    public var before: [Center.Event] { [] }
    public var after: [Center.Event] { [] }
}

/// A ``GraniteReducer`` that takes a typed payload (Granite's `@Payload`), with the same
/// before → self → after chaining. The chains may depend on the payload.
public protocol GranitePayloadReducer: Sendable {
    /// The center whose state this reducer changes.
    associatedtype Center: GraniteCenter
    /// The value the reducer takes, e.g. a file path or a seek offset.
    associatedtype Payload: Sendable

    /// Events reduced before this reducer, in order, within the same commit.
    func before(_ payload: Payload) -> [Center.Event]
    /// Events reduced after this reducer, in order, within the same commit.
    func after(_ payload: Payload) -> [Center.Event]

    /// Changes the state using `payload`; returns the effects to start after the commit. Synchronous, never awaits.
    func reduce(state: inout Center.State, payload: Payload) -> GraniteEffect<Center.Event>
}

extension GranitePayloadReducer {
    /// No events before (the default).
    public func before(_ payload: Payload) -> [Center.Event] { [] }
    /// No events after (the default).
    public func after(_ payload: Payload) -> [Center.Event] { [] }
}

extension GraniteCenter {
    /// Runs `reducer` with its chain: `before` events, the reducer, `after` events (see
    /// ``GraniteReducer``). Call it from ``reduce(state:event:)``.
    public func fire<R: GraniteReducer>(_ reducer: R, on state: inout State) -> GraniteEffect<Event>
    where R.Center == Self {
        var effect = GraniteEffect<Event>.none
        for event in reducer.before { effect.merge(reduce(state: &state, event: event)) }
        effect.merge(reducer.reduce(state: &state))
        for event in reducer.after { effect.merge(reduce(state: &state, event: event)) }
        return effect
    }

    /// Runs a payload reducer with its chain: `before(payload)`, the reducer, `after(payload)`.
    public func fire<R: GranitePayloadReducer>(
        _ reducer: R, payload: R.Payload, on state: inout State
    ) -> GraniteEffect<Event> where R.Center == Self {
        var effect = GraniteEffect<Event>.none
        for event in reducer.before(payload) { effect.merge(reduce(state: &state, event: event)) }
        effect.merge(reducer.reduce(state: &state, payload: payload))
        for event in reducer.after(payload) { effect.merge(reduce(state: &state, event: event)) }
        return effect
    }
}
