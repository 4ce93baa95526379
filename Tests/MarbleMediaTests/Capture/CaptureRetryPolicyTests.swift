@testable import MarbleMedia
import Testing

extension CaptureTests {
    @Suite("When the capture tries again and when a start gives up (explicit times, no wall clock)")
    struct RetryPolicy {
        private let ms: UInt64 = 1_000_000

        @Test("a failure schedules its step 250 ms later; ticks before then wait, the first one after runs it once")
        func retriesAfterTheDelay() {
            var policy = CaptureRetryPolicy(startedAt: 1_000 * ms)
            #expect(policy.tick(at: 1_010 * ms, failingFast: false) == .wait)  // nothing scheduled
            policy.failed(.connect, at: 1_100 * ms)
            #expect(policy.tick(at: 1_110 * ms, failingFast: false) == .wait)
            #expect(policy.tick(at: 1_349 * ms, failingFast: false) == .wait)
            #expect(policy.tick(at: 1_350 * ms, failingFast: false) == .run(.connect))
            #expect(policy.tick(at: 1_360 * ms, failingFast: false) == .wait)  // ran: not again
        }

        @Test("a later failure replaces the scheduled step, a success cancels it")
        func replacesAndCancels() {
            var policy = CaptureRetryPolicy(startedAt: 0)
            policy.failed(.connect, at: 0)
            policy.failed(.lookUpSource, at: 100 * ms)
            #expect(policy.tick(at: 250 * ms, failingFast: false) == .wait)  // the connect's time: replaced
            #expect(policy.tick(at: 350 * ms, failingFast: false) == .run(.lookUpSource))
            policy.failed(.connect, at: 400 * ms)
            policy.cancel()
            #expect(policy.tick(at: 2_000 * ms, failingFast: false) == .wait)
        }

        @Test("a server down for 1 s: the connect is retried four times, every 250 ms after each failure")
        func countsAttempts() {
            // Each attempt fails at once (no socket): the engine reports it in the same tick.
            var policy = CaptureRetryPolicy(startedAt: 0)
            policy.failed(.connect, at: 0)
            var attempts: [UInt64] = []
            for now in stride(from: 10 * ms, through: 1_000 * ms, by: 10_000_000) {
                if policy.tick(at: now, failingFast: false) == .run(.connect) {
                    attempts.append(now / ms)
                    policy.failed(.connect, at: now)
                }
            }
            #expect(attempts == [250, 500, 750, 1_000])
        }

        @Test("a failing-fast start gives up at the first tick past 5 s, before any due attempt; a waiting one never")
        func givesUpAfterFiveSeconds() {
            var policy = CaptureRetryPolicy(startedAt: 2_000 * ms)
            policy.failed(.connect, at: 6_800 * ms)
            #expect(policy.tick(at: 7_000 * ms, failingFast: true) == .wait)  // exactly 5 s: not past it
            #expect(policy.tick(at: 7_001 * ms, failingFast: true) == .giveUp)
            #expect(policy.tick(at: 7_050 * ms, failingFast: false) == .run(.connect))  // waiting for a server
            #expect(policy.tick(at: 60_000 * ms, failingFast: false) == .wait)
        }

        @Test("ticks with a clock that reads before the start (a test clock's origin) never give up")
        func clockBeforeStart() {
            var policy = CaptureRetryPolicy(startedAt: 5 * ms)
            #expect(policy.tick(at: 0, failingFast: true) == .wait)
        }
    }
}
