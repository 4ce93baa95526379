/// Bokeh: a lens blur — each pixel is a weighted mean of taps on a golden-angle spiral filling a disc,
/// with bright taps weighted up so highlights bloom into discs, as out-of-focus lights do.
///
/// Audio: radius × (1 + `react` · slow bass): the focus breathes with the low end. Tap k of n sits at
/// radius R·√(k/n), angle k·2.39996 (the golden angle), which covers the disc evenly with no rings.
/// Weight = 1 + `highlights` · (luma/255)⁴ from a 256-entry table. Evaluated at quarter resolution with
/// nearest-pixel taps from the full picture, then stretched. Versus Marble's Metal original (a fixed
/// 5×5 box labelled bokeh): a real disc kernel with highlight weighting.
import MarbleCore

public final class Bokeh: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; the scratch of `grid` is partitioned by strip.
    public static let descriptor = ShaderDescriptor(
        name: "bokeh", summary: "Golden-angle spiral lens blur with blooming highlights.", kind: .filter,
        parameters: [
            ParameterDescriptor("radius", "Blur radius in pixels at 1080p.", .number(default: 14, range: 1...64)),
            ParameterDescriptor("highlights", "Extra weight of bright taps.", .number(default: 6, range: 0...32)),
            ParameterDescriptor("react", "Extra radius with the slow bass (× bass).", .number(default: 0.3, range: 0...2)),
        ])

    static let taps = 28
    private var grid: LowResolution?
    /// Tap offsets for the current radius, in pixels.
    private let offsetX = allocateFilled(Bokeh.taps, Float(0)), offsetY = allocateFilled(Bokeh.taps, Float(0))
    private let weights = allocateFilled(256, Float(1))

    public init(parameters: ShaderParameters) throws {}

    deinit { offsetX.deallocate(); offsetY.deallocate(); weights.deallocate() }

    public func configure(width: Int, height: Int) {
        if grid?.width != width || grid?.height != height { grid = LowResolution(width: width, height: height, scale: 4) }
    }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let drive = AudioDrive(uniforms.features)
        let radius = parameters.number("radius") * Float(uniforms.height) / 1080
            * (1 + parameters.number("react") * drive.bassSlow)
        for k in 0..<Self.taps {
            let r = radius * (Float(k) / Float(Self.taps - 1)).squareRoot()
            let angle = Float(k) * 2.399_963
            offsetX[k] = r * fastCos(angle); offsetY[k] = r * fastSin(angle)
        }
        let highlights = parameters.number("highlights")
        for l in 0..<256 {
            let x = Float(l) / 255
            weights[l] = 1 + highlights * x * x * x * x
        }
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        guard let grid, grid.width == target.width, grid.height == target.height,
              source.width >= target.width, source.height >= target.height else {
            for y in rows { fillPixels(target.row32(y), target.width, 0) }
            return
        }
        grid.render(target, rows: rows) { j, out in
            let py = grid.center(j)
            for i in 0..<grid.lowWidth {
                let px = grid.center(i)
                var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0, total: Float = 0
                for k in 0..<Self.taps {
                    let p = nearestPixel(source, px + offsetX[k], py + offsetY[k])
                    let pr = p & 0xFF, pg = (p >> 8) & 0xFF, pb = (p >> 16) & 0xFF
                    // Cheap luma (r + 2g + b)/4 picks the weight.
                    let w = weights[Int((pr &+ 2 &* pg &+ pb) >> 2)]
                    r += w * Float(pr); g += w * Float(pg); b += w * Float(pb); a += w * Float(p >> 24)
                    total += w
                }
                let k = 1 / (255 * total)
                let alpha = a * k
                out[i] = packPremultiplied(min(r * k, alpha), min(g * k, alpha), min(b * k, alpha), alpha)
            }
        }
    }
}
