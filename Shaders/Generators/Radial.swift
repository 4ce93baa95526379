import MarbleCore

/// Radial spectrum: bars radiating out of a circle, the "cover in a ring" look.
///
/// Audio: `features.bands` resampled to the bars (the loudest band per bar when bars are fewer), each
/// bar `height_scale` × level × `length` long, going out from the circle of radius `radius`; with
/// `peaks`, a cap floats at `features.bandPeaks`. `mirror` spreads the spectrum over each half of the
/// ring, bass at the top, so the left and right halves are mirror images and the ring has no seam; the
/// ring turns by `rotation` degrees plus `spin` degrees per second of media time, and the beat
/// (`features.beatPulse`) swells the radius by up to `pulse`. Colour: `color`, or a gradient to
/// `color2` around the ring (`gradient: ring`) or along each bar (`length`). Bars are straight, of
/// constant width (the slot's arc at the inner radius less `gap`), with `rounded` or flat ends; each
/// pixel's coverage is computed from its signed distance to the bar, so edges are antialiased at any
/// angle, and each row visits only the columns a bar crosses. Nothing is drawn inside the circle, so a
/// cover picture can sit there. Sizes are fractions of the frame's shorter side.
package final class Radial: Shader, BlendedRowDrawing, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` only reads the per-bar arrays.
    package static let descriptor = ShaderDescriptor(
        name: "radial", summary: "Circular spectrum: bars radiating from a ring around the centre.", kind: .generator,
        drawsOnCanvas: true,
        parameters: [
            ParameterDescriptor("count", "Number of bars around the ring.", .integer(default: 120, range: 8...512)),
            ParameterDescriptor("radius", "Inner radius, fraction of the frame's shorter side.", .number(default: 0.2, range: 0.02...0.5)),
            ParameterDescriptor("length", "Length of a full-level bar, fraction of the shorter side.",
                                .number(default: 0.16, range: 0.01...0.5)),
            ParameterDescriptor("center_x", "Centre, fraction of the width.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("center_y", "Centre, fraction of the height.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("gap", "Empty fraction of each bar's slot at the inner radius.", .number(default: 0.35, range: 0...0.9)),
            ParameterDescriptor("height_scale", "Multiplies band levels (clamped to full length).", .number(default: 1, range: 0...4)),
            ParameterDescriptor("rotation", "Angle of the first bar, degrees clockwise from the top.",
                                .number(default: 0, range: -360...360)),
            ParameterDescriptor("spin", "Turns the ring by this many degrees per second of media time.",
                                .number(default: 0, range: -360...360)),
            ParameterDescriptor("mirror", "Spectrum on each half, mirrored left/right (no seam).", .flag(default: true)),
            ParameterDescriptor("pulse", "The beat swells the radius by up to this fraction.", .number(default: 0.12, range: 0...1)),
            ParameterDescriptor("color", "Bar colour (start of the gradient).", .color(default: Color(parsing: "#49e6ff")!)),
            ParameterDescriptor("color2", "End colour of the gradient.", .color(default: Color(parsing: "#ff4fd8")!)),
            ParameterDescriptor("gradient", "none, ring (around the ring) or length (from the circle outwards).",
                                .choice(default: "ring", options: ["none", "ring", "length"])),
            ParameterDescriptor("rounded", "Round both ends of every bar.", .flag(default: true)),
            ParameterDescriptor("peaks", "Draw caps at the falling band peaks.", .flag(default: false)),
            ParameterDescriptor("peak_color", "Colour of the peak caps.", .color(default: .white)),
        ])

    private enum Gradient { case none, ring, length }
    private let count: Int, mirror: Bool, rounded: Bool, peaks: Bool
    private let gradient: Gradient
    // Per bar (and per cap after the bars), rewritten in `prepare`: direction (sin, −cos) of the bar,
    // its start and end distance from the centre, its colour.
    private let sines: UnsafeMutablePointer<Float>, cosines: UnsafeMutablePointer<Float>
    private let starts: UnsafeMutablePointer<Float>, ends: UnsafeMutablePointer<Float>
    private let pixels: UnsafeMutablePointer<UInt32>
    private let isBar: UnsafeMutablePointer<Bool>   // false for a peak cap
    private let lowest: UnsafeMutablePointer<Float>, highest: UnsafeMutablePointer<Float>  // y extent from the centre
    private let levels: UnsafeMutablePointer<Float>, peakLevels: UnsafeMutablePointer<Float>
    private var records = 0
    // Colour by distance from the circle, for `gradient: length` (sized in `configure`).
    private var ramp: UnsafeMutablePointer<UInt32> = allocateFilled(1, 0)
    private var rampCount = 1
    // Per frame.
    private var centreX: Float = 0, centreY: Float = 0, inner: Float = 0, halfWidth: Float = 1
    private var blendMode = BlendMode.normal, opacity: UInt32 = 255
    private var covered = 0..<0

    package init(parameters: ShaderParameters) throws {
        count = parameters.integer("count")
        mirror = parameters.flag("mirror")
        rounded = parameters.flag("rounded")
        peaks = parameters.flag("peaks")
        gradient = switch parameters.choice("gradient") { case "none": .none; case "length": .length; default: .ring }
        sines = allocateFilled(2 * count, 0); cosines = allocateFilled(2 * count, 0)
        starts = allocateFilled(2 * count, 0); ends = allocateFilled(2 * count, 0)
        pixels = allocateFilled(2 * count, 0); isBar = allocateFilled(2 * count, true)
        lowest = allocateFilled(2 * count, 0); highest = allocateFilled(2 * count, 0)
        levels = allocateFilled(count, 0); peakLevels = allocateFilled(count, 0)
    }

    deinit {
        for p in [sines, cosines, starts, ends, levels, peakLevels, lowest, highest] { p.deallocate() }
        pixels.deallocate(); isBar.deallocate(); ramp.deallocate()
    }

    package func configure(width: Int, height: Int) {
        let needed = max(1, min(width, height) + 2)
        guard needed != rampCount else { return }
        ramp.deallocate()
        ramp = allocateFilled(needed, 0)
        rampCount = needed
    }

    package func prepare(_ uniforms: FrameUniforms, parameters p: ShaderParameters) {
        blendMode = uniforms.blend
        opacity = byte(uniforms.opacity)
        let short = Float(min(uniforms.width, uniforms.height))
        let f = uniforms.features
        let beat = f.beatPulse.isFinite ? clamp01(f.beatPulse) : 0
        inner = p.number("radius") * short * (1 + p.number("pulse") * beat)
        let longest = p.number("length") * short
        centreX = p.number("center_x") * Float(uniforms.width)
        centreY = p.number("center_y") * Float(uniforms.height)
        let slot = 2 * Float.pi / Float(count)
        halfWidth = max(0.5, (1 - p.number("gap")) * slot * inner * 0.5)
        let turn = (p.number("rotation") + wrapped(Double(p.number("spin")) * uniforms.time, period: 360)) * Float.pi / 180
        let scale = p.number("height_scale")
        let slots = mirror ? (count + 1) / 2 : count
        resampleBands(f.bands, into: levels, count: slots)
        resampleBands(f.bandPeaks, into: peakLevels, count: slots)
        let first = PremultipliedColor(p.color("color")), second = PremultipliedColor(p.color("color2"))
        let cap = PremultipliedColor(p.color("peak_color")).packed
        let capLength = max(1.5, short * 0.003)
        var reach: Float = 0
        records = 0
        @inline(__always) func record(_ angle: Float, _ start: Float, _ end: Float, _ pixel: UInt32, bar: Bool) {
            guard end - start >= 0.25 else { return }
            let s = fastSin(angle), c = fastCos(angle)
            sines[records] = s; cosines[records] = c
            // y of the grown rectangle's corners (y = −v·cos + u·sin): the rows the bar can touch.
            let across = abs(s) * (halfWidth + 1)
            lowest[records] = min(-(start - 1) * c, -(end + 1) * c) - across - 1
            highest[records] = max(-(start - 1) * c, -(end + 1) * c) + across + 1
            starts[records] = start; ends[records] = end; pixels[records] = pixel; isBar[records] = bar
            reach = max(reach, end)
            records += 1
        }
        for i in 0..<count {
            let k = mirror ? min(i, count - 1 - i) : i
            let angle = turn + (Float(i) + 0.5) * slot
            let length = clamp01(levels[k] * scale) * longest
            let t = mirror ? Float(k) / Float(max(1, slots - 1)) : Float(i) / Float(max(1, count - 1))
            let colour = gradient == .ring ? first.mixed(with: second, t).packed : first.packed
            record(angle, inner, inner + length, colour, bar: true)
            if peaks {
                let top = inner + max(length, clamp01(peakLevels[k] * scale) * longest) + capLength
                record(angle, top, top + capLength, cap, bar: false)
            }
        }
        if gradient == .length {
            for d in 0..<rampCount { ramp[d] = first.mixed(with: second, clamp01(Float(d) / max(1, longest))).packed }
        }
        let lower = Int((centreY - reach - 2).rounded(.down)), upper = Int((centreY + reach + 2).rounded(.up))
        let from = max(0, lower), to = min(uniforms.height, upper)
        covered = records > 0 && from < to ? from..<to : 0..<0
    }

    package func coveredRows(height: Int) -> Range<Int> { covered }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        drawRows(blending: blendMode, target, rows)
    }

    @inline(__always)
    func drawRows<B: BlendFunction>(_: B.Type, _ target: TextureView, _ rows: Range<Int>) {
        let width = target.width
        let hw = halfWidth, bands = records
        for y in rows.clamped(to: covered) {
            let dst = target.row32(y)
            let py = Float(y) + 0.5 - centreY
            for k in 0..<bands {
                // Bar frame: v along the bar (d = (sin, −cos)), u across it (n = (cos, sin)).
                guard py >= lowest[k] && py <= highest[k] else { continue }
                let s = sines[k], c = cosines[k], start = starts[k], end = ends[k]
                let radius = rounded ? min(hw, (end - start) * 0.5) : 0
                // Columns where the bar, grown by a pixel, crosses this row: v ∈ [start − 1, end + 1] and
                // |u| ≤ hw + 1, each a range of px for a fixed py.
                var lo = -Float.infinity, hi = Float.infinity
                @inline(__always) func limit(_ a: Float, _ b: Float, _ slope: Float, _ offset: Float) {
                    if abs(slope) < 1e-6 {
                        if offset < a || offset > b { lo = .infinity }
                    } else {
                        let p = (a - offset) / slope, q = (b - offset) / slope
                        lo = max(lo, min(p, q)); hi = min(hi, max(p, q))
                    }
                }
                limit(start - 1, end + 1, s, -py * c)
                limit(-hw - 1, hw + 1, c, py * s)
                guard lo <= hi else { continue }
                let first = max(0, Int((lo + centreX - 0.5).rounded(.up)))
                let last = min(width - 1, Int((hi + centreX - 0.5).rounded(.down)))
                guard first <= last else { continue }
                let pixel = pixels[k]
                for x in first...last {
                    let px = Float(x) + 0.5 - centreX
                    let v = px * s - py * c, u = px * c + py * s
                    // Signed distance to the bar: a box with corners rounded by `radius` (0: flat ends).
                    let qx = abs(u) - hw + radius, qy = abs(v - (start + end) * 0.5) - (end - start) * 0.5 + radius
                    let ox = max(qx, 0), oy = max(qy, 0)
                    let distance = (ox * ox + oy * oy).squareRoot() + min(max(qx, qy), 0) - radius
                    let coverage = weight256(0.5 - distance)
                    guard coverage > 0 else { continue }
                    let colour = gradient == .length && isBar[k]
                        ? ramp[min(rampCount - 1, max(0, Int(v - inner)))] : pixel
                    let p = scalePixel(colour, coverage)
                    dst[x] = B.blend(Blend.scaled(p, opacity: opacity), onto: dst[x])
                }
            }
        }
    }
}
