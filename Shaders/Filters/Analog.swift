import KernelsAVX2
import MarbleCore

/// Analog: film look — brightness, contrast, saturation and film grain over the picture.
///
/// Audio: grain strength × (1 + `react` · level) and contrast × (1 + 0.2 · `react` · level), so loud
/// passages get grainier and punchier, and each beat flashes the exposure (+0.1 · `react` · beat
/// pulse, like a projector's flicker). Grain is a fixed
/// function of (x, y, frame index): two reads from the noise table at offsets hashed from the frame
/// index (a triangular distribution, and no visible 256-pixel tiling), so frames repeat exactly.
/// Works on premultiplied colour (contrast pivots around half the pixel's alpha; results stay ≤ alpha).
/// Versus Marble's Metal original: grain came from wall-clock time (never repeatable) and the picture
/// was treated as opaque.
package final class Analog: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` only reads per-frame values.
    package static let descriptor = ShaderDescriptor(
        name: "analog", summary: "Film grain with brightness, contrast and saturation.", kind: .filter,
        parameters: [
            ParameterDescriptor("brightness", "Added light, −1…1.", .number(default: 0, range: -1...1)),
            ParameterDescriptor("contrast", "Contrast around mid-grey (1 unchanged).", .number(default: 1.1, range: 0...3)),
            ParameterDescriptor("saturation", "Colour intensity (0 grey, 1 unchanged).", .number(default: 0.85, range: 0...3)),
            ParameterDescriptor("grain", "Film grain strength.", .number(default: 0.12, range: 0...1)),
            ParameterDescriptor("react", "Extra grain and contrast with loudness, exposure flash on beats.",
                                .number(default: 1, range: 0...4)),
        ])

    /// The whole colour grade as one affine map on premultiplied colour: c' = M·c + lift·alpha.
    /// (Contrast k and brightness b: k·c + (0.5(1 − k) + b)·a; saturation s: s·c + (1 − s)·luma(c), whose
    /// rows sum to 1, so it leaves the lift unchanged.)
    private var grade = FilmGrade.Grade(m: SIMD16(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0), lift: 0, grain: 0)
    private var offsetA = 0, offsetB = 0

    package init(parameters: ShaderParameters) throws {}

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let drive = AudioDrive(uniforms.features)
        let react = parameters.number("react")
        let k = parameters.number("contrast") * (1 + 0.2 * react * min(1, drive.level)), sat = parameters.number("saturation")
        let (wr, wg, wb): (Float, Float, Float) = (0.299, 0.587, 0.114)
        let rest = 1 - sat
        let m = SIMD16<Float>(k * (sat + rest * wr), k * rest * wg, k * rest * wb,
                              k * rest * wr, k * (sat + rest * wg), k * rest * wb,
                              k * rest * wr, k * rest * wg, k * (sat + rest * wb), 0, 0, 0, 0, 0, 0, 0)
        grade = FilmGrade.Grade(m: m, lift: 0.5 * (1 - k) + parameters.number("brightness") + 0.1 * react * drive.beat,
                                grain: parameters.number("grain") * (1 + react * drive.level))
        let h = Noise.hash(UInt32(truncatingIfNeeded: uniforms.frameIndex) &+ 0x9E37_79B9)
        offsetA = Int(h & 0xFFFF); offsetB = Int(h >> 16)
    }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let width = min(target.width, source.width)
        for y in rows {
            let dst = target.row32(y)
            guard y < source.height else { fillPixels(dst, target.width, 0); continue }
            let src = source.row32(y)
            let rowA = Noise.table + ((y &+ offsetA >> 8) & 255) << 8
            let rowB = Noise.table + ((y &* 5 &+ offsetB >> 8) & 255) << 8
            // Walk the row in runs where both noise rows read contiguously (no wrap at 256), so the
            // inner loop has no gathers and vectorises.
            var x = 0
            while x < width {
                let a = (x &+ offsetA) & 255, b = (x &+ offsetB) & 255
                let run = min(width - x, 256 - max(a, b))
                filmRun(src + x, dst + x, count: run, noiseA: rowA + a, noiseB: rowB + b)
                x += run
            }
            if width < target.width { fillPixels(dst + width, target.width - width, 0) }
        }
    }

    @inline(__always)
    private func filmRun(_ src: UnsafeMutablePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>, count: Int,
                         noiseA: UnsafeMutablePointer<Float>, noiseB: UnsafeMutablePointer<Float>) {
        let grade = self.grade
        if WideKernels.enabled {
            KernelsAVX2.filmGrade(src, dst, count: count, noiseA: noiseA, noiseB: noiseB, grade: grade)
        } else {
            FilmGrade.run(src, dst, count: count, noiseA: noiseA, noiseB: noiseB, grade: grade)
        }
    }
}
