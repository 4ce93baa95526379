/// Bars: the spectrum as vertical bars, bottom colour → top colour, with falling peak caps.
///
/// Audio: `features.bands` resampled to `count` bars (loudest band per bar when there are more bands
/// than bars), heights × `height_scale`; caps follow `features.bandPeaks`. Smoothing and peak fall come
/// from the analyser, so bars never jitter more than the features do. `mirror` grows bars up and down
/// from the horizontal centre line. Edges are antialiased with a signed distance per pixel, so bars
/// stay crisp at any count and size; `rounded` caps each bar with a half disc.
/// Versus Marble's Metal original (bar height from one loudness scalar through sin(), which wrapped
/// when loud): heights are clamped band levels, and the drawing cost is proportional to lit area.
import MarbleCore

public final class SpectrumBars: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` only reads the per-bar arrays.
    public static let descriptor = ShaderDescriptor(
        name: "bars", summary: "Spectrum bars from the band levels, with peak caps.", kind: .generator,
        parameters: [
            ParameterDescriptor("count", "Number of bars.", .integer(default: 64, range: 8...256)),
            ParameterDescriptor("gap", "Empty fraction of each bar's slot.", .number(default: 0.25, range: 0...0.9)),
            ParameterDescriptor("height_scale", "Multiplies band levels before drawing (clamped to full height).",
                                .number(default: 1, range: 0...4)),
            ParameterDescriptor("height", "Fraction of the frame (of each half when mirrored) a full band reaches.",
                                .number(default: 0.8, range: 0.05...1)),
            ParameterDescriptor("bottom_color", "Colour at the base of the bars.",
                                .color(default: Color(parsing: "#00d2ff")!)),
            ParameterDescriptor("top_color", "Colour at full height.", .color(default: Color(parsing: "#ff2ebd")!)),
            ParameterDescriptor("mirror", "Grow bars up and down from the horizontal centre line.", .flag(default: false)),
            ParameterDescriptor("peaks", "Draw falling peak caps from the band peaks.", .flag(default: true)),
            ParameterDescriptor("peak_color", "Colour of the peak caps.", .color(default: .white)),
            ParameterDescriptor("rounded", "Round the top of each bar with a half disc.", .flag(default: false)),
        ])

    private let count: Int
    private let mirror: Bool, peaks: Bool, rounded: Bool
    // Per bar, rewritten in `prepare`.
    private let levels: UnsafeMutablePointer<Float>
    private let peakLevels: UnsafeMutablePointer<Float>
    private let heights: UnsafeMutablePointer<Float>      // pixels above the base line
    private let peakHeights: UnsafeMutablePointer<Float>  // pixels, bottom of the cap
    private let centers: UnsafeMutablePointer<Float>      // pixel x of the bar centre
    private let spanStart: UnsafeMutablePointer<Int>, spanEnd: UnsafeMutablePointer<Int>
    // Per frame geometry and colours.
    private var halfWidth: Float = 1, maxHeight: Float = 1, capHalf: Float = 1, baseLine: Float = 0
    private var bottom = PremultipliedColor(.black), top = PremultipliedColor(.black)
    private var capPixel: UInt32 = 0

    public init(parameters: ShaderParameters) throws {
        count = parameters.integer("count")
        mirror = parameters.flag("mirror")
        peaks = parameters.flag("peaks")
        rounded = parameters.flag("rounded")
        levels = allocateFilled(count, 0); peakLevels = allocateFilled(count, 0)
        heights = allocateFilled(count, 0); peakHeights = allocateFilled(count, 0)
        centers = allocateFilled(count, 0)
        spanStart = allocateFilled(count, 0); spanEnd = allocateFilled(count, 0)
    }

    deinit {
        for p in [levels, peakLevels, heights, peakHeights, centers] { p.deallocate() }
        spanStart.deallocate(); spanEnd.deallocate()
    }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let w = Float(uniforms.width), h = Float(uniforms.height)
        let slot = w / Float(count)
        halfWidth = max(0.5, slot * (1 - parameters.number("gap")) * 0.5)
        maxHeight = parameters.number("height") * (mirror ? h * 0.5 : h)
        baseLine = mirror ? h * 0.5 : h
        capHalf = max(1, h * 0.004)
        bottom = PremultipliedColor(parameters.color("bottom_color"))
        top = PremultipliedColor(parameters.color("top_color"))
        capPixel = PremultipliedColor(parameters.color("peak_color")).packed

        let scale = parameters.number("height_scale")
        resampleBands(uniforms.features.bands, into: levels, count: count)
        resampleBands(uniforms.features.bandPeaks, into: peakLevels, count: count)
        let lastColumn = uniforms.width
        for i in 0..<count {
            heights[i] = clamp01(levels[i] * scale) * maxHeight
            peakHeights[i] = max(heights[i], clamp01(peakLevels[i] * scale) * maxHeight)
            centers[i] = (Float(i) + 0.5) * slot
            spanStart[i] = max(0, Int(centers[i] - halfWidth - 1))
            spanEnd[i] = min(lastColumn, Int(centers[i] + halfWidth + 2))
        }
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let height = Float(target.height)
        let capReach: Float = peaks ? 2 * capHalf + 1 : 0
        for y in rows {
            let dst = target.row32(y)
            fillPixels(dst, target.width, 0)
            let py = Float(y) + 0.5
            let v = mirror ? abs(baseLine - py) : baseLine - py   // distance above the base line
            guard v >= 0, py <= height else { continue }
            let barPixel = bottom.mixed(with: top, clamp01(v / maxHeight)).packed
            for i in 0..<count {
                let h = heights[i]
                let peak = peakHeights[i]
                let reachesBar = v <= h + 1
                let reachesCap = peaks && v >= peak - 1 && v <= peak + capReach
                guard reachesBar || reachesCap else { continue }
                drawSpan(dst, width: target.width, bar: i, v: v, barPixel: barPixel, drawBar: reachesBar, drawCap: reachesCap)
            }
        }
    }

    /// One bar's columns in one row. Coverage = 0.5 − signed distance to the shape, clamped; bars add
    /// (saturating) so that touching bars (gap 0) share their edge pixel without a seam.
    @inline(__always)
    private func drawSpan(_ dst: UnsafeMutablePointer<UInt32>, width: Int, bar i: Int, v: Float, barPixel: UInt32,
                          drawBar: Bool, drawCap: Bool) {
        let cx = centers[i], h = heights[i], halfW = halfWidth
        let capCenter = peakHeights[i] + capHalf
        let r = rounded ? min(halfW, max(h, 0.5)) : 0
        // Clipped to the row too, should uniforms and target ever disagree on the width.
        let end = min(spanEnd[i], width)
        guard spanStart[i] < end else { return }
        for x in spanStart[i]..<end {
            let u = abs(Float(x) + 0.5 - cx)
            var pixel: UInt32 = 0
            if drawBar {
                var distance = max(u - halfW, v - h)
                if rounded {
                    let qx = u - (halfW - r), qy = v - (h - r)
                    distance = qx > 0 && qy > 0 ? (qx * qx + qy * qy).squareRoot() - r : distance
                }
                pixel = scalePixel(barPixel, weight256(0.5 - distance))
            }
            if drawCap {
                let capDistance = max(u - halfW, abs(v - capCenter) - capHalf)
                pixel = lerpPixel(pixel, capPixel, weight256(0.5 - capDistance))
            }
            dst[x] = Blend.saturatingAdd(dst[x], pixel)
        }
    }
}
