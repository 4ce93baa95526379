import Foundation
import Testing
import TestSupport
@testable import MarbleKit

@Suite("marble play: controls and the audio pump")
struct PlayerControlsTests {
    @Test("two seeks issued before the audio thread runs still lead to position reports")
    func quickSeeksMerge() async throws {
        let path = try TestMedia.tone("wav", seconds: 20, rate: 8_000, channels: 1, codec: ["-c:a", "pcm_f32le"])
        let decoder = try AudioDecoder(path: path)
        let pump = AudioPump(
            decoder: decoder, output: SilentAudioOutput(sampleRate: decoder.sampleRate, bufferSeconds: 0.05))
        let player = PlayerComponent(availablePresets: ["aura"], client: PlayerClient(load: { _ in 20 }))
        player.send(.fileOpened(path: path))
        #expect(await eventually { player.snapshot.status == .playing })

        let controls = PlayerControls(player: player, pump: pump)
        // The audio thread is not running yet: both seeks land in the pump's mailbox together.
        _ = controls.apply(.seek(by: 5), heard: 0)
        _ = controls.apply(.seek(by: 5), heard: 0)
        #expect(player.snapshot.position == 10)

        pump.start(paused: false)
        defer { pump.stop() }
        let reported = await eventually {
            controls.reportPosition(pump.clock.position(of: pump.clock.reading))
            return player.snapshot.position > 10
        }
        #expect(reported, "the clock never reached the generation of the last seek")
        #expect(pump.clock.reading.generation == pump.requestedGeneration)
        #expect(pump.requestedGeneration == 2)
        #expect(pump.clock.reading.baseSample == 10 * decoder.sampleRate)
    }
}
