import Foundation
import MarbleCore
import Synchronization

/// Real time for the threads of the real-time path (the played file's frame clock, the silent sound
/// device, the audio thread's pause, a playlist fed at the pace it is heard), on one injected Swift
/// `Clock`: `ContinuousClock` in use, a test clock (swift-clocks' `TestClock`) in tests, which then
/// decide when time passes instead of sleeping and racing the machine's load.
///
/// Times are nanoseconds since the pacer was made (its origin), so plain values such as
/// `AudioClock.Reading` can carry them. Everything that paces one session shares one pacer, so their
/// times agree.
///
/// Waiting: the frame path runs on threads, and `Clock.sleep` is async. On the continuous clock the
/// calling thread sleeps directly (no task per wait, no dependence on the concurrency pool); on any
/// other clock it blocks on a semaphore that a task sleeping on the clock signals. A deadline counts
/// as met one nanosecond early, so a test clock advanced exactly to it never leaves the thread asleep
/// (a sleep registered at the clock's very instant would wait for the next advance).
///
/// Stopping: a thread that waits for long (a playlist's feed, the audio thread) passes a ``Wake``;
/// `wake()` ends its wait at once and every later one, whatever the clock (a test clock that nobody
/// advances any more included). Without one, a long wait is cut into slices so the caller can look at
/// its stop flag in between.
package final class RealTimePacer: Sendable {
    /// Ends the waits of one thread for good (its owner stopping).
    package final class Wake: Sendable {
        private let state = Mutex<(woken: Bool, sleep: Task<Void, Never>?)>((false, nil))

        package init() {}

        /// Whether ``wake()`` was called.
        package var isWoken: Bool { state.withLock { $0.woken } }

        /// Ends the current wait and makes later ones return at once.
        package func wake() {
            let sleep = state.withLock { state -> Task<Void, Never>? in
                state.woken = true
                return state.sleep
            }
            sleep?.cancel()
        }

        /// Registers the sleep in flight; false (and the sleep cancelled) when already woken.
        fileprivate func track(_ sleep: Task<Void, Never>?) -> Bool {
            let woken = state.withLock { state -> Bool in
                if !state.woken { state.sleep = sleep }
                return state.woken
            }
            if woken { sleep?.cancel() }
            return !woken
        }
    }

    /// Nanoseconds since the origin, on the clock.
    private let elapsed: @Sendable () -> UInt64
    /// Threads blocked in ``wait(until:wake:)`` now.
    private let waiters = Atomic<Int>(0)
    /// Sleeps until the given nanoseconds since the origin; nil on the continuous clock (the thread sleeps).
    private let sleeper: (@Sendable (UInt64) async throws -> Void)?

    /// A pacer on `clock`, whose origin is the clock's time now.
    package init<C: Clock>(clock: C) where C.Duration == Duration {
        let origin = clock.now
        elapsed = { Self.nanoseconds(origin.duration(to: clock.now)) }
        if clock is ContinuousClock {
            sleeper = nil
        } else {
            sleeper = { deadline in try await Self.sleep(on: clock, until: origin.advanced(by: .nanoseconds(Int64(clamping: deadline)))) }
        }
    }

    /// A pacer on the system's monotonic clock (`ContinuousClock`).
    package static func system() -> RealTimePacer { RealTimePacer(clock: ContinuousClock()) }

    /// Nanoseconds since the origin.
    package var now: UInt64 { elapsed() }

    /// Seconds since the origin.
    package var seconds: Double { Double(now) * 1e-9 }

    /// How many threads are blocked in a wait now. A test that starts a thread which paces itself from
    /// the time it starts (a feed's start, a device's write) waits for this before it advances a test
    /// clock: the thread's deadlines are fixed by then, however late the machine let it run.
    package var waiting: Int { waiters.load(ordering: .acquiring) }

    /// Blocks the calling thread until `deadline` nanoseconds since the origin (at once if it has passed,
    /// or `wake` was woken).
    package func wait(until deadline: UInt64, wake: Wake? = nil) {
        let due = deadline > 0 ? deadline - 1 : 0
        let current = now
        guard current < due, wake?.isWoken != true else { return }
        waiters.add(1, ordering: .releasing)
        defer { waiters.subtract(1, ordering: .releasing) }
        guard let sleeper else {
            Thread.sleep(forTimeInterval: Double(due - current) * 1e-9)
            return
        }
        let woke = DispatchSemaphore(value: 0)
        let sleep = Task.detached {
            try? await sleeper(due)
            woke.signal()
        }
        guard wake?.track(sleep) ?? true else { return }
        woke.wait()
        _ = wake?.track(nil)
    }

    /// Blocks the calling thread for `seconds` on the clock.
    package func wait(seconds: Double, wake: Wake? = nil) {
        guard seconds > 0, seconds.isFinite else { return }
        wait(until: now &+ UInt64(min(seconds, 1e6) * 1e9), wake: wake)
    }

    /// Blocks until `deadline` or at most `slice` seconds, whichever comes first, so a thread that waits
    /// long notices a stop or a command in between. Returns whether the deadline was reached.
    @discardableResult
    package func wait(until deadline: UInt64, slice: Double, wake: Wake? = nil) -> Bool {
        let sliceEnd = now &+ UInt64(max(0, slice) * 1e9)
        wait(until: min(deadline, sliceEnd), wake: wake)
        return now &+ 1 >= deadline
    }

    /// Sleeps on a clock other than the continuous one (a test clock) until `target`. A test clock
    /// suspends a sleep registered at its very instant until its next advance, and this sleep is
    /// registered by a task the waiting thread starts, so it can arrive just after an advance that
    /// ended exactly at `target`: then no later advance may come, and the thread would wait for ever
    /// (a loaded run of the suite hung so in `PlaylistFeedTests`). A watcher beside the sleep ends the
    /// wait once the clock reads `target` or later; it looks every 2 ms of real time, only while such a
    /// sleep is pending, and decides nothing about time itself.
    static func sleep<C: Clock>(on clock: C, until target: C.Instant) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await clock.sleep(until: target, tolerance: nil) }
            group.addTask { while clock.now < target { try await Task.sleep(for: .milliseconds(2)) } }
            _ = try await group.next()
            group.cancelAll()
        }
    }

    private static func nanoseconds(_ d: Duration) -> UInt64 {
        let (seconds, attoseconds) = d.components
        guard seconds >= 0 else { return 0 }
        return UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
    }
}
