import Foundation
import MarbleCore
import MarbleRender
import Testing

@Suite("MilkDrop scenes: --milkdrop's layer, and `file:` in a preset YAML")
struct MilkDropSceneTests {
    @Test("--milkdrop's scene is one opaque milkdrop layer whose settings validate")
    func scene() throws {
        var s = MilkDropScene(path: "/presets")
        s.shuffle = true; s.switchSeconds = 12; s.blendSeconds = 1.5; s.hardCuts = false; s.renderScale = 0.5; s.seed = 9
        let preset = s.preset
        #expect(preset.layers.count == 1 && preset.layers[0].shader == "milkdrop")
        #expect(preset.layers[0].parameters["switch"] == .number(12))
        #expect(preset.layers[0].parameters["hard_cuts"] == .flag(false))
        try preset.validate()
    }

    @Test("a relative `file:` in a preset YAML is read from the YAML's folder; an absolute one is kept")
    func relativeFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("milkdrop-yaml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let yaml = folder.appendingPathComponent("mine.yaml")
        try Data("""
            name: mine
            layers:
              - shader: milkdrop
                parameters: { file: presets/space.milk, switch: 20 }
              - shader: milkdrop
                opacity: 0.5
                parameters: { file: /abs/other.milk }
            """.utf8).write(to: yaml)
        let preset = try PresetLibrary.load(yaml.path)
        #expect(preset.layers[0].parameters["file"] == .text(folder.path + "/presets/space.milk"))
        #expect(preset.layers[1].parameters["file"] == .text("/abs/other.milk"))
    }
}
