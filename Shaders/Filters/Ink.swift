import MarbleCore

/// Ink: Sobel edges of the picture's luminance, painted as dark ink on grey paper.
///
/// Audio: edge gain × (1 + `beat_boost` · beatPulse) × (1 + `react` · level), so lines darken on beats
/// and fainter detail inks in when the music is loud; the paper dims by up to a fifth (× `react`) on
/// each beat, so the page pulses with the rhythm. Reads `source` (the
/// picture under the layer); `mix` lets the original show through. Alpha follows the source.
/// Luminance is computed once per source row into a three-row ring per strip (scratch from
/// `configure`, slots keyed by the strip's first row, so concurrent strips never share memory); the
/// ink/paper mix for each of the 257 edge weights is a table filled in `prepare`.
/// Versus Marble's Metal original (Sobel on an unsmoothed loudness-scaled texture, ignoring alpha):
/// the same edges, with beat response from the features and premultiplied alpha kept.
package final class Ink: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract. Scratch rows are partitioned by strip (rows
    // 4·lo…4·lo+3 of `scratch` belong to the strip starting at row lo), so strips write disjoint memory.
    package static let descriptor = ShaderDescriptor(
        name: "ink", summary: "Sobel edges of the luminance as ink on grey paper.", kind: .filter,
        parameters: [
            ParameterDescriptor("strength", "Edge gain: higher shows fainter edges.", .number(default: 1.5, range: 0...8)),
            ParameterDescriptor("ink", "Colour of the edges.", .color(default: Color(parsing: "#141414")!)),
            ParameterDescriptor("paper", "Colour where there are no edges.", .color(default: Color(parsing: "#c8c8c8")!)),
            ParameterDescriptor("mix", "How much of the original picture shows through.", .number(default: 0, range: 0...1)),
            ParameterDescriptor("beat_boost", "Extra edge gain on a beat (× beat pulse).", .number(default: 0.5, range: 0...4)),
            ParameterDescriptor("react", "How much loudness inks fainter edges and beats dim the paper.",
                                .number(default: 1, range: 0...4)),
        ])

    private var configuredWidth = 0, configuredHeight = 0
    /// Per strip starting at row lo, rows 4·lo…4·lo+3 of `scratch`: three luma rows (each padded with a
    /// copy of its edge pixels) and one row of edge weights.
    private var scratch: UnsafeMutablePointer<Int32> = allocateFilled(1, 0)
    /// Ink over paper for every edge weight 0…256: the per-pixel colour work becomes one load.
    private let shades: UnsafeMutablePointer<UInt32> = allocateFilled(257, 0)
    private var gain: Float = 0
    private var mixWeight: UInt32 = 0

    package init(parameters: ShaderParameters) throws {}

    deinit { scratch.deallocate(); shades.deallocate() }

    package func configure(width: Int, height: Int) {
        guard width != configuredWidth || height != configuredHeight else { return }
        scratch.deallocate()
        // Not initialised on purpose: a strip writes a row before reading it, and slots of strips that
        // never run cost no physical memory.
        scratch = .allocate(capacity: 4 * height * (width + 2))
        configuredWidth = width; configuredHeight = height
    }

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let drive = AudioDrive(uniforms.features)
        let react = parameters.number("react")
        let boost = (1 + parameters.number("beat_boost") * drive.beat) * (1 + react * min(1, drive.level))
        // A full black→white step gives |∇| = 4·255 = 1020; weights run 0…256.
        gain = parameters.number("strength") * boost * 256 / 1020
        let ink = PremultipliedColor(parameters.color("ink"))
        let paperColor = parameters.color("paper"), dim = max(0, 1 - 0.2 * react * drive.beat)
        let paper = PremultipliedColor(Color(red: paperColor.red * dim, green: paperColor.green * dim,
                                             blue: paperColor.blue * dim, alpha: paperColor.alpha))
        for w in 0...256 { shades[w] = paper.mixed(with: ink, Float(w) / 256).packed }
        mixWeight = weight256(parameters.number("mix"))
    }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let width = target.width, height = target.height
        guard width == configuredWidth, height == configuredHeight,
              source.width >= width, source.height >= height, !rows.isEmpty else {
            for y in rows { fillPixels(target.row32(y), width, 0) }
            return
        }
        let stride = width + 2
        let slots = scratch + 4 * rows.lowerBound * stride
        let weights = slots + 3 * stride
        // Source row r lives in slot (r − lo + 1) mod 3.
        func slot(_ r: Int) -> UnsafeMutablePointer<Int32> { slots + ((r - rows.lowerBound + 1) % 3) * stride }
        func fill(_ r: Int) {
            let src = source.row32(min(max(r, 0), height - 1))
            let dst = slot(r)
            for x in 0..<width { dst[x + 1] = luma(src[x]) }
            dst[0] = dst[1]; dst[width + 1] = dst[width]
        }
        fill(rows.lowerBound - 1); fill(rows.lowerBound)
        let g = gain, keep = mixWeight
        for y in rows {
            fill(y + 1)
            let above = slot(y - 1), here = slot(y), below = slot(y + 1)
            for x in 0..<width {
                let gx = (above[x + 2] &+ 2 &* here[x + 2] &+ below[x + 2]) &- (above[x] &+ 2 &* here[x] &+ below[x])
                let gy = (below[x] &+ 2 &* below[x + 1] &+ below[x + 2]) &- (above[x] &+ 2 &* above[x + 1] &+ above[x + 2])
                let fx = Float(gx), fy = Float(gy)
                weights[x] = roundToInt32(clamp((fx * fx + fy * fy).squareRoot() * g, 0, 256))
            }
            let src = source.row32(y), dst = target.row32(y)
            for x in 0..<width {
                let shade = shades[Int(weights[x])]
                let s = src[x]
                let alpha = s >> 24
                let drawn = alpha == 255 ? shade : scalePixel(shade, alpha &+ (alpha >> 7))
                dst[x] = keep == 0 ? drawn : lerpPixel(drawn, s, keep)
            }
        }
    }
}
