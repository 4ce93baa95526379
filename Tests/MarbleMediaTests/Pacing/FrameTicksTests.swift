import MarbleCore
@testable import MarbleMedia
import Testing

/// The frame clock of a real-time source: exact due times, the newest due frame, the late ones counted.
@Suite struct FrameTicksTests {
    @Test("frame n is due at start + n / fps, rounded up to the nanosecond")
    func dueTimes() {
        let ticks = FrameTicks(fps: Rational(30), start: 1_000)
        #expect(ticks.due(0) == 1_000)
        #expect(ticks.due(1) == 1_000 + 33_333_334)
        #expect(ticks.due(3) == 1_000 + 100_000_000)
        #expect(ticks.nextDue == 1_000)
        let ntsc = FrameTicks(fps: Rational(30_000, 1_001), start: 0)
        #expect(ntsc.due(1) == 33_366_667)  // 1001 / 30000 s
        #expect(ntsc.due(30_000) == 1_001_000_000_000)
    }

    @Test("on time, frames follow one by one; late, the newest due one is drawn and the others counted")
    func advance() {
        var ticks = FrameTicks(fps: Rational(30), start: 0)
        #expect(ticks.advance(now: 0) == (0, 0))
        #expect(ticks.nextDue == 33_333_334)
        #expect(ticks.advance(now: 33_333_334) == (1, 0))
        // Frame 2 is due at 66 666 667 ns, frame 5 at 166 666 667: at 170 ms frames 2-4 are passed over.
        #expect(ticks.advance(now: 170_000_000) == (5, 3))
        #expect(ticks.tick == 5)
        // Asked just before frame 6 is due, it still moves to frame 6 (the caller waited for it).
        #expect(ticks.advance(now: 199_999_999) == (6, 0))
        // Exactly on a due time: that frame, not the one before.
        #expect(ticks.advance(now: ticks.due(10)) == (10, 3))
    }
}
