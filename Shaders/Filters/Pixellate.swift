import MarbleCore

/// Pixellate: a block mosaic of the picture, blocks growing with loudness.
///
/// Audio: block size = `size` · (1 + `react` · (level / 2 + beat pulse)), in pixels at 1080p (scaled
/// with the height): blocks breathe with the loudness and burst on every beat.
/// Each block takes the mean of four samples a quarter of the way in from each side (less shimmer
/// than one centre sample, and centred on the block); the grid is centred on the frame so resizing blocks zoom around the middle.
/// Versus Marble's Metal original (block size from sin(loudness), which wrapped back to small blocks
/// when loud, and one sample per block): monotonic size, smoother colour.
package final class Pixellate: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` only reads per-frame values.
    package static let descriptor = ShaderDescriptor(
        name: "pixellate", summary: "Block mosaic whose blocks grow with loudness and burst on beats.", kind: .filter,
        parameters: [
            ParameterDescriptor("size", "Block size in pixels at 1080p when silent.", .number(default: 12, range: 2...256)),
            ParameterDescriptor("react", "How much loudness and beats enlarge blocks.", .number(default: 1.5, range: 0...8)),
        ])

    private var block = 8

    package init(parameters: ShaderParameters) throws {}

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let drive = AudioDrive(uniforms.features)
        let size = parameters.number("size") * Float(uniforms.height) / 1080 * (1 + parameters.number("react") * (0.5 * drive.level + drive.beat))
        block = max(1, Int(clamp(size, 1, 4096)))
    }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let width = min(target.width, source.width), height = source.height
        let b = block
        // Block edges sit at centre + k·b.
        let originX = (width / 2) % b - b, originY = (height / 2) % b - b
        for y in rows {
            let dst = target.row32(y)
            guard y < height, width > 0 else { fillPixels(dst, target.width, 0); continue }
            let top = originY + ((y - originY) / b) * b
            let y0 = min(height - 1, max(0, top + b / 4)), y1 = min(height - 1, max(0, top + b - 1 - b / 4))
            let rowA = source.row32(y0), rowB = source.row32(y1)
            var left = originX
            while left < width {
                let x0 = min(width - 1, max(0, left + b / 4)), x1 = min(width - 1, max(0, left + b - 1 - b / 4))
                let color = average4(rowA[x0], rowA[x1], rowB[x0], rowB[x1])
                let start = max(0, left), end = min(width, left + b)
                if start < end { fillPixels(dst + start, end - start, color) }
                left += b
            }
            if width < target.width { fillPixels(dst + width, target.width - width, 0) }
        }
    }
}
