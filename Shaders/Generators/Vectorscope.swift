import MarbleCore

/// Vectorscope (goniometer): the stereo signal as a point moving in a plane, with phosphor persistence.
///
/// Audio: every sample pair of `features.waveformLeft/Right` is a point. `lissajous` is the studio
/// goniometer: mid (L+R) up, side (R−L) across, so mono is a vertical line, left-only and right-only
/// lean 45° left and right, and out-of-phase sound is a horizontal line; full scale stays inside the
/// circle. `lissajous_xy` plots L across and R up (mono on the diagonal). `polar` folds the goniometer
/// into a half disc: the angle is the L/R balance (mono straight up, anti-phase flat on the base line),
/// the radius the amplitude. `draw: lines` joins consecutive samples with antialiased strokes, `dots`
/// deposits an antialiased disc per sample (dense stereo turns into a bright cloud).
///
/// Persistence: the trace goes into an intensity buffer that keeps the last frames, fading by half
/// every `half_life` seconds (0 shows only the current frame), updated in `prepare` from frame to
/// frame; intensities above 1 (crowded dots) glow towards white. A frame that does not follow the
/// previous one (a seek backwards, a fresh start) starts from a clear screen. `gain` zooms,
/// `auto_gain` adds a gain that follows the recent peak (1 s release, up to 16×) so quiet songs fill
/// the scope. `graticule` draws the circle, axes and L/R diagonals faintly. Sizes are fractions of the
/// frame's shorter side; `thickness` is in pixels at 1080p and scales with the frame height.
package final class Vectorscope: Shader, BlendedRowDrawing, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `prepare` alone writes the phosphor buffer,
    // `render` only reads it.
    package static let descriptor = ShaderDescriptor(
        name: "vectorscope", summary: "Stereo goniometer (Lissajous or polar) with phosphor persistence.",
        kind: .generator, drawsOnCanvas: true,
        parameters: [
            ParameterDescriptor("mode", "lissajous (mid up, side across), lissajous_xy (L across, R up) or polar (half disc).",
                                .choice(default: "lissajous", options: ["lissajous", "lissajous_xy", "polar"])),
            ParameterDescriptor("draw", "lines (strokes between consecutive samples) or dots (one per sample).",
                                .choice(default: "lines", options: ["lines", "dots"])),
            ParameterDescriptor("color", "Trace colour.", .color(default: Color(parsing: "#6bffb0")!)),
            ParameterDescriptor("size", "Diameter of the scope, fraction of the frame's shorter side.",
                                .number(default: 0.8, range: 0.1...1)),
            ParameterDescriptor("center_x", "Centre of the scope, fraction of the width.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("center_y", "Centre of the scope, fraction of the height.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("gain", "Zoom: multiplies the samples.", .number(default: 1, range: 0.1...16)),
            ParameterDescriptor("auto_gain", "Also scale by a gain that follows the recent peak (1 s release, at most 16×).",
                                .flag(default: false)),
            ParameterDescriptor("thickness", "Line width (dot diameter) in pixels at 1080p.", .number(default: 2, range: 0.5...12)),
            ParameterDescriptor("intensity", "Brightness each frame deposits (lines: up to 1 is plain, dots add up).",
                                .number(default: 1, range: 0.05...4)),
            ParameterDescriptor("half_life", "Seconds for the phosphor to fade to half (0: no persistence).",
                                .number(default: 0.12, range: 0...5)),
            ParameterDescriptor("graticule", "Draw a faint circle, axes and L/R diagonals.", .flag(default: true)),
            ParameterDescriptor("graticule_color", "Graticule colour (with alpha).",
                                .color(default: Color(red: 1, green: 1, blue: 1, alpha: 0.22))),
        ])

    private enum Mode { case lissajous, xy, polar }
    private let mode: Mode
    private let dots: Bool
    private let initialSize: Float
    // Allocated in `configure`, advanced in `prepare`: the picture of the previous frame (`history`)
    // and of this one (`phosphor`, drawn from `history` decayed plus this frame's samples), so the same
    // frame prepared again (with other features, or not) is redrawn from the same start.
    private var phosphor = PhosphorBuffer(side: 1), history = PhosphorBuffer(side: 1)
    private var lastFrame = Int.min
    private var step: Float = -1   // seconds from the previous frame to this one, −1 after a restart
    // Recent peak distance of the points from the centre (auto gain), after the previous frame and this one.
    private var historyEnvelope: Float = 0, envelope: Float = 0
    // Per frame.
    private var blendMode = BlendMode.normal, opacity: UInt32 = 255
    private var trace = PremultipliedColor(.white), gridPixel: UInt32 = 0
    private var originX = 0, originY = 0, scopeSide = 1   // the scope's square on screen, in pixels
    private var toBuffer: Float = 1                       // buffer pixels per screen pixel
    private var gridHalfWidth: Float = 0.5
    private var covered = 0..<0

    package init(parameters: ShaderParameters) throws {
        mode = switch parameters.choice("mode") { case "lissajous_xy": .xy; case "polar": .polar; default: .lissajous }
        dots = parameters.choice("draw") == "dots"
        initialSize = parameters.number("size")
    }

    /// The buffer matches the scope's size in pixels (capped at 1024² at sizes above 1080p; a bound
    /// `size` that changes later is resampled bilinearly).
    package func configure(width: Int, height: Int) {
        let side = max(1, min(1024, Int((initialSize * Float(min(width, height))).rounded())))
        guard side != phosphor.side else { return }
        phosphor = PhosphorBuffer(side: side); history = PhosphorBuffer(side: side)
        lastFrame = .min
    }

    package func prepare(_ uniforms: FrameUniforms, parameters p: ShaderParameters) {
        blendMode = uniforms.blend
        opacity = byte(uniforms.opacity)
        trace = PremultipliedColor(p.color("color"))
        gridPixel = PremultipliedColor(p.color("graticule_color")).packed
        let w = uniforms.width, h = uniforms.height
        let side = max(1, Int((p.number("size") * Float(min(w, h))).rounded()))
        scopeSide = side
        originX = Int((p.number("center_x") * Float(w) - Float(side) * 0.5).rounded())
        originY = Int((p.number("center_y") * Float(h) - Float(side) * 0.5).rounded())
        toBuffer = Float(phosphor.side) / Float(side)
        let heightScale = Float(h) / 1080
        gridHalfWidth = max(0.5, 0.5 * heightScale)
        advance(uniforms, p, halfWidth: max(0.5, p.number("thickness") * heightScale * 0.5) * toBuffer)
        // Rows: the graticule's (the square, or its upper half and base line for polar) and the trace's.
        let grid = p.flag("graticule") && gridPixel != 0
        var lower = Int.max, upper = Int.min
        if grid {
            lower = originY - 2
            upper = mode == .polar ? originY + side * 3 / 4 + 3 : originY + side + 2
        }
        if !phosphor.rows.isEmpty {
            let scale = Float(side) / Float(phosphor.side)
            lower = min(lower, originY + Int(Float(phosphor.rows.lowerBound) * scale) - 2)
            upper = max(upper, originY + Int(Float(phosphor.rows.upperBound) * scale) + 2)
        }
        let from = max(0, max(lower, originY)), to = min(h, min(upper, originY + side))
        covered = from < to ? from..<to : 0..<0
        if !grid { gridPixel = 0 }
    }

    /// Decays the phosphor by the frames since the last call and draws this frame's samples into it.
    private func advance(_ uniforms: FrameUniforms, _ p: ShaderParameters, halfWidth: Float) {
        let frame = uniforms.frameIndex
        if frame != lastFrame {
            // A new frame: this frame's picture becomes the history; a seek back or a first frame
            // starts from a clear screen.
            let fps = Float(uniforms.fps.doubleValue)
            step = frame > lastFrame && lastFrame != .min && fps > 0 ? Float(frame - lastFrame) / fps : -1
            swap(&phosphor, &history)
            historyEnvelope = envelope
            if step < 0 { history.clear(); historyEnvelope = 0 }
            lastFrame = frame
        }
        let seconds = step, halfLife = p.number("half_life")
        phosphor.decayed(from: history, by: seconds >= 0 && halfLife > 0 ? fastExp2(-seconds / halfLife) : 0)

        let left = uniforms.features.waveformLeft, right = uniforms.features.waveformRight
        let count = left.count
        guard count > 0 else { return }
        var gain = p.number("gain")
        if p.flag("auto_gain") {
            var loudest: Float = 0
            for i in 0..<count {
                let (x, y) = point(left[i], i < right.count ? right[i] : left[i])
                loudest = max(loudest, (x * x + y * y).squareRoot())
            }
            envelope = seconds < 0 ? loudest : max(loudest, historyEnvelope * fastExp2(-seconds))
            gain *= clamp(0.9 / max(envelope, 1.0 / 16), 0.25, 16)
        }
        let n = Float(phosphor.side), value = p.number("intensity")
        // Unit coordinates (y up) → buffer pixels; polar puts the base line at three quarters down.
        let scale = gain * n * 0.5, centreY = mode == .polar ? n * 0.75 : n * 0.5
        var previous: (Float, Float) = (0, 0)
        for i in 0..<count {
            let (x, y) = point(left[i], i < right.count ? right[i] : left[i])
            defer { previous = (x, y) }
            @inline(__always) func line(_ a: (Float, Float), _ b: (Float, Float)) {
                phosphor.stroke(n * 0.5 + a.0 * scale, centreY - a.1 * scale, n * 0.5 + b.0 * scale, centreY - b.1 * scale,
                                halfWidth: halfWidth, value: value)
            }
            if dots {
                let (fx, fy) = mode == .polar && y < 0 ? (-x, -y) : (x, y)
                phosphor.dot(n * 0.5 + fx * scale, centreY - fy * scale, radius: halfWidth, value: value * 0.35)
                continue
            }
            guard i > 0 else { continue }
            let a = previous, b = (x, y)
            guard mode == .polar else { line(a, b); continue }
            // Polar folds the lower half up: a stroke that crosses the base line is split there, and
            // each piece is drawn on the side its end lies.
            if (a.1 >= 0) == (b.1 >= 0) {
                line(a.1 >= 0 ? a : (-a.0, -a.1), b.1 >= 0 ? b : (-b.0, -b.1))
            } else {
                let t = a.1 / (a.1 - b.1), c = (a.0 + (b.0 - a.0) * t, Float(0))
                line(a.1 >= 0 ? a : (-a.0, -a.1), a.1 >= 0 ? c : (-c.0, 0))
                line(b.1 >= 0 ? c : (-c.0, 0), b.1 >= 0 ? b : (-b.0, -b.1))
            }
        }
    }

    /// A sample pair in unit coordinates (y up), inside the unit circle at full scale.
    @inline(__always)
    private func point(_ l: Float, _ r: Float) -> (Float, Float) {
        let l = l.isFinite ? clamp(l, -1, 1) : 0, r = r.isFinite ? clamp(r, -1, 1) : 0
        switch mode {
        case .xy: return (l * 0.707_106_8, r * 0.707_106_8)
        case .lissajous, .polar: return (0.5 * (r - l), 0.5 * (l + r))
        }
    }

    package func coveredRows(height: Int) -> Range<Int> { covered }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        drawRows(blending: blendMode, target, rows)
    }

    /// Row by row, only the columns that can hold ink: the phosphor's span in that row and, with the
    /// graticule, where the circle, the axes and the diagonals cross it (at most seven intervals,
    /// merged in order so no pixel is blended twice). The helpers are inlined: one loop nest.
    @inline(__always)
    func drawRows<B: BlendFunction>(_: B.Type, _ target: TextureView, _ rows: Range<Int>) {
        let band = rows.clamped(to: covered)
        let firstColumn = max(0, originX), endColumn = min(target.width, originX + scopeSide)
        guard !band.isEmpty, firstColumn < endColumn else { return }
        let colour = trace.packed, white = PremultipliedColor(.white).packed
        let exact = phosphor.side == scopeSide, side = phosphor.side, values = phosphor.values
        let graticule = Graticule(side: scopeSide, originX: originX, originY: originY, polar: mode == .polar,
                                  reach: gridHalfWidth + 0.5)
        let grid = gridPixel != 0, opaque = opacity == 255
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 16) { spans in
            for y in band {
                let dst = target.row32(y)
                let dy = Float(y) + 0.5 - graticule.centreY
                let bufferRow = (y - originY) * side
                let by = (Float(y - originY) + 0.5) * toBuffer
                var spanList = Spans(storage: spans.baseAddress!, first: firstColumn, end: endColumn)
                addPhosphorSpan(row: by, exact: exact, to: &spanList)
                if grid { graticule.addSpans(dy: dy, to: &spanList) }
                spanList.forEachMerged { x in
                    let intensity = exact ? values[bufferRow + x - originX]
                        : phosphor.sample((Float(x - originX) + 0.5) * toBuffer, by)
                    let grat = grid ? graticule.coverage(dx: Float(x) + 0.5 - graticule.centreX, dy: dy) : 0
                    guard intensity > 0 || grat > 0 else { return }
                    let lit = intensity > 1 ? lerpPixel(colour, white, weight256((intensity - 1) * 0.4)) : colour
                    let ink = scalePixel(lit, weight256(intensity))
                    let p = grat > 0 ? ink &+ scalePixel(scalePixel(gridPixel, weight256(grat)), 256 &- (ink >> 24)) : ink
                    dst[x] = B.blend(opaque ? p : Blend.scaled(p, opacity: opacity), onto: dst[x])
                }
            }
        }
    }

    /// The columns the phosphor lights in the screen row at buffer row `by` (the phosphor rows it reads:
    /// two when resampled), with a margin for the resampling.
    @inline(__always) private func addPhosphorSpan(row by: Float, exact: Bool, to spans: inout Spans) {
        let side = phosphor.side
        let low = max(0, min(side - 1, Int(by - 0.5))), high = exact ? low : min(side - 1, low + 1)
        let from = min(phosphor.spanFrom[low], phosphor.spanFrom[high])
        let to = max(phosphor.spanTo[low], phosphor.spanTo[high])
        let margin = 1 + 1 / toBuffer
        if from < to { spans.add(Float(originX) + Float(from) / toBuffer - margin, Float(originX) + Float(to) / toBuffer + margin) }
    }
}

/// The column intervals of one screen row that can hold ink (at most eight), in a scratch buffer.
private struct Spans {
    let storage: UnsafeMutablePointer<Int>
    /// The columns drawn at all.
    let first: Int, end: Int
    private(set) var count = 0

    init(storage: UnsafeMutablePointer<Int>, first: Int, end: Int) {
        self.storage = storage; self.first = first; self.end = end
    }

    /// Adds the columns from `from` to `to` (rounded outwards, clipped to the drawn ones).
    @inline(__always) mutating func add(_ from: Float, _ to: Float) {
        let a = max(first, Int(from.rounded(.down))), b = min(end, Int(to.rounded(.up)))
        if a < b { storage[2 * count] = a; storage[2 * count + 1] = b; count += 1 }
    }

    /// Visits the union of the intervals from left to right, each column once.
    @inline(__always) func forEachMerged(_ body: (Int) -> Void) {
        var x = first
        while true {
            var start = Int.max, stop = 0
            for k in 0..<count where storage[2 * k + 1] > x {
                let a = max(storage[2 * k], x)
                if a < start { start = a; stop = storage[2 * k + 1] }
            }
            guard start != .max else { break }
            var grown = true
            while grown {
                grown = false
                for k in 0..<count where storage[2 * k] <= stop && storage[2 * k + 1] > stop { stop = storage[2 * k + 1]; grown = true }
            }
            for x in start..<stop { body(x) }
            x = stop
        }
    }
}

/// The vectorscope's graticule: a circle, the axes and the L/R diagonals (polar: the upper half), as
/// antialiased lines `reach` pixels from their centre.
private struct Graticule {
    let radius: Float, centreX: Float, centreY: Float, reach: Float, polar: Bool
    let radius2: Float, ringInner2: Float, ringOuter2: Float
    static let diagonal: Float = 0.707_106_8

    init(side: Int, originX: Int, originY: Int, polar: Bool, reach: Float) {
        radius = Float(side) * 0.5
        centreX = Float(originX) + radius
        centreY = Float(originY) + (polar ? Float(side) * 0.75 : radius)
        self.reach = reach
        self.polar = polar
        radius2 = radius * radius
        ringInner2 = max(0, radius - reach) * max(0, radius - reach)
        ringOuter2 = (radius + reach) * (radius + reach)
    }

    /// Where the lines cross the row `dy` below the centre.
    @inline(__always) func addSpans(dy: Float, to spans: inout Spans) {
        guard (!polar || dy <= reach) && abs(dy) <= radius + reach else { return }
        let outer = max(0, (radius + reach) * (radius + reach) - dy * dy).squareRoot() + 1
        let innerR = radius - reach - 1
        let inner = abs(dy) < innerR ? (innerR * innerR - dy * dy).squareRoot() : 0
        spans.add(centreX - outer, centreX - inner); spans.add(centreX + inner, centreX + outer)
        if abs(dy) < radius { spans.add(centreX - reach - 1, centreX + reach + 1) }
        if abs(dy) <= reach { spans.add(centreX - radius, centreX + radius) }
        if abs(dy) < radius * Self.diagonal + 2 {
            spans.add(centreX - abs(dy) - 2 * reach - 1, centreX - abs(dy) + 2 * reach + 1)
            spans.add(centreX + abs(dy) - 2 * reach - 1, centreX + abs(dy) + 2 * reach + 1)
        }
    }

    /// How much of the pixel at (`dx`, `dy`) from the centre the lines cover, 0…1.
    @inline(__always) func coverage(dx: Float, dy: Float) -> Float {
        let r2 = dx * dx + dy * dy
        // Circle (a square root only next to it), then inside it the axes and the diagonals.
        var d = r2 > ringInner2 && r2 < ringOuter2 ? abs(r2.squareRoot() - radius) : reach
        if r2 < radius2 {
            d = min(d, min(abs(dx), abs(dy)))
            d = min(d, min(abs(dx - dy), abs(dx + dy)) * Self.diagonal)
        }
        let grat = clamp01(reach - d)
        return polar ? grat * clamp01(reach - dy) : grat
    }
}
