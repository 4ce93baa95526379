import Foundation
import Synchronization

/// Counts what other threads report (a frame drawn, a write returned) and lets a test await a count:
/// `await arrivals.reach(3)` returns once three arrived, without polling or sleeping. Tests that drive
/// a test clock advance it, then await what the advance should bring.
public final class Arrivals: Sendable {
    private let state = Mutex<(count: Int, waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)])>((0, []))

    public init() {}

    /// How many arrived so far.
    public var count: Int { state.withLock { $0.count } }

    /// One more arrived (any thread); wakes the awaits it satisfies.
    public func arrive() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count += 1
            let count = state.count
            defer { state.waiters.removeAll { $0.count <= count } }
            return state.waiters.filter { $0.count <= count }.map(\.continuation)
        }
        for waiter in ready { waiter.resume() }
    }

    /// Returns once at least `count` arrived.
    public func reach(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// Runs `body`, which blocks (a semaphore, a condition, a join), on a thread of its own and returns
/// when it has: a test awaits a blocking wait without holding one of the few cooperative threads
/// (which the test clock's sleepers need to wake up).
public func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

/// Every event a callback hands over, in order, and how many of them ended something (a job that
/// finished, failed or was cancelled): tests wait on ``ended`` instead of on the clock.
public final class EndingRecorder<Event: Sendable>: Sendable {
    public let events = Recorder<Event>()
    public let ended = Arrivals()
    private let endsSomething: @Sendable (Event) -> Bool

    public init(ended endsSomething: @escaping @Sendable (Event) -> Bool) {
        self.endsSomething = endsSomething
    }

    /// The callback to hand over.
    public func callback(_ event: Event) {
        events.append(event)
        if endsSomething(event) { ended.arrive() }
    }
}
