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

@Suite struct PlayerSettingsTests {
    let folder = temporaryFolder(prefix: "marble-settings")
    var file: URL { folder.appendingPathComponent("marble/player.json") }

    @Test func locationFollowsXDG() {
        #expect(PlayerSettingsStore.defaultFile(environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/u"]).path
            == "/cfg/marble/player.json")
        #expect(PlayerSettingsStore.defaultFile(environment: ["HOME": "/home/u"]).path
            == "/home/u/.config/marble/player.json")
        #expect(PlayerSettingsStore.defaultFile(environment: ["XDG_CONFIG_HOME": "", "HOME": "/home/u"]).path
            == "/home/u/.config/marble/player.json")
        #expect(PlayerSettingsStore.defaultFile(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/home/u"]).path
            == "/home/u/.config/marble/player.json", "a relative XDG path is ignored, as the spec says")
    }

    @Test func choicesPersistAcrossRuns() async throws {
        let clock = GraniteTestClock()
        let settings = PlayerSettingsStore.make(file: file, clock: clock)
        let player = SessionComponent(
            input: .file("song.mp3"), availablePresets: ["aura", "granite", "vinyl"], settingsStore: settings,
            client: SessionClient(load: { _ in 1 }))
        player.send(.transport(.positionAdvanced(to: 3)))
        #expect(settings.commitCount == 0, "only preset and sensitivity changes reach the settings")
        player.send(.controls(.nextPresetRequested))
        player.send(.controls(.sensitivityRaised))
        player.send(.controls(.nextPresetRequested))
        player.send(.controls(.sensitivityRaised))
        #expect(settings.state == PlayerSettings(preset: "vinyl", sensitivity: 1.5625))
        #expect(!FileManager.default.fileExists(atPath: file.path), "saving is debounced")
        await clock.advance(by: .milliseconds(500))
        #expect(await eventually { FileManager.default.fileExists(atPath: file.path) })

        let again = PlayerSettingsStore.make(file: file)
        #expect(again.state == PlayerSettings(preset: "vinyl", sensitivity: 1.5625))
        let restored = SessionComponent(
            input: .file("song.mp3"), availablePresets: ["aura", "granite", "vinyl"], settingsStore: again, client: SessionClient(load: { _ in 1 }))
        #expect(restored.snapshot.preset == "vinyl")
        #expect(restored.snapshot.sensitivity == 1.5625)
    }

    @Test func manyQuickChangesSaveTheLastOnStop() throws {
        let settings = PlayerSettingsStore.make(file: file, clock: GraniteTestClock())
        let player = SessionComponent(
            input: .file("song.mp3"), availablePresets: ["aura", "granite"], settingsStore: settings, client: SessionClient(load: { _ in 1 }))
        for _ in 0..<7 { player.send(.controls(.sensitivityRaised)) }
        for _ in 0..<3 { player.send(.controls(.nextPresetRequested)) }
        settings.stop()
        let saved = try JSONDecoder().decode(PlayerSettings.self, from: Data(contentsOf: file))
        #expect(saved == PlayerSettings(preset: "granite", sensitivity: 1.25 * 1.25 * 1.25 * 1.25 * 1.25 * 1.25 * 1.25))
    }

    @Test func savedFileIsReadableJSON() throws {
        let settings = PlayerSettingsStore.make(file: file)
        settings.send(.playerSettingsChanged(PlayerSettings(preset: "vinyl", sensitivity: 3)))
        try settings.save()
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        #expect(object?["preset"] as? String == "vinyl")
        #expect(object?["sensitivity"] as? Double == 3)
    }

    @Test func corruptFileGivesDefaultsAndOneWarning() throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("preset: vinyl".utf8).write(to: file)
        let warnings = Recorder<String>()
        let settings = PlayerSettingsStore.make(file: file, onWarning: { warnings.append($0) })
        #expect(settings.state == PlayerSettings())
        #expect(warnings.all.count == 1)
    }

    @Test func decodingIsForgiving() throws {
        let decoder = JSONDecoder()
        #expect(try decoder.decode(PlayerSettings.self, from: Data("{}".utf8)) == PlayerSettings())
        #expect(try decoder.decode(PlayerSettings.self, from: Data("{\"sensitivity\": 1000}".utf8)).sensitivity == 10)
        #expect(try decoder.decode(PlayerSettings.self, from: Data("{\"preset\": \"aura\"}".utf8))
            == PlayerSettings(preset: "aura"))
    }

    @Test func sensitivityIsClampedEverywhere() {
        #expect(Sensitivity.clamped(0) == 0.1)
        #expect(Sensitivity.clamped(.infinity) == 10)
        #expect(Sensitivity.clamped(.nan) == 1)
        #expect(PlayerSettings(sensitivity: 50).sensitivity == 10)
        #expect(SessionComponent.State(sensitivity: -1).sensitivity == 0.1)
    }
}
