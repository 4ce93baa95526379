import Foundation
import MarbleCore
import MarbleRender
import Testing
@testable import MarbleStudio

@Suite("Studio presets")
struct StudioPresetsTests {
    /// The test's own folder, removed after it.
    private let scratch: StudioScratch

    init() throws { scratch = try StudioScratch() }

    private func setUp() throws -> StudioPresets {
        try scratch.folder("songs")
        let folders = try StudioFolders(songs: [scratch.path + "/songs"], milkDrop: nil, output: scratch.path + "/out")
        return StudioPresets(folders: folders)
    }

    private func refusal(_ body: () throws(StudioFailure) -> Void) -> StudioFailure? {
        do { try body(); return nil } catch { return error }
    }

    private let look = Preset(name: "whatever", description: "Mine.", layers: [
        LayerSpec(shader: "gradient"),
        LayerSpec(shader: "bars", blend: .add, opacity: 0.75, parameters: ["count": .number(32)],
                  bindings: ["height": Binding(feature: "bass", amount: 0.4, smoothing: 0.3)]),
    ])

    @Test("a saved preset is a file PresetLibrary.load reads as the look, under the name given")
    func saves() throws {
        let presets = try setUp()
        let saved = try presets.save(name: "my-look_2", preset: look, replace: false)
        #expect(saved.path == scratch.path + "/out/presets/my-look_2.yaml")
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: saved.path)), as: UTF8.self) == saved.yaml)
        var expected = look
        expected.name = "my-look_2"
        expected.source = saved.path
        #expect(try PresetLibrary.load(saved.path) == expected)
        #expect(try scratch.entries("out/presets") == ["my-look_2.yaml"])  // no temporary file left
        let loaded = try presets.load("my-look_2")
        #expect(loaded.preset == expected)
        #expect(loaded.yaml == saved.yaml)
    }

    @Test("saving over a saved preset needs replace")
    func replaces() throws {
        let presets = try setUp()
        _ = try presets.save(name: "mine", preset: look, replace: false)
        var changed = look
        changed.layers[1].opacity = 0.5
        #expect(refusal { () throws(StudioFailure) in _ = try presets.save(name: "mine", preset: changed, replace: false) }
                == StudioFailure(.conflict, "a saved preset named \"mine\" exists already; save with replace to overwrite it"))
        #expect(try presets.load("mine").preset.layers[1].opacity == 0.75)
        _ = try presets.save(name: "mine", preset: changed, replace: true)
        #expect(try presets.load("mine").preset.layers[1].opacity == 0.5)
        #expect(try scratch.entries("out/presets") == ["mine.yaml"])
    }

    @Test("names are 1–64 of A–Z a–z 0–9 - _, and not a bundled preset's")
    func names() throws {
        let presets = try setUp()
        for bad in ["", String(repeating: "a", count: 65), "a b", "a.b", "../x", "x/y", "é", "a\0"] {
            let refused = refusal { () throws(StudioFailure) in _ = try presets.save(name: bad, preset: look, replace: true) }
            #expect(refused?.kind == .badRequest, "\(bad)")
            #expect(refused?.message.hasSuffix("must be 1–64 of the characters A–Z a–z 0–9 - _") == true, "\(bad)")
            #expect(refusal { () throws(StudioFailure) in _ = try presets.load(bad) }?.kind == .badRequest)
        }
        #expect(StudioPresets.isValidName(String(repeating: "Z", count: 64)))
        #expect(refusal { () throws(StudioFailure) in _ = try presets.save(name: "magma", preset: look, replace: true) }
                == StudioFailure(.badRequest, "name: \"magma\" is a bundled preset's; choose another name"))
        #expect(try scratch.entries("out/presets").isEmpty)
    }

    @Test("a look that does not validate is not saved")
    func invalidLook() throws {
        let presets = try setUp()
        var bad = look
        bad.layers[1].parameters["count"] = .number(1000)
        let refused = refusal { () throws(StudioFailure) in _ = try presets.save(name: "bad", preset: bad, replace: false) }
        #expect(refused?.kind == .badRequest)
        #expect(refused?.message.contains("layers[1].parameters.count: ") == true)
        #expect(try scratch.entries("out/presets").isEmpty)
    }

    @Test("the list: bundled presets, then saved ones by name; other files are left out")
    func lists() throws {
        let presets = try setUp()
        _ = try presets.save(name: "zeta", preset: look, replace: false)
        _ = try presets.save(name: "Alpha", preset: look, replace: false)
        try scratch.file("out/presets/magma.yaml", "layers: [{shader: solid}]")   // a bundled name: not offered
        try scratch.file("out/presets/bad name.yaml", "layers: [{shader: solid}]")
        try scratch.file("out/presets/notes.txt")
        let bundled = PresetLibrary.names()
        #expect(presets.list() == bundled.map { StudioPresets.Entry(name: $0, saved: false) }
                + [StudioPresets.Entry(name: "Alpha", saved: true), StudioPresets.Entry(name: "zeta", saved: true)])
    }

    @Test("a bundled preset loads with its own file's text")
    func loadsBundled() throws {
        let presets = try setUp()
        let loaded = try presets.load("magma")
        let file = try PresetLibrary.file(of: "magma").path
        #expect(loaded.yaml == String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self))
        #expect(loaded.preset == (try PresetLibrary.load(file)))
    }

    @Test("an unknown name is not found; a broken saved file gives the loader's message")
    func loadRefusals() throws {
        let presets = try setUp()
        #expect(refusal { () throws(StudioFailure) in _ = try presets.load("nothing") } == StudioFailure(.notFound, "no preset named \"nothing\""))
        let path = try scratch.file("out/presets/broken.yaml", "layers:\n  - shader: nope\n")
        #expect(refusal { () throws(StudioFailure) in _ = try presets.load("broken") }
                == StudioFailure(.badRequest, "\(path): layers[0].shader: unknown shader \"nope\" (see `marble effects`)"))
    }
}
