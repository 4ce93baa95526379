import MarbleKit

/// Rings: concentric rings around the centre that move outwards with time and swell with the bass.
///
/// A shader is a class: a descriptor (its name and parameters), `prepare` once per frame (alone: derive
/// per-frame values here), and `render` for a band of rows (called from several threads at once, so
/// it only reads the values `prepare` stored and writes its own rows).
final class Rings: Shader, @unchecked Sendable {
    static let descriptor = ShaderDescriptor(
        name: "rings", summary: "Concentric rings swelling with the bass.", kind: .generator, isOpaque: true,
        parameters: [
            ParameterDescriptor("color", "Colour of the rings.", .color(default: Color(red: 0.2, green: 0.9, blue: 1))),
            ParameterDescriptor("spacing", "Distance between rings, fraction of the height.", .number(default: 0.08, range: 0.01...0.5)),
        ])

    private var phase: Float = 0, spacing: Float = 0.08, swell: Float = 0
    private var color = Color.white

    init(parameters: ShaderParameters) throws {}

    func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        color = parameters.color("color")
        spacing = parameters.number("spacing") * Float(uniforms.height)
        phase = Float(uniforms.time * 0.5).truncatingRemainder(dividingBy: 1)
        swell = min(1, uniforms.features.bass * 0.5)
    }

    func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let cx = Float(target.width) / 2, cy = Float(target.height) / 2
        for y in rows {
            let row = target.row(y)
            let dy = Float(y) - cy
            for x in 0..<target.width {
                let dx = Float(x) - cx
                let ring = ((dx * dx + dy * dy).squareRoot() / spacing - phase).truncatingRemainder(dividingBy: 1)
                let light = max(0, 1 - abs(ring - 0.5) * (10 - 6 * swell))
                row[4 * x] = UInt8(255 * light * color.red)
                row[4 * x + 1] = UInt8(255 * light * color.green)
                row[4 * x + 2] = UInt8(255 * light * color.blue)
                row[4 * x + 3] = 255
            }
        }
    }
}
