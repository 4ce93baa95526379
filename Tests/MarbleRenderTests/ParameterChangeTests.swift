import MarbleCore
@testable import MarbleRender
import Shaders
import Testing

@Suite("Parameter changes: applied to a preset as its own values are checked; numbers set in place keep the layers' state")
struct ParameterChangeTests {
    static let preset = Preset(name: "t", layers: [
        LayerSpec(shader: "gradient", parameters: ["from": .text("#000000"), "to": .text("#ffffff"), "angle": .number(0)]),
        LayerSpec(shader: "bars", bindings: ["gap": Binding(feature: "level", amount: 0.2, smoothing: 0)]),
    ])

    @Test("applied in order over the preset's values; the layer by index or shader name")
    func applies() throws {
        let changed = try Self.preset.applying([
            ParameterChange(layer: 0, name: "angle", value: .number(90)),
            ParameterChange(layer: 1, name: "count", value: .number(16)),
            ParameterChange(layer: 0, name: "angle", value: .number(45)),
        ])
        #expect(changed.layers[0].parameters["angle"] == .number(45))
        #expect(changed.layers[0].parameters["from"] == .text("#000000"))
        #expect(changed.layers[1].parameters["count"] == .number(16))
        #expect(Self.preset.layerIndex("1") == 1 && Self.preset.layerIndex("bars") == 1 && Self.preset.layerIndex("gradient") == 0)
        #expect(Self.preset.layerIndex("2") == nil && Self.preset.layerIndex("magma") == nil && Self.preset.layerIndex("-1") == nil)
    }

    @Test("a change that does not fit is one error naming it", arguments: [
        (ParameterChange(layer: 2, name: "angle", value: .number(1)), "no layer 2"),
        (ParameterChange(layer: 0, name: "nope", value: .number(1)), "no parameter \"nope\""),
        (ParameterChange(layer: 1, name: "count", value: .number(1000)), "bars.count"),
        (ParameterChange(layer: 0, name: "style", value: .text("spiral")), "gradient.style"),
    ])
    func refuses(change: ParameterChange, message: String) {
        #expect { try Self.preset.applying([change]) } throws: { ($0 as? MarbleError)?.message.contains(message) == true }
    }

    @Test("a number set in place draws what a compositor built with it draws; a bound one moves its base")
    func inPlace() throws {
        let w = 64, h = 36
        let uniforms = FrameUniforms(time: 0, frameIndex: 0, fps: Rational(30), width: w, height: h,
                                     features: AudioFeatures(bandCount: 16, waveformLength: 64))
        let change = ParameterChange(layer: 0, name: "angle", value: .number(45))   // from 0: left to right
        let live = try Compositor(preset: Self.preset, width: w, height: h, threads: 1)
        let before = Texture(width: w, height: h), after = Texture(width: w, height: h), fresh = Texture(width: w, height: h)
        live.render(uniforms, into: before)
        #expect(live.setNumberInPlace(change))
        #expect(live.setNumberInPlace(ParameterChange(layer: 1, name: "gap", value: .number(0.5))))
        live.render(uniforms, into: after)
        let rebuilt = try Compositor(preset: try Self.preset.applying([change, ParameterChange(layer: 1, name: "gap", value: .number(0.5))]),
                                     width: w, height: h, threads: 1)
        rebuilt.render(uniforms, into: fresh)
        let shows = after.packedBytes() != before.packedBytes(), same = after.packedBytes() == fresh.packedBytes()
        #expect(shows, "the change shows")
        #expect(same, "in place = built with the change")
    }

    @Test("what is not a number parameter is not set in place (the renderer rebuilds instead)", arguments: [
        ParameterChange(layer: 0, name: "from", value: .text("#ff0000")),
        ParameterChange(layer: 1, name: "mirror", value: .flag(true)),
        ParameterChange(layer: 0, name: "angle", value: .text("90")),
        ParameterChange(layer: 0, name: "nope", value: .number(1)),
        ParameterChange(layer: 5, name: "angle", value: .number(1)),
    ])
    func notInPlace(change: ParameterChange) throws {
        let compositor = try Compositor(preset: Self.preset, width: 16, height: 16, threads: 1)
        #expect(!compositor.setNumberInPlace(change))
    }
}
