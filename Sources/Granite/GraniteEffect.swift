/// Work a reducer asks its store to do after the commit: async operations whose results come
/// back as events, cancellations, timers.
///
/// An effect is a plain value; nothing runs until the store starts it. Items start in order.
/// `.none` is an empty array, so returning it costs no allocation on the hot path.
public struct GraniteEffect<Event: Sendable>: Sendable {
    typealias Operation = @Sendable (GraniteSend<Event>) async throws -> Void
    typealias ErrorHandler = @Sendable (any Error, GraniteSend<Event>) async -> Void

    @usableFromInline struct Run: Sendable {
        var id: GraniteEffectID?
        var cancelInFlight: Bool
        var operation: Operation
        var onError: ErrorHandler?
    }

    @usableFromInline enum Item: Sendable {
        case run(Run)
        case cancel(GraniteEffectID)
    }

    @usableFromInline var items: [Item]

    @usableFromInline init(items: [Item]) { self.items = items }

    /// No work.
    @inlinable public static var none: GraniteEffect { GraniteEffect(items: []) }

    /// Whether the effect has no work at all (``none``).
    @inlinable public var isNone: Bool { items.isEmpty }

    /// Runs `operation` in a new task. With an `id` the effect can be cancelled; with
    /// `cancelInFlight` it first cancels the effects already running under that id ("latest wins").
    /// Errors other than cancellation go to `catch` (which may send an event), or are reported on
    /// standard error when there is no handler.
    public static func run(
        id: GraniteEffectID? = nil,
        cancelInFlight: Bool = false,
        operation: @escaping @Sendable (GraniteSend<Event>) async throws -> Void,
        catch handler: (@Sendable (any Error, GraniteSend<Event>) async -> Void)? = nil
    ) -> GraniteEffect {
        GraniteEffect(items: [
            .run(Run(id: id, cancelInFlight: cancelInFlight, operation: operation, onError: handler))
        ])
    }

    /// Sends `event` back to the store from a new task (after this commit completes).
    public static func send(_ event: Event) -> GraniteEffect {
        run { send in send(event) }
    }

    /// Cancels every in-flight effect started under `id`.
    /// Events those effects send afterwards are dropped.
    public static func cancel(id: GraniteEffectID) -> GraniteEffect {
        GraniteEffect(items: [.cancel(id)])
    }

    /// Sends `event` every `interval` on the store clock, first at start + interval, until cancelled
    /// by `id`. Deadlines are absolute (start + k·interval), so the timer does not drift.
    public static func timer(id: GraniteEffectID, every interval: Duration, event: Event) -> GraniteEffect {
        run(id: id, cancelInFlight: true) { send in
            var deadline = send.startTime
            while true {
                deadline += interval
                try await send.sleep(until: deadline)
                send(event)
            }
        }
    }

    /// All items of all effects, in order.
    public static func merge(_ effects: GraniteEffect...) -> GraniteEffect {
        GraniteEffect(items: effects.flatMap(\.items))
    }

    /// Appends `other`'s items after this effect's.
    public mutating func merge(_ other: GraniteEffect) {
        if other.items.isEmpty { return }
        if items.isEmpty { items = other.items } else { items.append(contentsOf: other.items) }
    }
}
