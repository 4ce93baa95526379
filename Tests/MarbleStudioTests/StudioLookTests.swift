import Foundation
import MarbleCore
import MarbleRender
import Testing
@testable import MarbleStudio

@Suite("Studio looks")
struct StudioLookTests {
    /// The test's own folder, removed after it.
    private let scratch: StudioScratch

    init() throws { scratch = try StudioScratch() }

    /// The preset with `source` set to "x", so presets read from different places compare.
    private func sourceless(_ preset: Preset) -> Preset {
        var p = preset
        p.source = "x"
        return p
    }

    private func message(_ body: () throws(MarbleError) -> Void) -> String? {
        do { try body(); return nil } catch { return error.message }
    }

    @Test("every bundled preset → LOOK JSON → the same preset")
    func bundledThroughJSON() throws {
        let names = PresetLibrary.names()
        #expect(names.count >= 12)
        for name in names {
            let preset = try PresetLibrary.load(name)
            let back = try StudioLook.parse(json: StudioLook.json(of: preset), source: "look")
            #expect(sourceless(back) == sourceless(preset), "\(name)")
        }
    }

    @Test("every bundled preset → YAML file → PresetLibrary.load reads the same preset")
    func bundledThroughYAML() throws {
        for name in PresetLibrary.names() {
            let preset = try PresetLibrary.load(name)
            let path = try scratch.file("\(name).yaml", StudioLook.yaml(of: preset))
            #expect(sourceless(try PresetLibrary.load(path)) == sourceless(preset), "\(name)")
        }
    }

    /// Values that a careless writer would turn into something else: text that looks like a number or
    /// a YAML word, numbers without a short decimal form, every analysis field.
    private var trickyPreset: Preset {
        var analysis = PresetAnalysis()
        analysis.layout = "semitone"; analysis.bands = 96; analysis.minFrequency = 40; analysis.maxFrequency = 12000
        analysis.noiseFloor = -60.5; analysis.sensitivity = 0.1 + 0.2; analysis.autoSensitivity = false
        analysis.dynamics = 0.7; analysis.tilt = -4.5; analysis.gravity = 6; analysis.attack = 1e-7; analysis.release = 0.15
        return Preset(name: "yes", description: "A \"quoted\", multi: part\ndescription — ünïcode # not a comment", layers: [
            LayerSpec(shader: "text", blend: .screen, opacity: 1.0 / 3, parameters: [
                "text": .text("64"), "font": .text("yes"), "x": .number(0.1 + 0.2), "color": .text("#ff8800"),
            ]),
            LayerSpec(shader: "bars", parameters: ["count": .number(64), "mirror": .flag(true)],
                      bindings: ["height": Binding(feature: "bass", amount: -0.25, base: 0.5, smoothing: 0.2)]),
        ], analysis: analysis)
    }

    @Test("text that looks like a number or a word, and awkward numbers, read back as they were")
    func trickyValues() throws {
        let preset = try trickyPreset.validated()
        let path = try scratch.file("t.yaml", StudioLook.yaml(of: preset))
        #expect(sourceless(try PresetLibrary.load(path)) == sourceless(preset))
        #expect(sourceless(try StudioLook.parse(json: StudioLook.json(of: preset), source: "look")) == sourceless(preset))
    }

    @Test("the YAML has the file's key order, names plain, text quoted, numbers short")
    func yamlText() throws {
        let preset = Preset(name: "mine", description: "Bars.", layers: [
            LayerSpec(shader: "bars", blend: .add, opacity: 0.9, parameters: ["count": .number(64), "top_color": .text("#ff8800"), "mirror": .flag(true)],
                      bindings: ["height": Binding(feature: "bass", amount: 0.8, smoothing: 0.2)]),
        ], analysis: { var a = PresetAnalysis(); a.noiseFloor = -60; a.dynamics = 0.7; return a }())
        #expect(try StudioLook.yaml(of: preset) == """
            name: mine
            description: "Bars."
            layers:
            - shader: bars
              blend: add
              opacity: 0.9
              parameters:
                count: 64
                mirror: true
                top_color: "#ff8800"
              bind:
                height:
                  feature: bass
                  amount: 0.8
                  smoothing: 0.2
            analysis:
              noise_floor: -60
              dynamics: 0.7

            """)
    }

    @Test("the LOOK JSON has the file's fields")
    func jsonText() throws {
        let preset = Preset(name: "mine", layers: [
            LayerSpec(shader: "bars", parameters: ["top_color": .text("#ff8800"), "count": .number(64)],
                      bindings: ["height": Binding(feature: "bass", amount: 0.8, smoothing: 0.2)]),
        ])
        #expect(String(decoding: try StudioLook.json(of: preset), as: UTF8.self) == """
            {"analysis":{},"description":"","layers":[{"bind":{"height":{"amount":0.8,"feature":"bass","smoothing":0.2}},\
            "blend":"normal","opacity":1,"parameters":{"count":64,"top_color":"#ff8800"},"shader":"bars"}],"name":"mine"}
            """)
    }

    @Test("the example LOOK of STUDIO.md (with bars' top_color) reads, also with whitespace and tabs, and through JSONSerialization")
    func example() throws {
        let text = """
            {"name": "mine", "description": "",
             "layers": [{"shader": "bars", "blend": "normal", "opacity": 1,
            \t\t\t"parameters": {"top_color": "#ff8800", "count": 64},
                         "bind": {"height": {"feature": "bass", "amount": 0.8, "smoothing": 0.2}}}],
             "analysis": {}}
            """
        let expected = Preset(name: "mine", layers: [
            LayerSpec(shader: "bars", parameters: ["top_color": .text("#ff8800"), "count": .number(64)],
                      bindings: ["height": Binding(feature: "bass", amount: 0.8, smoothing: 0.2)]),
        ], source: "look")
        #expect(try StudioLook.parse(json: Array(text.utf8), source: "look") == expected)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        #expect(try StudioLook.parse(jsonObject: object, source: "look") == expected)
    }

    @Test("JSON's escapes read as JSON means them: \\/, \\u, a surrogate pair, an escaped backslash before a u")
    func escapes() throws {
        let json = #"{"layers":[{"shader":"text","parameters":{"text":"AC\/DC \u00e9 \ud83d\ude00 \\ud83d \"q\""}}]}"#
        let preset = try StudioLook.parse(json: Array(json.utf8), source: "look")
        #expect(preset.layers[0].parameters["text"] == .text(#"AC/DC é 😀 \ud83d "q""#))
        #expect(StudioLook.yamlSpelling(of: #""\ud83d\ude00\t""#) == #""\U0001f600\t""#)
        #expect(StudioLook.yamlSpelling(of: "{\t\"a\":\t1}") == "{ \"a\": 1}")
    }

    @Test("a look decoded by JSONSerialization keeps its slashes, flags and numbers")
    func jsonObject() throws {
        let body = #"{"look": {"layers": [{"shader": "text", "parameters": {"text": "a/b", "font": "/x/y.ttf", "x": 0.25}},"#
            + #" {"shader": "bars", "parameters": {"mirror": true, "count": 48}}]}}"#
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        let preset = try StudioLook.parse(jsonObject: object["look"] as Any, source: "look")
        #expect(preset.layers[0].parameters == ["text": .text("a/b"), "font": .text("/x/y.ttf"), "x": .number(0.25)])
        #expect(preset.layers[1].parameters == ["mirror": .flag(true), "count": .number(48)])
        #expect(throws: MarbleError(.preset, "look: expected a JSON object with a `layers` list")) {
            try StudioLook.parse(jsonObject: "text" as Any, source: "look")
        }
    }

    @Test("a bad look gets the preset loader's message, the same as the file would")
    func loaderMessages() {
        let looks: [(json: String, yaml: String)] = [
            (#"{"layers": [{"shader": "nope"}]}"#, "layers:\n  - shader: nope\n"),
            (#"{"layers": [{"shader": "bars", "colour": 1}]}"#, "layers:\n  - shader: bars\n    colour: 1\n"),
            (#"{"layers": [{"shader": "bars", "parameters": {"count": 100000}}]}"#, "layers:\n  - shader: bars\n    parameters: {count: 100000}\n"),
            (#"{"layers": [{"shader": "bars", "bind": {"height": {"feature": "loudness!"}}}]}"#,
             "layers:\n  - shader: bars\n    bind: {height: {feature: loudness!}}\n"),
            (#"{"layers": [{"shader": "bars", "opacity": 2}]}"#, "layers:\n  - shader: bars\n    opacity: 2\n"),
            (#"{"layers": []}"#, "layers: []\n"),
            (#"{"name": "x", "layers": [{"shader": "bars"}], "extra": true}"#, "name: x\nlayers: [{shader: bars}]\nextra: true\n"),
        ]
        for look in looks {
            let fromJSON = message { () throws(MarbleError) in _ = try StudioLook.parse(json: Array(look.json.utf8), source: "look") }
            let fromYAML = message { () throws(MarbleError) in _ = try Preset.parse(look.yaml, source: "look") }
            #expect(fromJSON != nil)
            #expect(fromJSON == fromYAML, "\(look.json)")
        }
    }

    @Test("a look past 1 MB, nested too deep, not an object or not UTF-8 is refused in one line")
    func bounds() {
        func refusal(_ bytes: [UInt8]) -> String? {
            message { () throws(MarbleError) in _ = try StudioLook.parse(json: bytes, source: "look") }
        }
        #expect(refusal([UInt8](repeating: 0x20, count: (1 << 20) + 1)) == "look: 1048577 bytes, larger than the 1 MB a look may be")
        let padded = "{\"layers\": [{\"shader\": \"bars\"}], \"name\": \"" + String(repeating: "a", count: 300_000) + "\"}"
        #expect(refusal(Array(padded.utf8)) == "look: 300044 bytes, larger than the 256 KB a preset may be")
        let deep = "{\"layers\": " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}"
        #expect(refusal(Array(deep.utf8)) == "look: line 1: nested deeper than 32 levels")
        #expect(refusal(Array("[1, 2]".utf8)) == "look: expected a JSON object with a `layers` list")
        #expect(refusal(Array("layers: [{shader: bars}]".utf8)) == "look: expected a JSON object with a `layers` list")
        #expect(refusal([0x7B, 0xFF, 0x7D]) == "look: not UTF-8 text")
        #expect(refusal(Array(#"{"layers": [{"shader": "bars"}], "a": &x}"#.utf8))
                == "look: line 1: YAML anchors and aliases (&name, *name) are not allowed in a preset")
    }
}

extension Preset {
    /// The preset once it has passed validation (a test's hand-made preset must be a real one).
    fileprivate func validated() throws -> Preset {
        try validate()
        return self
    }
}
