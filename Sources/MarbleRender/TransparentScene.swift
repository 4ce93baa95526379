import Shaders
import MarbleCore

extension SceneBuilder {
    /// The scene of a transparent render (`--transparent`): `scene` without its background, so what the
    /// other layers leave uncovered stays transparent. The background is the bottom layer when it is
    /// a full-frame generator drawn normally (solid, gradient, a generative background, the media
    /// picture: the layer a `--background` picture replaces); sparse generators (bars, waveform, text)
    /// and filters stay. Throws `.option` when nothing would be left to draw.
    package static func withoutBackground(_ scene: Preset) throws(MarbleError) -> Preset {
        var result = scene
        if let first = scene.layers.first, isBackground(first) { result.layers.removeFirst() }
        guard !result.layers.isEmpty else {
            throw MarbleError(.option, "--transparent: the preset \(scene.name) has only a background; nothing would be drawn")
        }
        return result
    }

    /// Whether `layer` fills the frame by itself from the bottom: a generator that draws every pixel
    /// (not one that draws on the canvas), drawn normally at full opacity.
    static func isBackground(_ layer: LayerSpec) -> Bool {
        guard let type = ShaderLibrary.shader(named: layer.shader) else { return false }
        let d = type.descriptor
        return d.kind == .generator && !d.drawsOnCanvas && layer.blend == .normal && layer.opacity >= 1
    }
}
