import MarbleCore

/// Solid: one colour over the whole frame.
///
/// Audio: none. Versus Marble's Metal original (a clear colour): identical, but the colour may be
/// translucent (premultiplied on the way in), so the descriptor does not promise opacity.
package final class Solid: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` only reads `pixel`.
    package static let descriptor = ShaderDescriptor(
        name: "solid", summary: "Fills the frame with one colour.", kind: .generator,
        parameters: [
            ParameterDescriptor("color", "Fill colour (may be translucent).", .color(default: .black)),
        ])

    private var pixel: UInt32

    package init(parameters: ShaderParameters) throws {
        pixel = PremultipliedColor(parameters.color("color")).packed
    }

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        pixel = PremultipliedColor(parameters.color("color")).packed
    }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        for y in rows { fillPixels(target.row32(y), target.width, pixel) }
    }

    /// Every row is `pixel`, when it is opaque.
    package func uniformRow(_ y: Int) -> UInt32? { pixel >> 24 == 0xFF ? pixel : nil }
}
