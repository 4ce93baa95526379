import Granite
@testable import MarbleKit
import MarblePipeline
import TestSupport
import Testing

/// The controls every real-time session shares: one key map, one reducer, composed into the one session
/// store whatever its input (asserted with a file and with a capture).
@Suite struct SessionControlsTests {
    static let presets = ["aura", "bars", "magma"]

    @Test("one key map: n/p preset, +/- sensitivity, q quit, Ctrl-C; other keys are not controls")
    func keys() {
        #expect(ControlEvent(key: .character("n")) == .nextPresetRequested)
        #expect(ControlEvent(key: .character("P")) == .previousPresetRequested)
        #expect(ControlEvent(key: .character("=")) == .sensitivityRaised)
        #expect(ControlEvent(key: .character("_")) == .sensitivityLowered)
        #expect(ControlEvent(key: .character("Q")) == .quitRequested)
        #expect(ControlEvent(key: .interrupt) == .interrupted)
        #expect(ControlEvent(key: .character(" ")) == nil)
        #expect(ControlEvent(key: .left) == nil)
    }

    @Test("a file's store: presets wrap, unknown names are ignored, sensitivity steps, q ends it once")
    func fileStore() async {
        let store = makeSessionTestStore(presets: Self.presets, client: SessionClient(load: { _ in 1 }))
        await store.send(.controls(.previousPresetRequested)) { $0.preset = "magma" }
        await store.send(.controls(.nextPresetRequested)) { $0.preset = "aura" }
        await store.send(.controls(.presetSelected(name: "nope")))
        await store.send(.controls(.presetSelected(name: "bars"))) { $0.preset = "bars" }
        await store.send(.controls(.sensitivityRaised)) { $0.sensitivity = 1.25 }
        await store.send(.controls(.sensitivityLowered)) { $0.sensitivity = 1 }
        await store.send(.controls(.quitRequested)) { $0.outcome = .quit }
        await store.send(.controls(.interrupted))
        await store.finish()
    }

    @Test("a capture's store: the same reducer; ending also disconnects the capture, once")
    func captureStore() async {
        let calls = Recorder<String>()
        let client = SessionClient(connect: { "x" }, disconnect: { calls.append("disconnect") })
        let store = makeSessionTestStore(input: .capture(source: nil), presets: Self.presets, client: client)
        await store.send(.controls(.previousPresetRequested)) { $0.preset = "magma" }
        await store.send(.controls(.nextPresetRequested)) { $0.preset = "aura" }
        await store.send(.controls(.presetSelected(name: "nope")))
        await store.send(.controls(.sensitivityLowered)) { $0.sensitivity = 0.8 }
        await store.send(.controls(.interrupted)) { $0.outcome = .interrupted }
        await store.send(.controls(.quitRequested))
        #expect(await eventually { calls.all == ["disconnect"] })
        await store.finish()
        #expect(calls.all == ["disconnect"])
    }

    @Test("sensitivity stays within its range at both ends")
    func sensitivityBounds() async {
        let store = makeSessionTestStore(input: .capture(source: nil), presets: Self.presets,
                                         settings: PlayerSettings(sensitivity: 10), client: SessionClient())
        await store.send(.controls(.sensitivityRaised))
        await store.send(.controls(.sensitivityLowered)) { $0.sensitivity = 8 }
        await store.finish()
    }
}
