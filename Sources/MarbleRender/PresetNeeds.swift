import MarbleCore
import Shaders

extension Preset {
    /// The optional features its layers' shaders read (`ShaderDescriptor.needs`): what a job asks the
    /// analyser for (`FeatureExtractor.request`). Unknown shader names add nothing (validation reports them).
    public var featureNeeds: OptionalFeatures {
        layers.reduce(into: OptionalFeatures()) { needs, layer in
            needs.formUnion(ShaderLibrary.shader(named: layer.shader)?.descriptor.needs ?? [])
        }
    }
}

extension PresetLibrary {
    /// The optional features any of `names` (presets a live or play session can switch to) reads, with
    /// `scene`'s own. A preset that does not load adds nothing (it fails when chosen, as before).
    package static func featureNeeds(of names: [String], with scene: Preset) -> OptionalFeatures {
        names.reduce(into: scene.featureNeeds) { needs, name in
            if let preset = try? load(name) { needs.formUnion(preset.featureNeeds) }
        }
    }
}
