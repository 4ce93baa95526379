import Clocks
import Foundation
@testable import MarbleMedia
import TestSupport
import Testing

/// The one real-time pacer, on a test clock the tests advance (no sleeping, no verdict on the machine's load).
@Suite struct RealTimePacerTests {
    @Test("now is the injected clock's time since the pacer was made, in nanoseconds")
    func readsTheClock() async {
        let clock = TestClock()
        await clock.advance(by: .seconds(7))
        let pacer = RealTimePacer(clock: clock)
        #expect(pacer.now == 0)
        await clock.advance(by: .milliseconds(1_500))
        #expect(pacer.now == 1_500_000_000)
        #expect(pacer.seconds == 1.5)
    }

    @Test("a thread waits until the clock reaches its deadline, not a nanosecond-step before the last one")
    func waitsForTheClock() async {
        let clock = TestClock()
        let pacer = RealTimePacer(clock: clock)
        let woke = Arrivals()
        Thread.detachNewThread {
            pacer.wait(until: 1_000_000_000)
            woke.arrive()
        }
        await clock.advance(by: .milliseconds(999))
        #expect(woke.count == 0, "still waiting at 999 ms")
        await clock.advance(by: .milliseconds(1))
        await woke.reach(1)
        #expect(pacer.now == 1_000_000_000)
    }

    // The time limit only guards against a hang (without the watcher this test never ends); it is far
    // beyond any machine's load (a loaded run's pool let this test wait over 3 minutes for a thread).
    @Test("a sleep registered at the test clock's very instant ends, though the clock never advances again",
          .timeLimit(.minutes(20)))
    func sleepAtTheClocksInstant() async throws {
        let clock = TestClock()
        await clock.advance(by: .milliseconds(500))
        // TestClock alone suspends this sleep until its next advance, which never comes: the race a
        // waiting thread's sleep task can lose to an advance that ends exactly at its deadline.
        try await RealTimePacer.sleep(on: clock, until: clock.now)
        // And a sleep into the future still waits for the clock, and ends when it gets there.
        let later = clock.now.advanced(by: .milliseconds(10))
        async let slept: Void = RealTimePacer.sleep(on: clock, until: later)
        await clock.advance(by: .milliseconds(10))
        try await slept
        #expect(clock.now == later)
    }

    @Test("a deadline already passed, or no time at all, returns at once")
    func passedDeadline() async {
        let clock = TestClock()
        let pacer = RealTimePacer(clock: clock)
        await clock.advance(by: .seconds(2))
        pacer.wait(until: 1_000_000_000)
        pacer.wait(seconds: 0)
        pacer.wait(seconds: -.infinity)
        pacer.wait(seconds: .nan)
        #expect(pacer.wait(until: 2_000_000_000, slice: 0.05))
    }

    @Test("a sliced wait returns at the slice's end and says the deadline is not reached")
    func slicedWait() async {
        let clock = TestClock()
        let pacer = RealTimePacer(clock: clock)
        let results = Recorder<Bool>(), slept = Recorder<UInt64>(), woke = Arrivals()
        let far: UInt64 = 1_000_000_000_000_000   // 11.6 days of the clock: the steps below never get there
        Thread.detachNewThread {
            let start = pacer.now
            results.append(pacer.wait(until: far, slice: 0.05))
            slept.append(pacer.now - start)
            results.append(pacer.wait(until: pacer.now + 10_000_000, slice: 0.05))
            woke.arrive()
        }
        // The slice is measured from when the thread starts waiting, which the machine decides (a loaded
        // run hung when the test advanced the clock before the thread began): step the clock until the
        // thread is done, whenever it starts.
        while woke.count == 0 { await clock.advance(by: .milliseconds(5)) }
        #expect(results.all == [false, true])
        #expect(slept.all.count == 1 && slept.all[0] >= 50_000_000 - 1, "slept \(slept.all) ns of the clock")
    }

    @Test("the system pacer waits on the continuous clock (at least as long as asked)")
    func systemClock() {
        let pacer = RealTimePacer.system()
        pacer.wait(seconds: 0.01)
        #expect(pacer.now >= 10_000_000 - 1)
    }
}
