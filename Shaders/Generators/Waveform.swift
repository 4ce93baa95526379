import MarbleCore

/// Waveform: an oscilloscope trace of the audio samples across the width.
///
/// Audio: `features.waveformLeft` (or right, or their mean) scaled by `amplitude`. Each column holds the
/// line's vertical extent between its two edges, widened by half the thickness over the cosine of the
/// slope, so steep strokes keep their width; the pixel's coverage is the overlap of that extent with
/// the pixel (a box filter: antialiased without supersampling). `glow` adds a soft 1/(1+d²) halo,
/// `fill` shades the area between the centre line and the trace. Thickness is in pixels at 1080p and
/// scales with the frame height. Versus Marble's Metal original (a fixed-width line sampled per pixel,
/// gaps on steep slopes): continuous strokes at any slope and size.
package final class Waveform: Shader, BlendedRowDrawing, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` only reads the per-column arrays.
    package static let descriptor = ShaderDescriptor(
        name: "waveform", summary: "Oscilloscope line of the audio waveform.", kind: .generator,
        drawsOnCanvas: true,
        parameters: [
            ParameterDescriptor("color", "Line colour.", .color(default: .white)),
            ParameterDescriptor("thickness", "Line width in pixels at 1080p (scales with height).",
                                .number(default: 3, range: 0.5...24)),
            ParameterDescriptor("amplitude", "Multiplies the samples; 1 makes full scale span `height`.",
                                .number(default: 1, range: 0...8)),
            ParameterDescriptor("height", "Fraction of the frame height spanned by a full-scale signal.",
                                .number(default: 0.5, range: 0.05...1)),
            ParameterDescriptor("center_y", "Vertical position of the zero line, fraction of the height.",
                                .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("style", "line, glow (soft halo) or fill (shaded area under the trace).",
                                .choice(default: "line", options: ["line", "glow", "fill"])),
            ParameterDescriptor("glow", "Halo strength for style glow; shade opacity for style fill.",
                                .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("channel", "Which samples to draw.",
                                .choice(default: "left", options: ["left", "right", "mix"])),
        ])

    private enum Style { case line, glow, fill }
    private enum Channel { case left, right, mix }
    private let style: Style
    private let channel: Channel
    // Per column, sized in `configure`, rewritten in `prepare`: the line's extent [top, bottom] in
    // pixel rows (y grows downwards) and the trace's y at the column centre.
    private var mode = BlendMode.normal, opacity: UInt32 = 255
    private var capacity = 0
    private var top: UnsafeMutablePointer<Float> = .allocate(capacity: 1)
    private var bottom: UnsafeMutablePointer<Float> = .allocate(capacity: 1)
    private var trace: UnsafeMutablePointer<Float> = .allocate(capacity: 1)
    private var edges: UnsafeMutablePointer<Float> = .allocate(capacity: 2)
    // Per frame.
    private var pixel: UInt32 = 0
    private var zeroLine: Float = 0, glowStrength: Float = 0, glowRadius2: Float = 1
    private var glowReach: Float = 0   // the halo is drawn this far from the stroke (fainter than 1/65 beyond)
    private var firstRow = 0, lastRow = -1   // rows outside never get ink

    package init(parameters: ShaderParameters) throws {
        style = switch parameters.choice("style") { case "glow": .glow; case "fill": .fill; default: .line }
        channel = switch parameters.choice("channel") { case "right": .right; case "mix": .mix; default: .left }
    }

    deinit { top.deallocate(); bottom.deallocate(); trace.deallocate(); edges.deallocate() }

    package func configure(width: Int, height: Int) {
        guard width != capacity else { return }
        top.deallocate(); bottom.deallocate(); trace.deallocate(); edges.deallocate()
        capacity = width
        top = .allocate(capacity: width); bottom = .allocate(capacity: width); trace = .allocate(capacity: width)
        edges = .allocate(capacity: width + 1)
        for p in [top, bottom, trace] { p.initialize(repeating: 0, count: width) }
        edges.initialize(repeating: 0, count: width + 1)
    }

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let width = min(uniforms.width, capacity)
        let h = Float(uniforms.height)
        mode = uniforms.blend
        opacity = byte(uniforms.opacity)
        pixel = PremultipliedColor(parameters.color("color")).packed
        zeroLine = parameters.number("center_y") * h
        let gain = -parameters.number("amplitude") * parameters.number("height") * h * 0.5
        let halfThickness = max(0.5, parameters.number("thickness") * h / 1080 * 0.5)
        glowStrength = parameters.number("glow")
        let glowRadius = halfThickness * 6
        glowRadius2 = glowRadius * glowRadius
        guard width > 0 else { firstRow = 0; lastRow = -1; return }

        let features = uniforms.features
        // y of the trace at every column edge (x = 0…width).
        for e in 0...width {
            let position = Float(e) / Float(width)
            let sample: Float = switch channel {
            case .left: Self.sample(features.waveformLeft, at: position)
            case .right: Self.sample(features.waveformRight, at: position)
            case .mix: 0.5 * (Self.sample(features.waveformLeft, at: position)
                              + Self.sample(features.waveformRight, at: position))
            }
            edges[e] = zeroLine + gain * sample
        }
        var lowest = Float.infinity, highest = -Float.infinity
        for x in 0..<width {
            let a = edges[x], b = edges[x + 1]
            let slope = b - a
            let widen = halfThickness * (1 + slope * slope).squareRoot()
            top[x] = min(a, b) - widen
            bottom[x] = max(a, b) + widen
            trace[x] = 0.5 * (a + b)
            lowest = min(lowest, top[x]); highest = max(highest, bottom[x])
        }
        glowReach = glowRadius * 4
        let reach: Float = style == .glow ? glowReach : 1
        if style == .fill { lowest = min(lowest, zeroLine); highest = max(highest, zeroLine) }
        firstRow = max(0, Int(clamp(lowest - reach, -1, h + 1)))
        lastRow = min(uniforms.height - 1, Int(clamp(highest + reach, -1, h + 1)))
    }


    package func coveredRows(height: Int) -> Range<Int> {
        lastRow < firstRow ? 0..<0 : max(0, firstRow)..<min(height, lastRow + 1)
    }

    /// Linear interpolation of `samples` at `position` 0…1, clamped to −1…1 (NaN → −1 is impossible:
    /// the analyser promises finite values; clamp keeps a bad one inside the frame anyway).
    private static func sample(_ samples: [Float], at position: Float) -> Float {
        let n = samples.count
        guard n > 1 else { return n == 1 ? clamp(samples[0], -1, 1) : 0 }
        let p = position * Float(n - 1)
        let i = min(n - 2, Int(p))
        return clamp(mix(samples[i], samples[i + 1], p - Float(i)), -1, 1)
    }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        drawRows(blending: mode, target, rows)
    }

    /// Column by column within the band: each column only visits the rows its stroke (plus the glow's
    /// reach, or the span down to the zero line for `fill`) can touch, so a thin line costs a few pixels
    /// per column instead of the whole band width times every row between the trace's extremes.
    @inline(__always)
    func drawRows<B: BlendFunction>(_: B.Type, _ target: TextureView, _ rows: Range<Int>) {
        let width = min(target.width, capacity)
        let band = rows.clamped(to: max(0, firstRow)..<max(max(0, firstRow), lastRow + 1))
        guard !band.isEmpty, width > 0 else { return }
        let pixel = Blend.scaled(self.pixel, opacity: opacity)
        let top = self.top, bottom = self.bottom, trace = self.trace
        let base = target.row32(band.lowerBound), stride = target.bytesPerRow >> 2
        let bandTop = Float(band.lowerBound), bandBottom = Float(band.upperBound)
        let reach: Float = style == .glow ? glowReach : 0
        @inline(__always) func put(_ p: UInt32, _ x: Int, _ y: Int) {
            guard p != 0 else { return }
            let at = base + ((y &- band.lowerBound) &* stride &+ x)
            at.pointee = B.blend(p, onto: at.pointee)
        }
        for x in 0..<width {
            var from = top[x] - reach, to = bottom[x] + reach
            if style == .fill { from = min(from, min(trace[x], zeroLine)); to = max(to, max(trace[x], zeroLine)) }
            // Rows y with y + 1 > from and y < to.
            let first = Int(max(bandTop, from).rounded(.down))
            let end = Int(min(bandBottom, to).rounded(.up))
            guard first < end else { continue }
            for y in first..<end {
                let rowTop = Float(y), rowBottom = rowTop + 1
                let coverage = min(rowBottom, bottom[x]) - max(rowTop, top[x])
                switch style {
                case .line:
                    put(scalePixel(pixel, weight256(coverage)), x, y)
                case .glow:
                    let c = clamp01(coverage), center = rowTop + 0.5
                    let d = max(0, max(top[x] - center, center - bottom[x]))
                    let halo = glowStrength * glowRadius2 / (glowRadius2 + d * d * 4)
                    put(scalePixel(pixel, weight256(c + (1 - c) * halo)), x, y)
                case .fill:
                    let c = clamp01(coverage), t = trace[x]
                    let under = clamp01(min(rowBottom, max(t, zeroLine)) - max(rowTop, min(t, zeroLine)))
                    put(scalePixel(pixel, weight256(c + (1 - c) * under * glowStrength)), x, y)
                }
            }
        }
    }
}
