/// What an effect gets to talk back to its store: call it with an event to have that event reduced
/// against the store's current state.
///
/// Events sent after the effect was cancelled (or after it returned) are dropped.
public struct GraniteSend<Event: Sendable>: Sendable {
    let deliver: @Sendable (Event) -> Void

    /// The store's clock: sleep on it (not on `Task.sleep`) so that tests can drive time.
    public let clock: any GraniteClock

    /// The clock's time when the store started this effect, read synchronously in `send`. Sleeping
    /// until `startTime + d` is deterministic under a ``GraniteTestClock``; `sleep(for:)` measures
    /// from whenever the effect's task happens to run.
    public let startTime: Duration

    /// Sends `event` to the store (`send(.loaded)`); it is reduced against the state current when it arrives. Dropped when the effect was cancelled or has returned.
    public func callAsFunction(_ event: Event) { deliver(event) }

    /// Sleeps until the store clock reaches `deadline`. Throws `CancellationError` when cancelled.
    public func sleep(until deadline: Duration) async throws {
        try await clock.sleep(until: deadline)
    }

    /// Sleeps for `duration` from now on the store clock.
    public func sleep(for duration: Duration) async throws {
        try await clock.sleep(until: clock.now + duration)
    }
}
