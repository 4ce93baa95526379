import Clocks
import Foundation
@testable import MarbleMedia
import TestSupport
import Testing

/// The silent device of `--no-audio`, played on a test clock.
@Suite struct AudioOutputTests {
    /// Hands the device to a writer thread. Safety of @unchecked Sendable: the test uses the device
    /// again only after that thread has arrived (its last use of it).
    struct Handover: @unchecked Sendable { let device: SilentAudioOutput }

    @Test("the silent device plays in real time on its clock, idles when starved, blocks a writer for the excess")
    func silentDevice() async throws {
        let clock = TestClock()
        let pacer = RealTimePacer(clock: clock)
        let device = SilentAudioOutput(sampleRate: 10_000, bufferSeconds: 0.1, pacer: pacer)
        let samples = [Float](repeating: 0, count: 2 * 500)
        try samples.withUnsafeBufferPointer { try device.write($0.baseAddress!, frames: 500) }
        #expect(try device.latency() == 0.05, "500 frames at 10 kHz, none played yet")
        await clock.advance(by: .milliseconds(20))
        #expect(abs(try device.latency() - 0.03) < 1e-12)
        await clock.advance(by: .milliseconds(100))
        #expect(try device.latency() == 0, "drained: a starved device idles")
        // 4 × 500 frames into a 1000-frame buffer: the writer is held until 1000 have been played (0.1 s).
        let done = Arrivals(), handover = Handover(device: device)
        Thread.detachNewThread {
            samples.withUnsafeBufferPointer { p in
                for _ in 0..<4 { try? handover.device.write(p.baseAddress!, frames: 500) }
            }
            done.arrive()
        }
        // The writer's waits count from when it writes: advance only once it is blocked.
        #expect(await eventually { pacer.waiting == 1 })
        await clock.advance(by: .milliseconds(99))
        #expect(done.count == 0, "still blocked 1 ms before the excess is played")
        await clock.advance(by: .milliseconds(1))
        await done.reach(1)
        #expect(abs(try device.latency() - 0.1) < 1e-12, "a full buffer: 1000 frames waiting")
        try device.flush()
        #expect(try device.latency() == 0)
    }

    @Test("drain returns once everything written has been heard on the clock")
    func drain() async throws {
        let clock = TestClock()
        let device = SilentAudioOutput(sampleRate: 1_000, bufferSeconds: 1, pacer: RealTimePacer(clock: clock))
        let samples = [Float](repeating: 0, count: 2 * 250)
        try samples.withUnsafeBufferPointer { try device.write($0.baseAddress!, frames: 250) }
        let done = Arrivals(), handover = Handover(device: device)
        Thread.detachNewThread {
            try? handover.device.drain()
            done.arrive()
        }
        await clock.advance(by: .milliseconds(249))
        #expect(done.count == 0)
        await clock.advance(by: .milliseconds(1))
        await done.reach(1)
        #expect(try device.latency() == 0)
    }
}
