import MarbleCore

/// Media: the job's decoded video frame or still image (`FrameUniforms/input`), drawn opaque.
///
/// Audio: none. The picture arrives already scaled to the output size; pixels outside it (a smaller
/// input) and frames without input are black. Alpha is forced to 255, which for premultiplied input is
/// the picture over black. Versus Marble: Marble's effects sampled the camera/video texture directly;
/// here the media is a layer of its own so effects can filter it (they read `source`).
package final class Media: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` only reads `dim`.
    package static let descriptor = ShaderDescriptor(
        name: "media", summary: "Draws the input video frame or image (black without one).", kind: .generator,
        isOpaque: true,
        parameters: [
            ParameterDescriptor("brightness", "Multiplies the picture: 1 as decoded, lower dims it behind visuals.",
                                .number(default: 1, range: 0...1)),
        ])

    /// Brightness as a 0…256 weight for ``scalePixel``.
    private var dim: UInt32 = 256

    package init(parameters: ShaderParameters) throws {}

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        dim = weight256(parameters.number("brightness"))
    }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let black: UInt32 = 0xFF00_0000
        guard let input = uniforms.input else {
            for y in rows { fillPixels(target.row32(y), target.width, black) }
            return
        }
        let width = min(input.width, target.width)
        let k = dim
        for y in rows {
            let dst = target.row32(y)
            guard y < input.height else { fillPixels(dst, target.width, black); continue }
            let src = input.row32(y)
            if k >= 256 {
                for x in 0..<width { dst[x] = src[x] | black }
            } else {
                for x in 0..<width { dst[x] = scalePixel(src[x], k) | black }
            }
            if width < target.width { fillPixels(dst + width, target.width - width, black) }
        }
    }
}
