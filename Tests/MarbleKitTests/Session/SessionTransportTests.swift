import Granite
@testable import MarbleAnalysis
import MarbleCore
@testable import MarbleKit
@testable import MarbleMedia
@testable import MarblePipeline
@testable import MarbleRender
import TestSupport
import Testing

/// The transport of a file (load, pause, seek, the end), through the test store: every state change
/// and every event an effect sends is asserted.
@Suite struct SessionTransportTests {
    /// Every file loads at once with a 120-second duration, except "missing.mp3".
    static let client = SessionClient(load: { path in
        if path == "missing.mp3" { throw MediaError(description: "missing.mp3: No such file or directory") }
        return 120
    })

    /// A player that has loaded song.mp3 and is playing it.
    func playing(client: SessionClient = Self.client) async -> GraniteTestStore<SessionComponent.Center> {
        let store = makeSessionTestStore(client: client)
        await store.send(.sessionStarted) {
            $0.source = "song.mp3"
            $0.song = 0
            $0.title = "song"
            $0.status = .loading
        }
        await store.receive(.loadFinished(duration: 120)) {
            $0.status = .playing
            $0.duration = 120
            $0.seekGeneration = 1
            $0.transportVersion = 1
        }
        return store
    }

    @Test func startsIdleWithTheFirstPreset() {
        let state = SessionComponent.initialState(input: .file("song.mp3"), availablePresets: ["aura", "vinyl"])
        #expect(state == .init(preset: "aura", sensitivity: 1, songs: ["song.mp3"]))
        #expect(state.status == .idle)
    }

    @Test func rememberedSettingsApplyWhenAvailable() {
        let remembered = PlayerSettings(preset: "vinyl", sensitivity: 2.5)
        let state = SessionComponent.initialState(input: .file("song.mp3"), availablePresets: ["aura", "vinyl"], settings: remembered)
        #expect(state.preset == "vinyl")
        #expect(state.sensitivity == 2.5)
        let gone = SessionComponent.initialState(input: .file("song.mp3"), availablePresets: ["aura"], settings: remembered)
        #expect(gone.preset == "aura")
        let none = SessionComponent.initialState(input: .file("song.mp3"), availablePresets: [], settings: remembered)
        #expect(none.preset == nil)
    }

    @Test func openingAFileLoadsAndPlays() async {
        let store = await playing()
        await store.finish()
    }

    @Test func aFileThatCannotBeOpenedFails() async {
        let store = makeSessionTestStore(client: Self.client)
        await store.send(.load(path: "missing.mp3")) {
            $0.source = "missing.mp3"
            $0.title = "missing"
            $0.status = .loading
        }
        await store.receive(.loadFailed(message: "missing.mp3: No such file or directory")) {
            $0.status = .failed(message: "missing.mp3: No such file or directory")
            $0.outcome = .failed
        }
        await store.send(.transport(.playPauseToggled))
        await store.send(.transport(.seekRequested(by: 5)))
        await store.finish()
    }

    @Test func openingAnotherFileDropsTheStaleLoad() async {
        let latch = Gate()
        let attempts = Recorder<String>()
        let client = SessionClient(load: { path in
            if path == "slow.mkv" { await latch.wait() }
            attempts.append(path)
            return path == "slow.mkv" ? 10 : 20
        })
        let store = makeSessionTestStore(client: client)
        await store.send(.load(path: "slow.mkv")) {
            $0.source = "slow.mkv"
            $0.title = "slow"
            $0.status = .loading
        }
        #expect(await eventually { latch.waiterCount == 1 })
        await store.send(.load(path: "fast.mkv")) {
            $0.source = "fast.mkv"
            $0.title = "fast"
        }
        await store.receive(.loadFinished(duration: 20)) {
            $0.status = .playing
            $0.duration = 20
            $0.seekGeneration = 1
            $0.transportVersion = 1
        }
        latch.open()
        #expect(await eventually { attempts.all.count == 2 })
        await store.finish()
        #expect(store.state.duration == 20)
    }

    @Test func playPauseToggles() async {
        let sent = Recorder<PlayerTransport>()
        let store = await playing(client: SessionClient(load: { _ in 120 }, follow: { sent.append($0) }))
        await store.send(.transport(.playPauseToggled)) {
            $0.status = .paused
            $0.transportVersion = 2
        }
        await store.send(.transport(.playPauseToggled)) {
            $0.status = .playing
            $0.transportVersion = 3
        }
        await store.finish()
        #expect(Set(sent.all.map(\.version)) == [1, 2, 3])
        #expect(sent.all.first { $0.version == 1 } == PlayerTransport(version: 1, paused: false, seek: .init(seconds: 0, generation: 1)))
        #expect(sent.all.first { $0.version == 2 } == PlayerTransport(version: 2, paused: true, seek: nil))
        #expect(sent.all.first { $0.version == 3 } == PlayerTransport(version: 3, paused: false, seek: nil))
    }

    @Test func nothingToToggleBeforeAFileIsOpen() async {
        let store = makeSessionTestStore(client: Self.client)
        await store.send(.transport(.playPauseToggled))
        await store.send(.transport(.seekRequested(by: 10)))
        await store.send(.transport(.positionAdvanced(to: 3)))
        await store.send(.mediaEnded)
        await store.send(.loadFinished(duration: 9))
        await store.finish()
    }

    @Test func positionAdvancesOnlyWhilePlayingAndStaysInTheMedia() async {
        let store = await playing()
        await store.send(.transport(.positionAdvanced(to: 1.5))) { $0.position = 1.5 }
        await store.send(.transport(.positionAdvanced(to: 500))) { $0.position = 120 }
        await store.send(.transport(.playPauseToggled)) {
            $0.status = .paused
            $0.transportVersion = 2
        }
        await store.send(.transport(.positionAdvanced(to: 2)))
        await store.finish()
    }

    @Test func seekingIsClampedToTheMediaAndSentToTheEngineWithANewGeneration() async {
        let sent = Recorder<PlayerTransport>()
        let store = await playing(client: SessionClient(load: { _ in 120 }, follow: { sent.append($0) }))
        await store.send(.transport(.seekRequested(by: 30))) {
            $0.position = 30
            $0.seekGeneration = 2
            $0.transportVersion = 2
        }
        await store.send(.transport(.seekRequested(by: -45))) {
            $0.position = 0
            $0.seekGeneration = 3
            $0.transportVersion = 3
        }
        await store.send(.transport(.seekRequested(by: 1_000))) {
            $0.position = 120
            $0.seekGeneration = 4
            $0.transportVersion = 4
        }
        await store.send(.transport(.seekRequested(by: .nan)))
        await store.finish()
        let seeks = sent.all.sorted { $0.version < $1.version }.map(\.seek)
        #expect(seeks == [.init(seconds: 0, generation: 1), .init(seconds: 30, generation: 2), .init(seconds: 0, generation: 3),
                          .init(seconds: 120, generation: 4)])
    }

    @Test func quittingAndInterruptingSetTheOutcomeOnce() async {
        let store = await playing()
        await store.send(.controls(.quitRequested)) { $0.outcome = .quit }
        await store.send(.controls(.interrupted))
        await store.finish()
    }

    @Test("without keep-open, the end of the media ends the session (a reduced event, not the frame source's decision)")
    func theEndEndsTheSessionUnlessKeptOpen() async {
        let store = makeSessionTestStore(presets: ["aura"], keepOpen: false, client: Self.client)
        await store.send(.sessionStarted) {
            $0.source = "song.mp3"
            $0.song = 0
            $0.title = "song"
            $0.status = .loading
        }
        await store.receive(.loadFinished(duration: 120)) {
            $0.status = .playing
            $0.duration = 120
            $0.seekGeneration = 1
            $0.transportVersion = 1
        }
        await store.send(.mediaEnded) {
            $0.status = .ended
            $0.position = 120
            $0.outcome = .ended
        }
        await store.send(.controls(.quitRequested))  // the first outcome stays
        await store.finish()
    }

    @Test("the session's client really loads: the file it opened (its duration), another file, and says why one cannot be")
    func theSessionLoadsFiles() async throws {
        let path = try TestMedia.tone("wav", seconds: 2, rate: 8_000, channels: 1)
        let other = try TestMedia.tone("wav", seconds: 3, rate: 16_000, channels: 2)
        var options = PlayOptions(input: path)
        options.noAudio = true
        let session = try RealTimeSession(play: options)
        let store = makeSessionTestStore(input: .file(path), presets: ["aura"], client: session.client)
        await store.send(.sessionStarted) {
            $0.source = path
            $0.song = 0
            $0.title = SessionComponent.title(of: path)
            $0.status = .loading
        }
        await store.receive(.loadFinished(duration: 2)) {
            $0.status = .playing
            $0.duration = 2
            $0.seekGeneration = 1
            $0.transportVersion = 1
        }
        await store.send(.load(path: other)) {
            $0.source = other
            $0.song = nil
            $0.title = SessionComponent.title(of: other)
            $0.status = .loading
            $0.duration = 0
        }
        await store.receive(.loadFinished(duration: 3)) {
            $0.status = .playing
            $0.duration = 3
            $0.seekGeneration = 2
            $0.transportVersion = 2
        }
        let missing = path + ".missing.wav"
        await store.send(.load(path: missing)) {
            $0.source = missing
            $0.title = SessionComponent.title(of: missing)
            $0.status = .loading
            $0.duration = 0
        }
        var expected = ""
        do throws(MarbleError) { _ = try AudioDecoder(path: missing) } catch { expected = error.message }
        #expect(expected.contains(missing), "\(expected)")
        await store.receive(.loadFailed(message: expected), timeout: .seconds(20)) {
            $0.status = .failed(message: expected)
            $0.outcome = .failed
        }
        await store.finish()
    }

    @Test func theEndThenPlayAgainFromTheStart() async {
        let store = await playing()
        await store.send(.transport(.positionAdvanced(to: 119.9))) { $0.position = 119.9 }
        await store.send(.mediaEnded) {
            $0.status = .ended
            $0.position = 120
        }
        await store.send(.transport(.positionAdvanced(to: 121)))
        await store.send(.transport(.playPauseToggled)) {
            $0.status = .playing
            $0.position = 0
            $0.seekGeneration = 2
            $0.transportVersion = 2
        }
        await store.send(.mediaEnded) {
            $0.status = .ended
            $0.position = 120
        }
        await store.send(.transport(.seekRequested(by: -20))) {
            $0.status = .paused
            $0.position = 100
            $0.seekGeneration = 3
            $0.transportVersion = 3
        }
        await store.finish()
    }

    @Test func presetsCycleBothWays() async {
        let store = await playing()
        await store.send(.controls(.nextPresetRequested)) { $0.preset = "granite" }
        await store.send(.controls(.nextPresetRequested)) { $0.preset = "vinyl" }
        await store.send(.controls(.nextPresetRequested)) { $0.preset = "aura" }
        await store.send(.controls(.previousPresetRequested)) { $0.preset = "vinyl" }
        await store.send(.controls(.presetSelected(name: "granite"))) { $0.preset = "granite" }
        await store.send(.controls(.presetSelected(name: "no-such-preset")))
        await store.finish()
    }

    @Test func noPresetsNoChange() async {
        let store = makeSessionTestStore(presets: [], client: Self.client)
        await store.send(.controls(.nextPresetRequested))
        await store.send(.controls(.previousPresetRequested))
        await store.finish()
    }

    @Test func sensitivityMovesByStepsWithinItsRange() async {
        let store = makeSessionTestStore(settings: .init(sensitivity: 8), client: Self.client)
        await store.send(.controls(.sensitivityRaised)) { $0.sensitivity = 10 }
        await store.send(.controls(.sensitivityRaised))
        await store.send(.controls(.sensitivityLowered)) { $0.sensitivity = 8 }
        await store.finish()

        let low = makeSessionTestStore(settings: .init(sensitivity: 0.11), client: Self.client)
        await low.send(.controls(.sensitivityLowered)) { $0.sensitivity = 0.1 }
        await low.send(.controls(.sensitivityLowered))
        await low.finish()
    }

    @Test func stoppingCancelsALoadInProgress() async {
        let latch = Gate(), returned = Gate()
        let player = SessionComponent(
            input: .file("song.mp3"), availablePresets: ["aura"],
            client: SessionClient(load: { _ in await latch.wait(); returned.open(); return 5 }))
        player.start()  // loads the file
        #expect(await eventually { latch.waiterCount == 1 })
        player.stop()
        latch.open()
        // The load has finished and hands back its result, which the stopped store refuses (Granite
        // reduces an effect's event only while the effect is registered: GraniteEffectTests prove it
        // exactly). No wait for a length of time: a result that landed could only do so later.
        await returned.wait()
        #expect(player.snapshot.status == .loading)
        #expect(player.store.runningEffectCount == 0)
    }

    @Test func theFrameLoopReadsSnapshotsWhileEventsArrive() async {
        let player = SessionComponent(input: .file("song.mp3"), availablePresets: ["aura"], keepOpen: true,
                                      client: Self.client)
        player.send(.load(path: "song.mp3"))
        #expect(await eventually { player.snapshot.status == .playing })
        let reading = Gate()
        // The events start once the frame loop reads, and it reads until the last one landed. Every
        // tenth step the player reaches the end (ended at 120) and plays again (playing at 0): each of
        // those events moves the status and the position together.
        let events = Task.detached {
            await reading.wait()
            for step in 1...1_000 {
                player.send(.transport(.positionAdvanced(to: Double(step) * 0.1)))
                if step % 10 == 5 {
                    player.send(.mediaEnded)
                    player.send(.transport(.playPauseToggled))
                }
            }
        }
        var torn = 0, regressions = 0, last = 0.0, reads = 0
        while true {
            let state = player.snapshot
            if (state.status == .ended) != (state.position == state.duration) { torn += 1 }
            if state.status == .playing && state.position < last && state.position != 0 { regressions += 1 }
            last = state.status == .ended ? 0 : state.position  // playing again restarts at 0
            reads += 1
            if reads == 1 { reading.open() }
            if state.position == 100 { break }
            if reads % 256 == 0 { await Task.yield() }
        }
        await events.value
        #expect(torn == 0)
        #expect(regressions == 0)
        #expect(player.snapshot.position == 100)
    }
}
