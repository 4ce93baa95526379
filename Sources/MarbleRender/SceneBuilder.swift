import Shaders
import MarbleCore

/// Turns a preset plus the job's inputs into the layers to draw.
///
/// When the job has a picture (the input's own video, or `--background`), a `media` layer goes at the
/// bottom, replacing the preset's background: its first layer when that is a full-frame generator
/// (solid, gradient, a generative background; not sparse ones like bars or waveform); `--effect` kernels
/// then process that picture (they go right above it). Without a picture, effects go on top.
package enum SceneBuilder {
    package static func layers(preset: Preset, effects: [String], hasPicture: Bool) throws(MarbleError) -> Preset {
        var layers = preset.layers
        var effectLayers: [LayerSpec] = []
        for name in effects {
            guard ShaderLibrary.shader(named: name) != nil else {
                let known = ShaderLibrary.all.map { $0.descriptor.name }.joined(separator: ", ")
                throw MarbleError(.option, "--effect \(name): unknown effect (known: \(known))")
            }
            effectLayers.append(LayerSpec(shader: name))
        }
        if hasPicture {
            if let first = layers.first, let type = ShaderLibrary.shader(named: first.shader),
               type.descriptor.kind == .generator, !type.descriptor.drawsOnCanvas {
                layers.removeFirst()
            }
            layers = [LayerSpec(shader: "media")] + effectLayers + layers
        } else {
            layers += effectLayers
        }
        var scene = preset
        scene.layers = layers
        return scene
    }
}
