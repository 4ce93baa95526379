import MarbleCore

/// Bars: the spectrum as vertical bars, bottom colour → top colour, with falling peak caps.
///
/// Audio: `features.bands` resampled to `count` bars (loudest band per bar when there are more bands
/// than bars), heights × `height_scale`; caps follow `features.bandPeaks`. Smoothing and peak fall come
/// from the analyser, so bars never jitter more than the features do. `mirror` grows bars up and down
/// from the horizontal centre line. Edges are antialiased with a signed distance per pixel, so bars
/// stay crisp at any count and size; `rounded` caps each bar with a half disc.
/// Versus Marble's Metal original (bar height from one loudness scalar through sin(), which wrapped
/// when loud): heights are clamped band levels, and the drawing cost is proportional to lit area.
package final class SpectrumBars: Shader, BlendedRowDrawing, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` only reads the per-bar arrays.
    package static let descriptor = ShaderDescriptor(
        name: "bars", summary: "Spectrum bars from the band levels, with peak caps.", kind: .generator,
        drawsOnCanvas: true,
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
    private let bodyLimit: UnsafeMutablePointer<Float>    // rows with v ≤ this are the bar's plain body
    private let flatLimit: UnsafeMutablePointer<Float>    // rows with v ≤ this have no rounded corner inside
    private let innerStart: UnsafeMutablePointer<Int>, innerEnd: UnsafeMutablePointer<Int>  // fully covered columns
    // Per bar and span column, in the body rows: the column's weight, which there depends on x alone
    // (distance = |x + 0.5 − cx| − halfWidth), so edge columns cost a table read instead of the shape code.
    private var edgeWeights: UnsafeMutablePointer<UInt32> = .allocate(capacity: 1)
    private var spanCapacity = 0
    private var tableFits = false   // every span fits its table row (false before `configure`)
    // Per frame geometry and colours.
    private var halfWidth: Float = 1, maxHeight: Float = 1, capHalf: Float = 1, baseLine: Float = 0
    private var bottom = PremultipliedColor(.black), top = PremultipliedColor(.black)
    private var capPixel: UInt32 = 0
    private var covered = 0..<0
    /// True when bars are so narrow that three spans can share a column.
    private var dense = false
    private var mode = BlendMode.normal, opacity: UInt32 = 255

    package init(parameters: ShaderParameters) throws {
        count = parameters.integer("count")
        mirror = parameters.flag("mirror")
        peaks = parameters.flag("peaks")
        rounded = parameters.flag("rounded")
        levels = allocateFilled(count, 0); peakLevels = allocateFilled(count, 0)
        heights = allocateFilled(count, 0); peakHeights = allocateFilled(count, 0)
        centers = allocateFilled(count, 0)
        spanStart = allocateFilled(count, 0); spanEnd = allocateFilled(count, 0)
        bodyLimit = allocateFilled(count, 0); flatLimit = allocateFilled(count, 0)
        innerStart = allocateFilled(count, 0); innerEnd = allocateFilled(count, 0)
    }

    deinit {
        for p in [levels, peakLevels, heights, peakHeights, centers, bodyLimit, flatLimit] { p.deallocate() }
        for p in [spanStart, spanEnd, innerStart, innerEnd] { p.deallocate() }
        edgeWeights.deallocate()
    }

    package func configure(width: Int, height: Int) {
        // A span is at most 2·halfWidth + 3 columns and halfWidth ≤ slot / 2.
        let capacity = Int(max(1, Float(width) / Float(count))) + 5
        guard capacity != spanCapacity else { return }
        edgeWeights.deallocate()
        spanCapacity = capacity
        edgeWeights = allocateFilled(count * capacity, 0)
    }

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let w = Float(uniforms.width), h = Float(uniforms.height)
        mode = uniforms.blend
        opacity = byte(uniforms.opacity)
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
        tableFits = true
        for i in 0..<count {
            heights[i] = clamp01(levels[i] * scale) * maxHeight
            // A cap marks where a bar has been: a band that has not risen above 2 % of the height has
            // none (a silent band's cap would sit on the base line as a blob, a dotted line of them).
            let peak = clamp01(peakLevels[i] * scale)
            peakHeights[i] = peak > 0.02 ? max(heights[i], peak * maxHeight) : -.infinity
            centers[i] = (Float(i) + 0.5) * slot
            spanStart[i] = max(0, Int(centers[i] - halfWidth - 1))
            spanEnd[i] = min(lastColumn, Int(centers[i] + halfWidth + 2))
            let r = rounded ? min(halfWidth, max(heights[i], 0.5)) : 0
            bodyLimit[i] = heights[i] - 0.5 - r
            flatLimit[i] = rounded ? heights[i] - r : .infinity
            // Pixel x is inside when |x + 0.5 − cx| ≤ halfW − 0.5, i.e. cx − halfW ≤ x ≤ cx + halfW − 1.
            innerStart[i] = Int((centers[i] - halfWidth).rounded(.up))
            innerEnd[i] = Int((centers[i] + halfWidth - 1).rounded(.down)) + 1
            let weights = edgeWeights + i * spanCapacity
            tableFits = tableFits && spanEnd[i] - spanStart[i] <= spanCapacity
            for x in spanStart[i]..<max(spanStart[i], min(spanEnd[i], spanStart[i] + spanCapacity)) {
                weights[x - spanStart[i]] = weight256(0.5 - (abs(Float(x) + 0.5 - centers[i]) - halfWidth))
            }
        }
        dense = false
        for i in 0..<max(0, count - 2) where spanEnd[i] > spanStart[i + 2] { dense = true }
        var reach: Float = 0
        for i in 0..<count { reach = max(reach, heights[i] + 2, peaks ? peakHeights[i] + 2 * capHalf + 2 : 0) }
        let upper = max(0, Int((baseLine - reach).rounded(.down)))
        let lower = min(uniforms.height, Int((mirror ? baseLine + reach : baseLine).rounded(.up)) + 1)
        covered = upper..<max(upper, lower)
    }

    package func coveredRows(height: Int) -> Range<Int> { covered }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        drawRows(blending: mode, target, rows)
    }

    @inline(__always)
    func drawRows<B: BlendFunction>(_ blend: B.Type, _ target: TextureView, _ rows: Range<Int>) {
        let height = Float(target.height)
        for y in rows {
            let dst = target.row32(y)
            let py = Float(y) + 0.5
            let v = mirror ? abs(baseLine - py) : baseLine - py   // distance above the base line
            guard v >= 0, py <= height else { continue }
            let barPixel = bottom.mixed(with: top, clamp01(v / maxHeight)).packed
            if dense {
                drawDenseRow(blend, dst, v: v, barPixel: barPixel)
                continue
            }
            // A bar's span shares its edge columns with the next bar's; the left bar draws them once,
            // with both bars' coverage added, and the right bar starts after them.
            var previous = -2
            for i in 0..<count {
                let (bar, cap) = reaches(i, v)
                guard bar || cap else { continue }
                let first = previous == i - 1 ? max(spanEnd[i - 1], spanStart[i]) : spanStart[i]
                drawSpan(blend, dst, bar: i, from: first, v: v, barPixel: barPixel, drawBar: bar, drawCap: cap)
                previous = i
            }
        }
    }

    /// Bars so narrow that a column can lie in three spans: add every bar's coverage per column, then
    /// blend once. Slower per pixel, but such bars cover few pixels each.
    private func drawDenseRow<B: BlendFunction>(_: B.Type, _ dst: UnsafeMutablePointer<UInt32>, v: Float, barPixel: UInt32) {
        var low = 0
        let last = spanEnd[count - 1]
        for x in spanStart[0]..<last {
            while low < count && spanEnd[low] <= x { low += 1 }
            var sum: UInt32 = 0
            var k = low
            while k < count && spanStart[k] <= x {
                let (bar, cap) = reaches(k, v)
                if bar || cap { sum = Blend.saturatingAdd(sum, pixel(x, bar: k, v: v, barPixel, bar, cap)) }
                k += 1
            }
            if sum != 0 { dst[x] = B.blend(Blend.scaled(sum, opacity: opacity), onto: dst[x]) }
        }
    }

    /// Whether row distance `v` touches bar `i`'s body or its peak cap.
    @inline(__always)
    private func reaches(_ i: Int, _ v: Float) -> (bar: Bool, cap: Bool) {
        let bar = v <= heights[i] + 1
        let cap = peaks && v >= peakHeights[i] - 1 && v <= peakHeights[i] + 2 * capHalf + 1
        return (bar, cap)
    }

    /// Bar `i`'s columns from `start` in one row, blended onto the picture. Coverage = 0.5 − signed
    /// distance to the shape, clamped; where the next bar's span begins, its coverage is added
    /// (saturating), so touching bars (gap 0) share their edge pixel without a seam. (Narrower bars, whose
    /// spans overlap three at a time, go through ``drawDenseRow(_:v:barPixel:)`` instead.)
    /// Inside the bar body (below its top, its rounded corners and its cap) coverage is exactly 1, so
    /// those columns are filled with the bar colour and only the edges go through the distance code.
    @inline(__always)
    private func drawSpan<B: BlendFunction>(_: B.Type, _ dst: UnsafeMutablePointer<UInt32>, bar i: Int, from first: Int,
                                            v: Float, barPixel: UInt32, drawBar: Bool, drawCap: Bool) {
        var start = first
        let end = spanEnd[i]
        let shared = i + 1 < count ? spanStart[i + 1] : end
        let next = i + 1 < count ? reaches(i + 1, v) : (bar: false, cap: false)
        let body = drawBar && !drawCap && v <= bodyLimit[i]
        let nextBody = next.bar && !next.cap && v <= bodyLimit[i + 1]
        // Body rows of this bar, next to nothing or to the next bar's body: weights from the table.
        let tabulated = tableFits && body && (nextBody || !(next.bar || next.cap))
        let weights = edgeWeights + i * spanCapacity - spanStart[i]
        let nextWeights = i + 1 < count ? edgeWeights + (i + 1) * spanCapacity - spanStart[i + 1] : weights
        @inline(__always) func column(_ x: Int) {
            var p: UInt32
            if tabulated {
                p = scalePixel(barPixel, weights[x])
                if x >= shared && nextBody { p = Blend.saturatingAdd(p, scalePixel(barPixel, nextWeights[x])) }
            } else {
                p = pixel(x, bar: i, v: v, barPixel, drawBar, drawCap)
                if x >= shared && (next.bar || next.cap) {
                    p = Blend.saturatingAdd(p, pixel(x, bar: i + 1, v: v, barPixel, next.bar, next.cap))
                }
            }
            if p != 0 { dst[x] = B.blend(Blend.scaled(p, opacity: opacity), onto: dst[x]) }
        }
        // Inside the bar's width every column of this row gets the same pixel unless a rounded corner
        // reaches in: the body's colour, or (cap rows, the bar's top edge) one pixel computed once.
        if !drawBar || v <= flatLimit[i] {
            let inner = max(start, innerStart[i])
            let innerEnd = min(shared, self.innerEnd[i])
            if inner < innerEnd {
                for x in start..<inner { column(x) }
                let solid = Blend.scaled(body ? barPixel : pixel(inner, bar: i, v: v, barPixel, drawBar, drawCap),
                                         opacity: opacity)
                if solid == 0 {
                    // nothing to draw
                } else if solid >> 24 == 255 && B.self == NormalBlend.self {
                    dst.advanced(by: inner).update(repeating: solid, count: innerEnd - inner)
                } else {
                    for x in inner..<innerEnd { dst[x] = B.blend(solid, onto: dst[x]) }
                }
                start = innerEnd
            }
        }
        for x in start..<end { column(x) }
    }

    /// One pixel of bar `i` and its cap (premultiplied, not yet blended).
    @inline(__always)
    private func pixel(_ x: Int, bar i: Int, v: Float, _ barPixel: UInt32, _ drawBar: Bool, _ drawCap: Bool) -> UInt32 {
        let cx = centers[i], h = heights[i], halfW = halfWidth
        let u = abs(Float(x) + 0.5 - cx)
        var pixel: UInt32 = 0
        if drawBar {
            var distance = max(u - halfW, v - h)
            if rounded {
                let r = min(halfW, max(h, 0.5))
                let qx = u - (halfW - r), qy = v - (h - r)
                distance = qx > 0 && qy > 0 ? (qx * qx + qy * qy).squareRoot() - r : distance
            }
            pixel = scalePixel(barPixel, weight256(0.5 - distance))
        }
        if drawCap {
            let capDistance = max(u - halfW, abs(v - (peakHeights[i] + capHalf)) - capHalf)
            pixel = lerpPixel(pixel, capPixel, weight256(0.5 - capDistance))
        }
        return pixel
    }
}
