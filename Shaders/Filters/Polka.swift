import MarbleCore

/// Polka: colour halftone — the picture redrawn as dots on paper, each dot sized by its cell's light.
///
/// Audio: dots swell on beats (radius × (1 + `react` · beat pulse)). Cells form a staggered grid
/// (odd rows shifted half a cell, like print screens); each cell samples the picture at its centre,
/// and the dot radius grows with the square root of the sample's luma so area tracks brightness.
/// Dot edges are antialiased from the distance to the centre. Versus Marble's Metal original (dot size
/// from loudness only, ignoring the picture): dots carry the picture, audio only modulates them.
package final class Polka: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` only reads per-frame values.
    package static let descriptor = ShaderDescriptor(
        name: "polka", summary: "Colour halftone dots sized by the picture's brightness.", kind: .filter,
        parameters: [
            ParameterDescriptor("cell", "Grid cell size in pixels at 1080p.", .number(default: 18, range: 4...128)),
            ParameterDescriptor("paper", "Colour between the dots.", .color(default: Color(parsing: "#101018")!)),
            ParameterDescriptor("react", "Dot swell on beats (× beat pulse).", .number(default: 0.3, range: 0...2)),
        ])

    private var cell: Float = 18, swell: Float = 1
    private var paper: UInt32 = 0

    package init(parameters: ShaderParameters) throws {}

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let drive = AudioDrive(uniforms.features)
        cell = max(2, parameters.number("cell") * Float(uniforms.height) / 1080)
        swell = 1 + parameters.number("react") * drive.beat
        paper = PremultipliedColor(parameters.color("paper")).packed
    }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let width = min(target.width, source.width), height = source.height
        let size = cell, invSize = 1 / cell
        // A dot of full luma touches the cell's corners' midpoints: radius = 0.62 · cell.
        let maxRadius = 0.62 * size * swell
        // A dot reaches maxRadius + 1 pixels from its centre (the rim's antialiasing), which with a
        // strong swell spans more than one cell: visit every cell row whose dots can reach this row.
        let reach = Int(((maxRadius + 1) * invSize + 0.5).rounded(.up))
        for y in rows {
            let dst = target.row32(y)
            guard y < height, width > 0 else { fillPixels(dst, target.width, 0); continue }
            let py = Float(y) + 0.5
            // Cell rows within `reach` of this one (rows alternate in stagger), top to bottom.
            let cellRow = floorFast(py * invSize)
            fillPixels(dst, width, paper)
            for dr in -reach...reach {
                let row = cellRow + Float(dr)
                let centerY = (row + 0.5) * size
                let dy = py - centerY
                guard abs(dy) < maxRadius + 1 else { continue }
                let shift = (Int(row) & 1) == 0 ? 0 : 0.5 * size
                let sampleY = min(height - 1, max(0, Int(centerY)))
                let srcRow = source.row32(sampleY)
                let firstCell = Int(floorFast((-shift - maxRadius) * invSize)), lastCell = Int((Float(width) - shift + maxRadius) * invSize)
                for c in firstCell...max(firstCell, lastCell) {
                    let centerX = (Float(c) + 0.5) * size + shift
                    let sample = srcRow[min(width - 1, max(0, Int(centerX)))]
                    let radius = maxRadius * Float(luma(sample)).squareRoot() * (1.0 / 15.97)
                    guard radius > 0.05, abs(dy) < radius + 1 else { continue }
                    let halfSpan = (max(0, (radius + 1) * (radius + 1) - dy * dy)).squareRoot()
                    let x0 = max(0, Int(centerX - halfSpan)), x1 = min(width, Int(centerX + halfSpan) + 1)
                    guard x0 < x1 else { continue }
                    // Pixels whose centre lies within radius − 0.5 are fully covered: a plain fill.
                    // Only the rim on either side is blended by its coverage.
                    let inner = max(0, radius - 0.5)
                    let innerHalf = (max(0, inner * inner - dy * dy)).squareRoot()
                    var fill0 = min(x1, max(x0, Int(clamp(floorFast(centerX - innerHalf - 0.5) + 1, 0, Float(width)))))
                    var fill1 = min(x1, max(fill0, Int(clamp(floorFast(centerX + innerHalf - 0.5) + 1, 0, Float(width)))))
                    if innerHalf <= 0 { fill0 = x0; fill1 = x0 }
                    @inline(__always) func rim(_ x: Int) {
                        let dx = Float(x) + 0.5 - centerX
                        let cover = clamp01(radius + 0.5 - (dx * dx + dy * dy).squareRoot())
                        dst[x] = lerpPixel(dst[x], sample, weight256(cover))
                    }
                    for x in x0..<fill0 { rim(x) }
                    if fill0 < fill1 { fillPixels(dst + fill0, fill1 - fill0, sample) }
                    for x in fill1..<x1 { rim(x) }
                }
            }
            if width < target.width { fillPixels(dst + width, target.width - width, 0) }
        }
    }
}
