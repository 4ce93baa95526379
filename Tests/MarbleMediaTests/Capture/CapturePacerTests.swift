@testable import MarbleMedia
import Testing

extension CaptureTests {
    @Suite("Pacing the timeline against wall time")
    struct Pacer {
        private let ms: UInt64 = 1_000_000

        @Test("no silence while data flows; after a gap, silence for the whole gap, topped up each tick")
        func fillsGaps() {
            var pacer = CapturePacer(sampleRate: 48_000, fragmentSeconds: 0.01, start: 0)
            #expect(pacer.gap == 50 * ms)
            #expect(pacer.admit(frames: 480, at: 10 * ms) == .init(silence: 0, drop: 0))
            #expect(pacer.silenceDue(at: 40 * ms) == 0)  // 30 ms quiet: not a gap yet
            #expect(pacer.admit(frames: 480, at: 20 * ms) == .init(silence: 0, drop: 0))
            #expect(pacer.silenceDue(at: 60 * ms) == 0)
            #expect(pacer.silenceDue(at: 80 * ms) == 2_880)  // 60 ms since the last data
            #expect(pacer.silenceDue(at: 90 * ms) == 480)
            #expect(pacer.written == 960 + 3_360)
            // Data resumes at 100 ms with a 10 ms block: with the 70 ms filled, the 80 ms quiet is covered.
            #expect(pacer.admit(frames: 480, at: 100 * ms) == .init(silence: 0, drop: 0))
            #expect(pacer.admit(frames: 480, at: 125 * ms) == .init(silence: 0, drop: 0))
        }

        @Test("after a switch of stream the next block closes the gap, however short")
        func closesSwitchGap() {
            var pacer = CapturePacer(sampleRate: 48_000, fragmentSeconds: 0.01, start: 0)
            _ = pacer.admit(frames: 480, at: 10 * ms)
            pacer.markDiscontinuity()
            // 30 ms later a block of 10 ms: 20 ms were missing.
            #expect(pacer.admit(frames: 480, at: 40 * ms) == .init(silence: 960, drop: 0))
            #expect(pacer.written == 1_920)
        }

        @Test("a late tick fills nothing, once: the data held up with it comes next")
        func waitsOutLateTick() {
            var pacer = CapturePacer(sampleRate: 48_000, fragmentSeconds: 0.01, start: 0)
            #expect(pacer.silenceDue(at: 10 * ms) == 0)
            _ = pacer.admit(frames: 480, at: 10 * ms)
            // The loop's thread is held up for 80 ms: its tick comes first, then the data.
            #expect(pacer.silenceDue(at: 90 * ms) == 0)
            #expect(pacer.admit(frames: 3_840, at: 91 * ms) == .init(silence: 48, drop: 0))
            #expect(pacer.silenceDue(at: 100 * ms) == 0)
            // Late ticks in a row still fill, every other one.
            #expect(pacer.silenceDue(at: 200 * ms) == 0)
            #expect(pacer.silenceDue(at: 300 * ms) == 10_032)  // 209 ms since the last data
        }

        @Test("the timeline never runs more than 250 ms ahead of wall time")
        func boundsDrift() {
            var pacer = CapturePacer(sampleRate: 48_000, fragmentSeconds: 0.01, start: 0)
            // A burst of 400 ms at 100 ms: 300 ms ahead, 50 ms too many, dropped from its start.
            #expect(pacer.admit(frames: 19_200, at: 100 * ms) == .init(silence: 0, drop: 2_400))
            #expect(pacer.written == 16_800)
            #expect(pacer.admit(frames: 480, at: 100 * ms) == .init(silence: 0, drop: 480))
            #expect(pacer.admit(frames: 480, at: 110 * ms) == .init(silence: 0, drop: 0))
        }
    }
}
