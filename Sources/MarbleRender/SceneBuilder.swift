import Shaders
import MarbleCore

/// Turns a preset plus the job's inputs into the layers to draw.
///
/// When the job has a picture (the input's own video, or `--background`), a `media` layer goes at the
/// bottom, replacing the preset's background: its first layer when that is a full-frame generator
/// (solid, gradient, a generative background; not sparse ones like bars or waveform); `--effect` kernels
/// then process that picture (they go right above it). Without a picture, effects go on top. A title
/// (`--title`) is a `text` layer above everything; `lyrics` (for `--lyrics`, `--captions`) goes on top
/// when the scene has no `lyrics` layer of its own.
package enum SceneBuilder {
    package static func layers(preset: Preset, effects: [String], hasPicture: Bool, title: String? = nil,
                               lyrics: LayerSpec? = nil) throws(MarbleError) -> Preset {
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
        if let title { layers.append(titleLayer(title)) }
        if let lyrics, !layers.contains(where: { $0.shader == lyrics.shader }) { layers.append(lyrics) }
        var scene = preset
        scene.layers = layers
        return scene
    }

    /// The `text` layer `--title` adds: the template in the lower third, centred, white with a dark
    /// outline and a soft shadow, fading in over the first second and out over the last.
    package static func titleLayer(_ template: String) -> LayerSpec {
        LayerSpec(shader: "text", parameters: [
            "text": .text(template), "y": .number(0.8), "size": .number(60), "max_width": .number(0.86),
            "outline": .number(2.5), "shadow": .number(3), "shadow_blur": .number(8),
        ])
    }

    /// The `lyrics` layer `--lyrics` and `--captions` add: its defaults, and for captions no next line.
    package static func lyricsLayer(captions: Bool) -> LayerSpec {
        LayerSpec(shader: "lyrics", parameters: captions ? ["next_opacity": .number(0), "y": .number(0.86)] : [:])
    }
}
