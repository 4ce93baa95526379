import Foundation
import Granite
import Testing
import TestSupport

struct Preferences: GraniteCenter {
    struct State: GraniteState {
        var volume = 50
        var theme = "dark"
    }

    enum Event: Equatable, Sendable {
        case volumeSet(Int)
        case themeSet(String)
    }

    func reduce(state: inout State, event: Event) -> GraniteEffect<Event> {
        switch event {
        case .volumeSet(let volume): state.volume = volume
        case .themeSet(let theme): state.theme = theme
        }
        return .none
    }
}

@Suite struct GranitePersistenceTests {
    let folder = temporaryFolder()
    var file: URL { folder.appendingPathComponent("nested/preferences.json") }

    func persistence(
        preload: Bool = true, warnings: Recorder<String>? = nil
    ) -> GranitePersistence<Preferences.State> {
        GranitePersistence(
            file: file, autoSave: true, autoSaveDelay: .milliseconds(100), preload: preload,
            onWarning: { warnings?.append($0) })
    }

    func makeStore(
        clock: GraniteTestClock = GraniteTestClock(), preload: Bool = true, warnings: Recorder<String>? = nil
    ) -> GraniteStore<Preferences> {
        GraniteStore(
            center: Preferences(), initialState: .init(),
            persistence: persistence(preload: preload, warnings: warnings), clock: clock)
    }

    @Test func roundTrip() async throws {
        let clock = GraniteTestClock()
        let store = makeStore(clock: clock)
        store.send(.volumeSet(70))
        store.send(.themeSet("light"))
        await clock.advance(by: .milliseconds(100))
        #expect(await eventually { FileManager.default.fileExists(atPath: file.path) })
        let reloaded = makeStore()
        #expect(reloaded.isLoaded)
        #expect(reloaded.state == .init(volume: 70, theme: "light"))
    }

    @Test func autoSaveIsDebounced() async throws {
        let clock = GraniteTestClock()
        let store = makeStore(clock: clock)
        store.send(.volumeSet(1))
        await clock.advance(by: .milliseconds(60))
        store.send(.volumeSet(2))
        await clock.advance(by: .milliseconds(60))  // 120 ms: the first deadline has passed, the second not
        #expect(!FileManager.default.fileExists(atPath: file.path))
        await clock.advance(by: .milliseconds(40))
        #expect(await eventually { persistence().load()?.volume == 2 })
    }

    @Test func stopWritesThePendingSave() throws {
        let store = makeStore()
        store.send(.volumeSet(9))
        store.stop()
        #expect(persistence().load()?.volume == 9)
    }

    @Test func writesLeaveNoTemporaryFiles() throws {
        let store = makeStore()
        for volume in 0..<20 {
            store.send(.volumeSet(volume))
            try store.save()
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(names == ["preferences.json"])
        #expect(persistence().load()?.volume == 19)
    }

    @Test("a settings file that is a symbolic link: its target is replaced and the link stays")
    func savesThroughASymbolicLink() throws {
        let target = folder.appendingPathComponent("dotfiles/preferences.json")
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"theme":"dark","volume":5}"#.utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: target)
        let store = makeStore()
        store.send(.volumeSet(33))
        try store.save()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: file.path) == target.path)
        #expect(persistence().load()?.volume == 33)
    }

    @Test("a folder where the file should be is an error, not renamed over")
    func refusesAFolder() throws {
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
        let store = makeStore(preload: false)
        store.send(.volumeSet(1))
        #expect(throws: GranitePersistenceError.notARegularFile(path: file.path)) { try store.save() }
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder) && isFolder.boolValue)
    }

    @Test func corruptFileGivesDefaultsAndAWarning() throws {
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{\"volume\": 80, \"theme\":".utf8).write(to: file)
        let warnings = Recorder<String>()
        let store = makeStore(warnings: warnings)
        #expect(store.state == .init())
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.contains(file.path) == true)
        #expect(FileManager.default.fileExists(atPath: file.path + ".corrupt"))
        // The next save writes a valid file again.
        store.send(.volumeSet(3))
        try store.save()
        #expect(persistence().load()?.volume == 3)
    }

    @Test func wrongShapeGivesDefaultsAndAWarning() throws {
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{\"volume\": \"loud\"}".utf8).write(to: file)
        let warnings = Recorder<String>()
        let store = makeStore(warnings: warnings)
        #expect(store.state == .init())
        #expect(warnings.all.count == 1)
    }

    @Test func unreadableFileGivesDefaultsAndAWarning() throws {
        // A folder where the file should be cannot be read as a file, even by root.
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
        let warnings = Recorder<String>()
        let store = makeStore(warnings: warnings)
        #expect(store.state == .init())
        #expect(warnings.all.count == 1)
    }

    @Test func missingFileGivesDefaultsSilently() {
        let warnings = Recorder<String>()
        let store = makeStore(warnings: warnings)
        #expect(store.state == .init())
        #expect(warnings.all.isEmpty)
    }

    @Test func backgroundLoadKeepsEventsSentMeanwhile() async throws {
        try persistence().save(.init(volume: 10, theme: "sepia"))
        let store = makeStore(preload: false)
        store.send(.volumeSet(11))
        await store.didLoad()
        #expect(store.isLoaded)
        #expect(store.state == .init(volume: 11, theme: "sepia"))
    }
}
