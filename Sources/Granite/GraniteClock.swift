/// The time source of a store: timers and effects sleep on it.
///
/// Times are durations since the clock's own origin. Inject a ``GraniteTestClock`` in tests and
/// advance it by hand; production uses ``GraniteSystemClock``.
public protocol GraniteClock: Sendable {
    /// The current time, since this clock's origin.
    var now: Duration { get }

    /// Suspends until `now >= deadline`. Returns at once if the deadline has passed.
    /// Throws `CancellationError` if the task is cancelled while sleeping.
    func sleep(until deadline: Duration) async throws
}

/// The monotonic system clock (`ContinuousClock`), with its origin at creation.
public struct GraniteSystemClock: GraniteClock {
    private let origin: ContinuousClock.Instant

    /// A clock whose time 0 is now.
    public init() { origin = .now }

    public var now: Duration { origin.duration(to: .now) }

    public func sleep(until deadline: Duration) async throws {
        try await ContinuousClock().sleep(until: origin.advanced(by: deadline), tolerance: nil)
    }
}
