import MarbleCore
@testable import MarbleRender
import Shaders
import Testing

/// What a scene asks the analysis for: the union of its layers' `ShaderDescriptor.needs`.
@Suite("Preset feature needs")
struct PresetNeedsTests {
    @Test("a scene needs what its shaders read, and nothing for shaders that read no optional feature")
    func union() throws {
        let plain = Preset(name: "p", layers: [LayerSpec(shader: "gradient"), LayerSpec(shader: "bars")])
        #expect(plain.featureNeeds.isEmpty)
        let both = Preset(name: "b", layers: [LayerSpec(shader: "spectrogram"), LayerSpec(shader: "piano"), LayerSpec(shader: "nope")])
        #expect(both.featureNeeds == [.spectrum, .pitches])
    }

    @Test("the bundled piano and spectrogram presets ask for pitches and the spectrum; a session's union covers them")
    func bundled() throws {
        #expect(try PresetLibrary.load("piano").featureNeeds == .pitches)
        #expect(try PresetLibrary.load("spectrogram").featureNeeds == .spectrum)
        #expect(try PresetLibrary.load("spectrum").featureNeeds.isEmpty)
        let scene = try PresetLibrary.load("spectrum")
        #expect(PresetLibrary.featureNeeds(of: PresetLibrary.names(), with: scene) == [.spectrum, .pitches])
        #expect(PresetLibrary.featureNeeds(of: ["bars", "magma"], with: scene).isEmpty)
    }
}
