import Foundation
import Granite
@testable import MarbleAnalysis
import MarbleCore
@testable import MarbleKit
@testable import MarbleMedia
@testable import MarblePipeline
@testable import MarbleRender
import TestSupport
import Testing

@Suite("marble play: controls, the store's transport and the audio pump")
struct PlayerControlsTests {
    @Test("keys map to player commands")
    func commands() {
        #expect(PlayerCommand(key: .character(" ")) == .togglePause)
        #expect(PlayerCommand(key: .left) == .seek(by: -5))
        #expect(PlayerCommand(key: .right) == .seek(by: 5))
        #expect(PlayerCommand(key: .character("n")) == .control(.nextPresetRequested))
        #expect(PlayerCommand(key: .character("p")) == .control(.previousPresetRequested))
        #expect(PlayerCommand(key: .character("+")) == .control(.sensitivityRaised))
        #expect(PlayerCommand(key: .character("-")) == .control(.sensitivityLowered))
        #expect(PlayerCommand(key: .character("q")) == .control(.quitRequested))
        #expect(PlayerCommand(key: .interrupt) == .control(.interrupted))
        #expect(PlayerCommand(key: .character("x")) == nil)
    }

    @Test("two seeks issued before the audio thread runs: the engine takes the last, and positions are reported again")
    func quickSeeksMerge() async throws {
        let path = try TestMedia.tone("wav", seconds: 20, rate: 8_000, channels: 1, codec: ["-c:a", "pcm_f32le"])
        let decoder = try AudioDecoder(path: path)
        let pump = AudioPump(
            decoder: decoder, output: SilentAudioOutput(sampleRate: decoder.sampleRate, bufferSeconds: 0.05))
        let player = SessionComponent(input: .file(path), availablePresets: ["aura"],
                                      client: SessionClient(load: { _ in 20 }, follow: { pump.follow($0) }))
        player.send(.load(path: path))
        #expect(await eventually(timeout: .seconds(20)) { player.snapshot.status == .playing })

        let controls = PlayerControls(player: player, clock: pump.clock)
        // The audio thread is not running yet: both seeks land in the pump's mailbox together.
        controls.apply(.seek(by: 5), heard: 0)
        controls.apply(.seek(by: 5), heard: 0)
        #expect(player.snapshot.position == 10)
        #expect(player.snapshot.seekGeneration == 3, "the load starts generation 1, each seek one more")
        #expect(!controls.isCurrent(pump.clock.reading), "the clock still describes the time before the seeks")

        pump.start(paused: false)
        defer { pump.stop() }
        let reported = await eventually(timeout: .seconds(20)) {
            controls.reportPosition(pump.clock.position(of: pump.clock.reading))
            return player.snapshot.position > 10
        }
        #expect(reported, "the clock never reached the generation of the last seek")
        #expect(pump.clock.reading.generation == 3)
        #expect(pump.clock.reading.baseSample == 10 * decoder.sampleRate)
    }

    @Test("a transport older than the last one applied is ignored (effects may run out of order)")
    func staleTransportIgnored() async throws {
        let path = try TestMedia.tone("wav", seconds: 20, rate: 8_000, channels: 1, codec: ["-c:a", "pcm_f32le"])
        let decoder = try AudioDecoder(path: path)
        let pump = AudioPump(
            decoder: decoder, output: SilentAudioOutput(sampleRate: decoder.sampleRate, bufferSeconds: 0.05))
        pump.follow(PlayerTransport(version: 2, paused: false, seek: .init(seconds: 8, generation: 2)))
        pump.follow(PlayerTransport(version: 1, paused: true, seek: .init(seconds: 3, generation: 1)))
        pump.start(paused: false)
        defer { pump.stop() }
        #expect(await eventually(timeout: .seconds(20)) { pump.clock.reading.generation == 2 && pump.clock.reading.written > 0 })
        #expect(pump.clock.reading.baseSample == 8 * decoder.sampleRate)
    }

    @Test("keys become store events: quit and Ctrl-C end the session through the store")
    func keysBecomeEvents() async {
        let player = SessionComponent(input: .file("song.mp3"), availablePresets: ["aura", "bars"],
                                      client: SessionClient(load: { _ in 20 }))
        let controls = PlayerControls(player: player, clock: AudioClock(sampleRate: 8_000))
        controls.apply(.control(.nextPresetRequested), heard: 0)
        #expect(player.snapshot.preset == "bars")
        controls.apply(.control(.quitRequested), heard: 0)
        #expect(player.snapshot.outcome == .quit)
        controls.apply(.control(.interrupted), heard: 0)
        #expect(player.snapshot.outcome == .quit)
    }
}
