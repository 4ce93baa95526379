import Clocks
import Foundation
@testable import MarbleKit
@testable import MarbleMedia
import TestSupport
import Testing

/// The audio thread playing the songs the store loads, on a test clock: the next song plays at the
/// pump's rate (resampled), from the seek that starts its clock generation.
@Suite struct AudioPumpTests {
    /// Advances `clock` 10 ms at a time until `done` (the real-time limit only guards a hang).
    static func advance(_ clock: TestClock<Duration>, until done: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while !done() && ContinuousClock.now < deadline {
            await clock.advance(by: .milliseconds(10))
            await Task.yield()
        }
        return done()
    }

    /// The samples the analyser was handed: the stream's first index and how many.
    static func handed(_ pump: AudioPump) -> (base: Int, count: Int) {
        var generation = -1, base = -1, count = 0
        pump.handoff.drain(generation: &generation, reset: { base = $0; count = 0 }, append: { left, _ in count += left.count })
        return (base, count)
    }

    @Test("a song at 16 kHz after one at 8 kHz plays at 8 kHz from the store's seek: 1.5 s from 0.5 s is 8000 samples from 4000")
    func nextSongResampledFromItsSeek() async throws {
        let first = try TestMedia.tone("wav", seconds: 1, rate: 8_000, channels: 1, codec: ["-c:a", "pcm_f32le"])
        let second = try TestMedia.tone("wav", seconds: 1.5, rate: 16_000, channels: 2, codec: ["-c:a", "pcm_f32le"])
        let clock = TestClock()
        let pacer = RealTimePacer(clock: clock), wake = RealTimePacer.Wake()
        let pump = AudioPump(
            decoder: try AudioDecoder(path: first),
            output: SilentAudioOutput(sampleRate: 8_000, bufferSeconds: 0.05, pacer: pacer, wake: wake),
            pacer: pacer, wake: wake, stereo: true)
        pump.load(try AudioDecoder(path: second))
        pump.follow(PlayerTransport(version: 1, paused: false, seek: .init(seconds: 0.5, generation: 1)))
        pump.start(paused: false)
        defer { pump.stop() }
        #expect(await Self.advance(clock) { pump.clock.reading.ended }, "the second song never ended")
        let reading = pump.clock.reading
        #expect(reading.generation == 1)
        #expect(reading.baseSample == 4_000, "0.5 s at the pump's 8 kHz")
        #expect(abs(reading.written - 8_000) <= 64, "1 s of the song at 8 kHz: \(reading.written)")
        let handed = Self.handed(pump)
        #expect(handed.base == 4_000)
        #expect(handed.count == reading.written, "the analyser gets what the device got")
        #expect(abs(Double(reading.baseSample + reading.written) / 8_000 - 1.5) < 0.01, "written to the song's end, 1.5 s")
    }

    @Test("a song handed over waits for its seek: nothing of it plays under the song before's generation")
    func aNewSongWaitsForItsSeek() async throws {
        let first = try TestMedia.tone("wav", seconds: 1, rate: 8_000, channels: 1, codec: ["-c:a", "pcm_f32le"])
        let clock = TestClock()
        let pacer = RealTimePacer(clock: clock), wake = RealTimePacer.Wake()
        let pump = AudioPump(
            decoder: try AudioDecoder(path: first),
            output: SilentAudioOutput(sampleRate: 8_000, bufferSeconds: 0.05, pacer: pacer, wake: wake),
            pacer: pacer, wake: wake)
        pump.start(paused: false)
        defer { pump.stop() }
        #expect(await Self.advance(clock) { pump.clock.reading.written >= 800 }, "the first song never played")
        pump.load(try AudioDecoder(path: first))
        #expect(!wake.isWoken, "handing a song over must not end the device's and the thread's waits for good")
        #expect(await Self.advance(clock) { pump.clock.reading.written == 0 }, "the new song did not begin")
        // Half a second later, still nothing written: the thread waits for the store's seek.
        let waited = pump.clock.reading.stamp
        #expect(await Self.advance(clock) { pump.clock.reading.stamp >= waited + 500_000_000 })
        #expect(pump.clock.reading.written == 0 && pump.clock.reading.generation == 0)
        pump.follow(PlayerTransport(version: 1, paused: false, seek: .init(seconds: 0, generation: 1)))
        #expect(await Self.advance(clock) { pump.clock.reading.ended })
        #expect(pump.clock.reading.generation == 1)
        #expect(pump.clock.reading.written == 8_000)
    }
}
