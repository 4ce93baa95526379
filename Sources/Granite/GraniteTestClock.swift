import Synchronization

/// A clock that only moves when a test advances it: no real sleeping, fully deterministic.
///
/// `sleep(until:)` suspends until `advance` moves `now` to or past the deadline. `advance(by:)`
/// wakes sleepers one at a time in deadline order (ties in the order they went to sleep), moving
/// `now` to each deadline in turn and yielding between wakes so that woken work can run (and,
/// for timers, go back to sleep) before the next wake.
public final class GraniteTestClock: GraniteClock {
    private struct Sleeper {
        let id: UInt64
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Timeline {
        var now: Duration = .zero
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        /// Sleepers cancelled before they were registered.
        var cancelledEarly: Set<UInt64> = []
    }

    private let timeline = Mutex(Timeline())

    /// A clock that starts at `now` and moves only when advanced.
    public init(now: Duration = .zero) {
        timeline.withLock { $0.now = now }
    }

    public var now: Duration { timeline.withLock { $0.now } }

    /// How many tasks are sleeping on this clock.
    public var sleeperCount: Int { timeline.withLock { $0.sleepers.count } }

    public func sleep(until deadline: Duration) async throws {
        try Task.checkCancellation()
        let id: UInt64? = timeline.withLock { t in
            if deadline <= t.now { return nil }
            defer { t.nextID += 1 }
            return t.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Result<Void, any Error>? = timeline.withLock { t in
                    if t.cancelledEarly.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= t.now { return .success(()) }
                    t.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let resumeNow { continuation.resume(with: resumeNow) }
            }
        } onCancel: {
            let sleeper: Sleeper? = timeline.withLock { t in
                if let index = t.sleepers.firstIndex(where: { $0.id == id }) {
                    return t.sleepers.remove(at: index)
                }
                t.cancelledEarly.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration`, waking every sleeper whose deadline is reached.
    public func advance(by duration: Duration = .zero) async {
        await advance(to: now + duration)
    }

    /// Moves time forward to `target` (never backwards), waking sleepers in deadline order.
    public func advance(to target: Duration) async {
        await Self.settle()
        while true {
            let due: Sleeper? = timeline.withLock { t in
                let candidates = t.sleepers.enumerated().filter { $0.element.deadline <= target }
                guard let first = candidates.min(by: { a, b in
                    a.element.deadline != b.element.deadline
                        ? a.element.deadline < b.element.deadline : a.element.id < b.element.id
                }) else {
                    if target > t.now { t.now = target }
                    return nil
                }
                if first.element.deadline > t.now { t.now = first.element.deadline }
                return t.sleepers.remove(at: first.offset)
            }
            guard let due else { break }
            due.continuation.resume()
            await Self.settle()
        }
    }

    /// Wakes everything that is due now, without moving time.
    public func run() async { await advance(by: .zero) }

    /// Yields repeatedly so that tasks made runnable by a wake get to run on the cooperative pool.
    private static func settle() async {
        for _ in 0..<64 { await Task.yield() }
    }
}
