import Foundation
import MarbleCore
@testable import MarbleMedia
@testable import MarbleRender
import Shaders
import Testing

@Suite("Preset files")
struct PresetTests {
    @Test("every bundled preset loads and validates")
    func bundled() throws {
        let names = PresetLibrary.names()
        #expect(names.contains(PresetLibrary.defaultName))
        for name in names {
            let preset = try PresetLibrary.load(name)
            #expect(!preset.layers.isEmpty)
        }
    }

    @Test("a good preset parses with blend, opacity, parameters and bindings")
    func parses() throws {
        let p = try Preset.parse("""
            name: t
            layers:
              - shader: solid
                parameters: { color: "#102030" }
              - shader: bars
                blend: add
                opacity: 0.5
                parameters: { count: 32, mirror: true }
                bind:
                  height: { feature: bass, amount: 0.2, smoothing: 0.5 }
            """, source: "t.yaml")
        #expect(p.layers.count == 2)
        #expect(p.layers[1].blend == .add)
        #expect(p.layers[1].opacity == 0.5)
        #expect(p.layers[1].parameters["count"] == .number(32))
        #expect(p.layers[1].bindings["height"] == Binding(feature: "bass", amount: 0.2, smoothing: 0.5))
    }

    /// Each bad preset must fail with a message naming the file, the field and the problem.
    @Test("bad fields are named in the error", arguments: [
        ("layers: []", "layers: needs at least one layer"),
        ("layers:\n  - shader: nope", "layers[0].shader: unknown shader \"nope\""),
        ("layers:\n  - shader: bars\n    opacity: 2", "layers[0].opacity: 2.0 is out of range"),
        ("layers:\n  - shader: bars\n    opacity: loud", "layers[0].opacity: expected a number"),
        ("layers:\n  - shader: bars\n    blend: burn", "layers[0].blend: unknown blend mode \"burn\""),
        ("layers:\n  - shader: bars\n    parameters: { count: 1000 }", "layers[0].parameters.count: 1000 is out of range"),
        ("layers:\n  - shader: bars\n    parameters: { colour: red }", "layers[0].parameters.colour: unknown parameter"),
        ("layers:\n  - shader: bars\n    parameters: { top_color: reddish }", "layers[0].parameters.top_color: expected a colour"),
        ("layers:\n  - shader: bars\n    bind: { height: { feature: loudness } }", "layers[0].bind.height.feature: unknown feature \"loudness\""),
        ("layers:\n  - shader: bars\n    bind: { mirror: { feature: bass } }", "layers[0].bind.mirror: only number parameters"),
        ("layers:\n  - shader: bars\n    shaders: 1", "layers[0].shaders: unknown field"),
        ("layers:\n  - shader: bars\n    bind: { height: { feature: bass, amout: 2 } }", "layers[0].bind.height.amout: unknown field"),
        ("layers:\n  - shader: bars\n    bind: { height: { feature: bass, smothing: 0.5 } }", "layers[0].bind.height.smothing: unknown field"),
        ("layers:\n  - shader: bars\n    parameters: { top_color: \"#+fffff\" }", "layers[0].parameters.top_color: expected a colour"),
        // Numbers at any magnitude: compared before they are converted (1e20 as an Int used to trap).
        ("layers:\n  - shader: bars\n    parameters: { count: 1e20 }", "layers[0].parameters.count: 1e+20 is out of range"),
        ("layers:\n  - shader: bars\n    parameters: { count: -9223372036854775809 }", "layers[0].parameters.count:"),
        ("layers:\n  - shader: bars\n    parameters: { count: 9223372036854775807 }", "layers[0].parameters.count:"),
        ("layers:\n  - shader: bars\n    parameters: { gap: .nan }", "layers[0].parameters.gap: expected a number"),
        ("layers:\n  - shader: bars\n    opacity: 1e300", "layers[0].opacity: 1e+300 is out of range"),
        ("layers:\n  - shader: bars\n    bind: { height: { feature: bass, amount: .inf } }", "layers[0].bind.height.amount:"),
        ("layers:\n  - shader: bars\n    bind: { height: { feature: bass, base: .nan } }", "layers[0].bind.height.base: nan is not a finite number"),
        ("layers:\n  - shader: bars\n    bind: { height: { feature: bass, smoothing: -1e300 } }", "layers[0].bind.height.smoothing:"),
        ("layer: []", "layer: unknown field"),
        ("layers: [ {", "not valid YAML"),
        ("- 1\n- 2", "expected a mapping"),
    ])
    func badFields(text: String, expected: String) {
        do {
            _ = try Preset.parse(text, source: "bad.yaml")
            Issue.record("\(text) should not parse")
        } catch {
            #expect(error.kind == .preset)
            #expect(error.message.hasPrefix("bad.yaml: "), "\(error.message)")
            #expect(error.message.contains(expected), "\(error.message)")
        }
    }

    @Test("unknown preset names list the available ones")
    func unknownName() {
        do {
            _ = try PresetLibrary.load("no-such-preset")
            Issue.record("should fail")
        } catch {
            #expect(error.message.contains("unknown preset \"no-such-preset\""))
            #expect(error.message.contains(PresetLibrary.defaultName))
        }
    }
}

@Suite("SceneBuilder")
struct SceneBuilderTests {
    @Test("a picture replaces the preset's full-frame background; effects process the picture")
    func picture() throws {
        let preset = try PresetLibrary.load("bars")
        let scene = try SceneBuilder.layers(preset: preset, effects: ["ink"], hasPicture: true)
        #expect(scene.layers.map(\.shader) == ["media", "ink", "bars"])
        let spectrum = try SceneBuilder.layers(preset: try PresetLibrary.load("spectrum"), effects: [], hasPicture: true)
        #expect(spectrum.layers.map(\.shader) == ["media", "bars", "waveform"])
    }

    @Test("without a picture effects go on top, and unknown effects are refused")
    func noPicture() throws {
        let preset = try PresetLibrary.load("bars")
        let scene = try SceneBuilder.layers(preset: preset, effects: ["ink"], hasPicture: false)
        #expect(scene.layers.map(\.shader) == ["solid", "bars", "ink"])
        #expect(throws: MarbleError.self) { try SceneBuilder.layers(preset: preset, effects: ["nope"], hasPicture: false) }
    }
}
