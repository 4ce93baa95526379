import Granite
@testable import MarbleAnalysis
import MarbleCore
@testable import MarbleKit
@testable import MarbleMedia
@testable import MarblePipeline
import TestSupport
import Testing

/// The connection of a capture, effects included, through the test store: every state change and
/// every event an effect sends is asserted.
@Suite struct SessionConnectionTests {
    static let presets = ["spectrum", "bars", "magma"]

    func store(client: SessionClient, preset: String? = "spectrum") -> GraniteTestStore<SessionComponent.Center> {
        makeTestStore(SessionComponent.Center(availablePresets: Self.presets, client: client),
                      SessionComponent.State(preset: preset))
    }

    /// A client that connects at once to `source` and records its calls.
    static func client(source: String? = "viz.monitor", calls: Recorder<String>) -> SessionClient {
        SessionClient(connect: {
            calls.append("connect")
            return source
        }, disconnect: {
            calls.append("disconnect")
        })
    }

    @Test func startingConnectsThroughTheEffect() async {
        let calls = Recorder<String>()
        let store = store(client: Self.client(calls: calls))
        await store.send(.sessionStarted) { $0.connection = .connecting }
        await store.receive(.connection(.started(source: "viz.monitor"))) {
            $0.captureStarted = true
            $0.connection = .capturing(source: "viz.monitor")
        }
        #expect(calls.all == ["connect"])
        await store.send(.controls(.quitRequested)) { $0.outcome = .quit }
        #expect(await eventually { calls.all == ["connect", "disconnect"] })
        await store.finish()
    }

    @Test("start() connects (the Center's onStart), stop() ends a running session as interrupted and disconnects (onStop)")
    func lifecycleConnectsAndDisconnects() async {
        let calls = Recorder<String>()
        let live = SessionComponent(input: .capture(source: nil), availablePresets: Self.presets, client: Self.client(calls: calls))
        #expect(live.snapshot.connection == .idle)
        live.start()
        #expect(await eventually { live.snapshot.connection == .capturing(source: "viz.monitor") })
        #expect(calls.all == ["connect"])
        live.stop()
        #expect(live.snapshot.outcome == .interrupted)
        #expect(await eventually { calls.all == ["connect", "disconnect"] })
    }

    @Test("a session that already ended keeps its outcome when the component stops")
    func stopAfterQuitKeepsQuit() async {
        let calls = Recorder<String>()
        let live = SessionComponent(input: .capture(source: nil), availablePresets: Self.presets, client: Self.client(calls: calls))
        live.start()
        #expect(await eventually { live.snapshot.captureStarted })
        live.send(.controls(.quitRequested))
        live.stop()
        #expect(live.snapshot.outcome == .quit)
        // Disconnected: by the quit's effect if it ran before stop() cancelled it, by onStop in any case.
        #expect(await eventually { calls.all.count >= 2 && calls.all.first == "connect" && calls.all.dropFirst().allSatisfy { $0 == "disconnect" } })
    }

    @Test func noServerFailsTheSessionWithTheCaptureError() async {
        let client = SessionClient(connect: { throw MarbleError(.device, "no PulseAudio server is running") })
        let store = store(client: client)
        await store.send(.sessionStarted) { $0.connection = .connecting }
        await store.receive(.connection(.failed(kind: "device", message: "no PulseAudio server is running"))) {
            $0.connection = .failed(kind: "device", message: "no PulseAudio server is running")
            $0.outcome = .failed
        }
        // A failed session ignores later capture news and keys that would end it again.
        await store.send(.connection(.changed(.capturing(source: "viz.monitor"))))
        await store.send(.controls(.quitRequested))
        await store.finish()
    }

    @Test func waitingForAServerKeepsConnectingUntilTheCaptureSaysSo() async {
        let calls = Recorder<String>()
        let store = store(client: Self.client(source: nil, calls: calls))
        await store.send(.sessionStarted) { $0.connection = .connecting }
        await store.receive(.connection(.started(source: nil))) { $0.captureStarted = true }
        await store.send(.connection(.changed(.capturing(source: "viz.monitor")))) { $0.connection = .capturing(source: "viz.monitor") }
        await store.send(.connection(.changed(.reconnecting(reason: "Connection terminated")))) {
            $0.connection = .reconnecting(reason: "Connection terminated")
        }
        await store.send(.connection(.changed(.capturing(source: "other.monitor")))) { $0.connection = .capturing(source: "other.monitor") }
        await store.send(.controls(.interrupted)) { $0.outcome = .interrupted }
        #expect(await eventually { calls.all.contains("disconnect") })
        await store.finish()
    }

    @Test func keysChangeTheLook() async {
        let store = store(client: Self.client(calls: Recorder()))
        await store.send(.controls(.nextPresetRequested)) { $0.preset = "bars" }
        await store.send(.controls(.previousPresetRequested)) { $0.preset = "spectrum" }
        await store.send(.controls(.previousPresetRequested)) { $0.preset = "magma" }
        await store.send(.controls(.presetSelected(name: "nope")))
        await store.send(.controls(.presetSelected(name: "bars"))) { $0.preset = "bars" }
        await store.send(.controls(.sensitivityRaised)) { $0.sensitivity = Sensitivity.raised(1) }
        await store.send(.controls(.sensitivityLowered)) { $0.sensitivity = 1 }
        await store.finish()
    }

    @Test func theSessionEndsOnceWithTheFirstOutcome() async {
        let calls = Recorder<String>()
        let store = store(client: Self.client(calls: calls))
        await store.send(.durationReached) { $0.outcome = .durationReached }
        await store.send(.controls(.quitRequested))
        await store.send(.controls(.interrupted))
        #expect(await eventually { calls.all == ["disconnect"] })
        await store.finish()
    }
}
