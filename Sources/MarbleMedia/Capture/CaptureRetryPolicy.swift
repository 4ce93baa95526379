/// When the capture engine tries again after a fault, and when a start that fails fast gives up: the
/// engine's timing decisions as a plain value, so they can be checked against explicit times instead
/// of the wall clock. Times are nanoseconds of the capture's ``RealTimePacer``; libpulse's ticker only
/// decides how often the engine asks.
///
/// Rules:
/// - A failure schedules one attempt (`connect` after a lost connection, `lookUpSource` after a missing
///   source or a failed stream) `retryDelay` (250 ms) after it; a later failure replaces it, a success
///   cancels it. A tick at or after the due time runs it, once.
/// - A start that fails fast (no `waitForServer`, nothing captured yet) gives up at the first tick more
///   than `startTimeout` (5 s) after the start, before running any attempt.
struct CaptureRetryPolicy {
    /// What the engine tries again.
    enum Step: Equatable { case connect, lookUpSource }

    /// What a tick should do.
    enum Decision: Equatable {
        case wait
        case run(Step)
        case giveUp
    }

    /// Nanoseconds between a failure and the next attempt.
    static let retryDelay: UInt64 = 250_000_000
    /// Nanoseconds a failing-fast start waits for the server before giving up.
    static let startTimeout: UInt64 = 5_000_000_000

    /// When the capture started.
    let startedAt: UInt64
    /// The attempt scheduled and when it is due.
    private(set) var next: (step: Step, due: UInt64)?

    init(startedAt: UInt64) { self.startedAt = startedAt }

    /// Schedules `step` one retry delay after a failure at `now` (replacing any other).
    mutating func failed(_ step: Step, at now: UInt64) { next = (step, now &+ Self.retryDelay) }

    /// Drops the scheduled attempt (one runs at once, or the capture stops).
    mutating func cancel() { next = nil }

    /// The decision of a tick at `now`; `failingFast` while a failure would end the start. A `.run`
    /// clears the schedule.
    mutating func tick(at now: UInt64, failingFast: Bool) -> Decision {
        if failingFast, now > startedAt, now - startedAt > Self.startTimeout { return .giveUp }
        guard let next, now >= next.due else { return .wait }
        self.next = nil
        return .run(next.step)
    }
}
