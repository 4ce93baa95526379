import Foundation
@testable import MarbleKit
@testable import MarbleMedia
import TestSupport
import Testing

/// The audio thread playing the songs the store loads: the next song plays at the pump's rate
/// (resampled), from the seek that starts its clock generation. The pump runs on the system clock with
/// the silent device (as `--no-audio` does), so the songs are short; real time only bounds a hang.
@Suite struct AudioPumpTests {
    /// A pump over `path` (8 kHz) on the silent device.
    static func pump(_ path: String, stereo: Bool? = nil) throws -> (AudioPump, RealTimePacer.Wake) {
        let wake = RealTimePacer.Wake()
        let output = SilentAudioOutput(sampleRate: 8_000, bufferSeconds: 0.05, wake: wake)
        return (AudioPump(decoder: try AudioDecoder(path: path), output: output, wake: wake, stereo: stereo), wake)
    }

    /// The samples the analyser was handed: the stream's first index and how many.
    static func handed(_ pump: AudioPump) -> (base: Int, count: Int) {
        var generation = -1, base = -1, count = 0
        pump.handoff.drain(generation: &generation, reset: { base = $0; count = 0 }, append: { left, _ in count += left.count })
        return (base, count)
    }

    @Test("a song at 16 kHz after one at 8 kHz plays at 8 kHz from the store's seek: 1 s from 0.5 s is 4000 samples from 4000")
    func nextSongResampledFromItsSeek() async throws {
        let first = try TestMedia.tone("wav", seconds: 1, rate: 8_000, channels: 1, codec: ["-c:a", "pcm_f32le"])
        let second = try TestMedia.tone("wav", seconds: 1, rate: 16_000, channels: 2, codec: ["-c:a", "pcm_f32le"])
        let (pump, _) = try Self.pump(first, stereo: true)
        pump.load(try AudioDecoder(path: second))
        pump.follow(PlayerTransport(version: 1, paused: false, seek: .init(seconds: 0.5, generation: 1)))
        pump.start(paused: false)
        defer { pump.stop() }
        #expect(await eventually(timeout: .seconds(30)) { pump.clock.reading.ended }, "the second song never ended")
        let reading = pump.clock.reading
        #expect(reading.generation == 1)
        #expect(reading.baseSample == 4_000, "0.5 s at the pump's 8 kHz")
        #expect(abs(reading.written - 4_000) <= 64, "the last 0.5 s of the song at 8 kHz: \(reading.written)")
        let handed = Self.handed(pump)
        #expect(handed.base == 4_000)
        #expect(handed.count == reading.written, "the analyser gets what the device got")
    }

    @Test("a song handed over waits for its seek: nothing of it plays under the song before's generation")
    func aNewSongWaitsForItsSeek() async throws {
        let song = try TestMedia.tone("wav", seconds: 0.5, rate: 8_000, channels: 1, codec: ["-c:a", "pcm_f32le"])
        let (pump, wake) = try Self.pump(song)
        pump.start(paused: false)
        defer { pump.stop() }
        #expect(await eventually(timeout: .seconds(30)) { pump.clock.reading.written >= 800 }, "the first song never played")
        pump.load(try AudioDecoder(path: song))
        #expect(!wake.isWoken, "handing a song over must not end the device's and the thread's waits for good")
        #expect(await eventually(timeout: .seconds(30)) { pump.clock.reading.written == 0 }, "the new song did not begin")
        // The thread goes on publishing while it waits; a tenth of a second of its clock later, still nothing written.
        let began = pump.clock.reading.stamp
        #expect(await eventually(timeout: .seconds(30)) { pump.clock.reading.stamp >= began + 100_000_000 })
        #expect(pump.clock.reading.written == 0 && pump.clock.reading.generation == 0)
        pump.follow(PlayerTransport(version: 1, paused: false, seek: .init(seconds: 0, generation: 1)))
        #expect(await eventually(timeout: .seconds(30)) { pump.clock.reading.ended })
        #expect(pump.clock.reading.generation == 1)
        #expect(pump.clock.reading.written == 4_000)
    }
}
