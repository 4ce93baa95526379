import Foundation
import Granite
import MarbleKit
import Testing

@Suite struct PlayerSettingsTests {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("marble-settings-\(UUID().uuidString)", isDirectory: true)
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
        let player = PlayerComponent(
            availablePresets: ["aura", "granite"], settings: settings.state,
            client: PlayerClient(load: { _ in 1 }).persisting(to: settings))
        player.send(.nextPresetRequested)
        player.send(.sensitivityRaised)
        #expect(await eventually { settings.state == PlayerSettings(preset: "granite", sensitivity: 1.25) })
        settings.stop()

        let again = PlayerSettingsStore.make(file: file)
        #expect(again.state == PlayerSettings(preset: "granite", sensitivity: 1.25))
        let restored = PlayerComponent(
            availablePresets: ["aura", "granite"], settings: again.state, client: PlayerClient(load: { _ in 1 }))
        #expect(restored.snapshot.preset == "granite")
        #expect(restored.snapshot.sensitivity == 1.25)
    }

    @Test func savedFileIsReadableJSON() throws {
        let settings = PlayerSettingsStore.make(file: file)
        settings.send(.presetChanged("vinyl"))
        settings.send(.sensitivityChanged(3))
        try settings.save()
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        #expect(object?["preset"] as? String == "vinyl")
        #expect(object?["sensitivity"] as? Double == 3)
    }

    @Test func corruptFileGivesDefaultsAndOneWarning() throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("preset: vinyl".utf8).write(to: file)
        let warnings = Collected<String>()
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
        #expect(PlayerComponent.State(sensitivity: -1).sensitivity == 0.1)
    }
}
