import MarbleCore

/// Level meters: peak and RMS per channel on a dBFS scale, and a loudness (LUFS) meter.
///
/// Audio: `features.peakLeft/Right` and `rmsLeft/Right` (over each frame period) and the EBU R128
/// loudness `loudnessMomentary`, `loudnessShortTerm` and `loudnessIntegrated`. Per channel, a dim bar
/// shows the peak and a bright bar the RMS inside it, coloured by zone (green below `yellow`, yellow
/// below `red`, red above, in dBFS), with a peak-hold marker; next to a scale with a tick every 6 dB
/// (longer at 0, −18, −36 …), the M (momentary, 400 ms) and S (short-term, 3 s) loudness bars on the
/// same axis (1 LU = 1 dB) with the integrated loudness as a white line and `target` as a tick.
///
/// Ballistics (digital peak programme meter): the peak bar rises at once and falls at `fall` dB/s
/// (20 dB/s by default; IEC 60268-10 type I PPMs fall 20 dB in 1.7 s, about 12 dB/s); the hold marker
/// stays `hold` seconds at the highest peak, then falls at the same rate, never below the bar; the RMS
/// bar is the root of the mean square averaged with an exponential window of `rms_window` seconds (a
/// full-scale sine reads −3 dBFS RMS, 0 dBFS peak). State advances in `prepare`, frame by frame
/// (media time, not the wall clock); a frame that does not follow the previous one starts afresh.
/// The panel is `width` × `height` of the frame around (`center_x`, `center_y`); every edge is
/// antialiased by its exact pixel coverage. Without sound only the empty tracks and the scale show.
///
/// With `scale` (the default: this is a measuring view) the scale carries numbers, like FFmpeg's
/// ebur128: dBFS beside the L bar (left of the panel; above it when horizontal) and, with `loudness`,
/// LUFS beside the S bar (right of it; below), each on a short tick at the position the bars' own
/// mapping gives that level, every 6 dB or the smallest multiple of 6 that keeps the numbers apart,
/// captioned "dBFS" and "LUFS". The scale's ticks and the target line then sit on whole pixels (one
/// pixel thick at 1080p, in proportion above), text is 18 pixels high at 1080p and in proportion to
/// the frame's height; where it would be under 7 pixels there are no numbers and the picture is the
/// one `scale` off draws, and a number the frame's edge would cut is left out (see `AxisLabels`).
/// The numbers are laid out again only when the frame size or the panel's place and range change.
package final class Meters: Shader, BlendedRowDrawing, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` only reads the element list, colours and label sprites.
    package static let descriptor = ShaderDescriptor(
        name: "meters", summary: "Peak/RMS level meters per channel and an EBU R128 loudness meter.", kind: .generator,
        drawsOnCanvas: true,
        parameters: [
            ParameterDescriptor("orientation", "vertical (bars grow upwards) or horizontal (to the right).",
                                .choice(default: "vertical", options: ["vertical", "horizontal"])),
            ParameterDescriptor("center_x", "Centre of the panel, fraction of the width.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("center_y", "Centre of the panel, fraction of the height.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("width", "Panel width, fraction of the frame width.", .number(default: 0.16, range: 0.02...1)),
            ParameterDescriptor("height", "Panel height, fraction of the frame height.", .number(default: 0.8, range: 0.02...1)),
            ParameterDescriptor("range", "Lowest level shown, dBFS (the top is 0).", .number(default: -60, range: -96 ... -12)),
            ParameterDescriptor("yellow", "Level where the yellow zone starts, dBFS.", .number(default: -18, range: -96...0)),
            ParameterDescriptor("red", "Level where the red zone starts, dBFS.", .number(default: -6, range: -96...0)),
            ParameterDescriptor("fall", "Peak bar and hold marker fall rate, dB per second.", .number(default: 20, range: 1...200)),
            ParameterDescriptor("hold", "Seconds the peak-hold marker stays before it falls.", .number(default: 1.5, range: 0...10)),
            ParameterDescriptor("rms_window", "RMS averaging time constant, seconds.", .number(default: 0.3, range: 0.01...3)),
            ParameterDescriptor("loudness", "Show the momentary and short-term LUFS bars and the integrated marker.",
                                .flag(default: true)),
            ParameterDescriptor("target", "Loudness target marked on the LUFS bars, LUFS.", .number(default: -14, range: -60...0)),
            ParameterDescriptor("green_color", "Colour below the yellow zone.", .color(default: Color(parsing: "#2bd96b")!)),
            ParameterDescriptor("yellow_color", "Colour of the yellow zone.", .color(default: Color(parsing: "#f5d22e")!)),
            ParameterDescriptor("red_color", "Colour of the red zone.", .color(default: Color(parsing: "#ff3b3b")!)),
            ParameterDescriptor("loudness_color", "Colour of the LUFS bars.", .color(default: Color(parsing: "#3fb8ff")!)),
            ParameterDescriptor("track_color", "Colour of the empty tracks.", .color(default: Color(red: 1, green: 1, blue: 1, alpha: 0.08))),
            ParameterDescriptor("tick_color", "Colour of the scale ticks.", .color(default: Color(red: 1, green: 1, blue: 1, alpha: 0.5))),
            ParameterDescriptor("scale", "Numbers on the scale: dBFS beside the level bars, LUFS beside the loudness bars, where the text would be at least 7 pixels high; ticks on whole pixels.",
                                .flag(default: true)),
        ])

    /// One axis-aligned rectangle in screen pixels (a tick), in a solid colour.
    struct Element { var x0: Float, x1: Float, y0: Float, y1: Float, pixel: UInt32 }

    private let vertical: Bool
    private let elements = UnsafeMutablePointer<Element>.allocate(capacity: 48)
    private var count = 0
    // Zone colour per screen row (vertical) or column (horizontal), and the four strips' (L, R, M, S)
    // composited colour there; sized in `configure`, rewritten in `prepare`.
    private var zones: UnsafeMutablePointer<UInt32> = allocateFilled(1, 0)
    private var profiles: UnsafeMutablePointer<UInt32> = allocateFilled(4, 0)
    private var zoneCapacity = 1
    // The strips' extent across the level axis, screen pixels (x for vertical meters, y for horizontal).
    private let stripFrom = allocateFilled(4, Float(0)), stripTo = allocateFilled(4, Float(0))
    private var strips = 0
    /// One channel's ballistics: the peak bar and the hold marker in dBFS, how long the marker has
    /// held (s), the RMS mean square (linear).
    struct Ballistics { var peak: Float = -120, held: Float = -120, age: Float = 0, meanSquare: Float = 0 }
    // After the previous frame and after this one (0 left, 1 right): the same frame prepared again
    // starts over from the previous frame's state.
    private var previous = (Ballistics(), Ballistics()), state = (Ballistics(), Ballistics())
    private var lastFrame = Int.min
    private var step: Float = -1   // seconds from the previous frame to this one, −1 after a restart
    private var blendMode = BlendMode.normal, opacity: UInt32 = 255
    private var covered = 0..<0
    /// The scale's numbers (nil: `scale` off, or no font on this machine), placed for `scaleLayout`.
    private let labels: AxisLabels?
    /// What the numbers' places depend on; they are placed again when it changes.
    private struct ScaleLayout: Equatable {
        var frameWidth = 0, frameHeight = 0, left: Float = 0, top: Float = 0, width: Float = 0, height: Float = 0
        var floorDB: Float = 0, loudness = false, tick: UInt32 = 0
    }
    private var scaleLayout = ScaleLayout()

    package init(parameters: ShaderParameters) throws {
        vertical = parameters.choice("orientation") == "vertical"
        labels = parameters.flag("scale") ? try? AxisLabels() : nil
    }

    deinit { elements.deallocate(); zones.deallocate(); profiles.deallocate(); stripFrom.deallocate(); stripTo.deallocate() }

    package func configure(width: Int, height: Int) {
        let capacity = max(1, vertical ? height : width)
        guard capacity != zoneCapacity else { return }
        zones.deallocate(); profiles.deallocate()
        zones = allocateFilled(capacity, 0); profiles = allocateFilled(4 * capacity, 0)
        zoneCapacity = capacity
    }

    /// The readings after the last `prepare`, dBFS: the peak bar, the hold marker and the RMS bar.
    func reading(channel: Int) -> (peak: Float, hold: Float, rms: Float) {
        let b = channel == 0 ? state.0 : state.1
        return (b.peak, b.held, Self.decibels(b.meanSquare.squareRoot()))
    }

    package func prepare(_ uniforms: FrameUniforms, parameters p: ShaderParameters) {
        blendMode = uniforms.blend
        opacity = byte(uniforms.opacity)
        advance(uniforms, p)
        layOut(uniforms, p)
    }

    private func advance(_ uniforms: FrameUniforms, _ p: ShaderParameters) {
        let frame = uniforms.frameIndex
        if frame != lastFrame {
            let fps = uniforms.fps.doubleValue
            step = frame > lastFrame && lastFrame != .min && fps > 0 ? Float(Double(frame - lastFrame) / fps) : -1
            previous = state
            lastFrame = frame
        }
        let f = uniforms.features, dt = step
        let fall = p.number("fall"), hold = p.number("hold")
        let smoothing = dt < 0 ? 1 : 1 - fastExp(-dt / p.number("rms_window"))
        @inline(__always) func next(_ b: Ballistics, _ peak: Float, _ rms: Float) -> Ballistics {
            let now = Self.decibels(peak)
            let r = rms.isFinite ? min(1, max(0, rms)) : 0
            guard dt >= 0 else { return Ballistics(peak: now, held: now, age: 0, meanSquare: r * r) }
            var n = b
            n.peak = max(now, b.peak - fall * dt)
            if now >= b.held {
                n.held = now; n.age = 0
            } else {
                n.age = b.age + dt
                n.held = b.held - fall * min(dt, max(0, n.age - hold))
            }
            n.held = max(n.held, n.peak)
            n.meanSquare = b.meanSquare + (r * r - b.meanSquare) * smoothing
            return n
        }
        state = (next(previous.0, f.peakLeft, f.rmsLeft), next(previous.1, f.peakRight, f.rmsRight))
    }

    /// Where the panel is this frame, and how levels and columns map onto it.
    private struct Panel {
        let left: Float, top: Float, width: Float, height: Float
        /// Along the level axis and across it, pixels.
        let length: Float, across: Float
        /// The lowest level shown (dB, negative), a hairline's width, and the width of one column.
        let floorDB: Float, line: Float, unit: Float
        let vertical: Bool

        init(_ uniforms: FrameUniforms, _ p: ShaderParameters, vertical: Bool) {
            let w = Float(uniforms.width), h = Float(uniforms.height)
            width = p.number("width") * w; height = p.number("height") * h
            left = p.number("center_x") * w - width * 0.5; top = p.number("center_y") * h - height * 0.5
            length = vertical ? height : width; across = vertical ? width : height
            floorDB = p.number("range")
            line = max(1, min(w, h) / 1080)   // a hairline: one pixel at 1080p, thicker above
            unit = across / (p.flag("loudness") ? 5.8 : 3.55)
            self.vertical = vertical
        }

        /// Level (dB) → distance from the base of the meters, pixels.
        @inline(__always) func position(_ dB: Float) -> Float { clamp01((dB - floorDB) / -floorDB) * length }

        /// Where column `i` starts across the panel: L, R, the scale, M, S (no array: `prepare` never allocates).
        @inline(__always) func column(_ i: Int) -> Float {
            unit * (i == 0 ? 0 : i == 1 ? 1.3 : i == 2 ? 2.55 : i == 3 ? 3.5 : 4.8)
        }

        /// The base of the level axis on screen (the bottom of vertical meters, the left of horizontal ones).
        var base: Float { vertical ? top + height : left }

        /// The span along the axis of a hairline `line` whole pixels thick at level position `a`: the
        /// pixels holding `a` on screen, kept inside the panel's pixels.
        func snapped(_ a: Float, _ line: Int) -> (Float, Float) {
            let screen = vertical ? base - a : base + a, thickness = Float(line)
            let lo = (vertical ? top : left).rounded(.down), hi = (vertical ? top + height : left + width).rounded(.up)
            let first = max(lo, min(hi - thickness, (screen - thickness / 2).rounded()))
            return vertical ? (base - first - thickness, base - first) : (first - base, first + thickness - base)
        }

        /// An offset across the panel moved so that it falls on a whole screen pixel.
        func snappedAcross(_ c: Float) -> Float {
            let origin = vertical ? left : top
            return (origin + c).rounded() - origin
        }

        /// (along a0…a1 from the base, across c0…c1 from the panel's left/top) → screen rectangle.
        func element(_ a0: Float, _ a1: Float, _ c0: Float, _ c1: Float, _ pixel: UInt32) -> Element {
            vertical ? Element(x0: left + c0, x1: left + c1, y0: top + height - a1, y1: top + height - a0, pixel: pixel)
                     : Element(x0: left + a0, x1: left + a1, y0: top + c0, y1: top + c1, pixel: pixel)
        }
    }

    /// Builds this frame's strips (their colour profiles along the level axis) and tick rectangles.
    private func layOut(_ uniforms: FrameUniforms, _ p: ShaderParameters) {
        let panel = Panel(uniforms, p, vertical: vertical)
        placeNumbers(panel, uniforms, p)
        addTicks(panel, p, snapped: !(labels?.isEmpty ?? true))
        fillZones(p, start: panel.base, length: panel.length, floorDB: panel.floorDB)
        fillStrips(panel, uniforms.features, p)
        var lowest = max(0, Int(panel.top.rounded(.down)))
        var highest = min(uniforms.height, Int((panel.top + panel.height).rounded(.up)))
        if let labels, !labels.isEmpty {
            lowest = min(lowest, labels.rows.lowerBound); highest = max(highest, labels.rows.upperBound)
        }
        covered = lowest < highest ? lowest..<highest : 0..<0
    }

    /// The scale's numbers and their ticks, placed again when the frame or the panel changed: dBFS
    /// outside the L bar, LUFS outside the S bar (with loudness), every `step` dB from 0 down.
    private func placeNumbers(_ panel: Panel, _ uniforms: FrameUniforms, _ p: ShaderParameters) {
        guard let labels else { return }
        let loudness = p.flag("loudness"), tick = PremultipliedColor(p.color("tick_color")).packed
        let layout = ScaleLayout(frameWidth: uniforms.width, frameHeight: uniforms.height, left: panel.left, top: panel.top,
                                 width: panel.width, height: panel.height, floorDB: panel.floorDB, loudness: loudness, tick: tick)
        guard layout != scaleLayout else { return }
        scaleLayout = layout
        labels.begin(width: uniforms.width, height: uniforms.height, ink: Color(red: 1, green: 1, blue: 1, alpha: 0.8))
        let size = AxisLabels.textSize(18, frameHeight: uniforms.height)
        guard size > 0, let zero = labels.measure("0", size: size),
              let widest = labels.measure(Self.scaleText(panel.floorDB.rounded(.up)), size: size) else { return }
        let line = AxisLabels.lineWidth(frameHeight: uniforms.height)
        let gap = max(2, size / 4), stub = max(2, Int((0.15 * panel.unit).rounded()))
        // The smallest multiple of 6 dB that keeps neighbouring numbers `2 · gap` apart.
        let extent = Float((vertical ? zero.height : widest.width) + 2 * gap)
        var step: Float = 6
        while step / -panel.floorDB * panel.length < extent && step < -panel.floorDB { step += 6 }
        let origin = vertical ? panel.left : panel.top
        for lufs in loudness ? [false, true] : [false] {
            // Where the ticks start across the panel, on a whole pixel: at the L bar's outer edge, at the S bar's.
            let from = (origin + (lufs ? panel.column(4) + panel.unit : 0)).rounded()
            let tickFrom = Int(from) - (lufs ? 0 : stub), textAt = lufs ? from + Float(stub + gap) : from - Float(stub + gap)
            var dB: Float = 0
            while dB >= panel.floorDB - 0.001 {
                let (a0, a1) = panel.snapped(panel.position(dB), line)
                let first = Int((vertical ? panel.base - a1 : panel.base + a0).rounded())
                let centre = Float(first) + Float(line) / 2
                let placed = vertical
                    ? labels.label(Self.scaleText(dB), size: size, x: textAt, y: centre, anchorX: lufs ? 0 : 1, anchorY: 0.5, gap: gap)
                    : labels.label(Self.scaleText(dB), size: size, x: centre, y: textAt, anchorX: 0.5, anchorY: lufs ? 0 : 1, gap: gap)
                if placed {
                    if vertical { labels.tick(x: tickFrom, y: first, width: stub, height: line, color: tick) }
                    else { labels.tick(x: first, y: tickFrom, width: line, height: stub, color: tick) }
                }
                dB -= step
            }
            // The caption past the 0 dB end: above the numbers (vertical), after them (horizontal).
            let caption = lufs ? "LUFS" : "dBFS"
            if vertical {
                labels.label(caption, size: size, x: textAt, y: panel.top - Float(zero.height) / 2 - Float(2 * gap),
                             anchorX: lufs ? 0 : 1, anchorY: 1, gap: gap)
            } else {
                labels.label(caption, size: size, x: panel.left + panel.length + Float(widest.width) / 2 + Float(2 * gap), y: textAt,
                             anchorX: 0, anchorY: lufs ? 0 : 1, gap: gap)
            }
        }
    }

    /// A scale number: "0", "−6", "−12" (a true minus sign).
    static func scaleText(_ dB: Float) -> String {
        let n = Int(dB.rounded())
        return n < 0 ? "\u{2212}\(-n)" : "\(n)"
    }

    /// The scale's ticks every 6 dB (long ones every 18), and with loudness the target's line; on whole
    /// pixels when `snapped` (the numbers are shown), antialiased at their exact place otherwise.
    private func addTicks(_ panel: Panel, _ p: ShaderParameters, snapped: Bool) {
        count = 0
        @inline(__always) func add(_ a0: Float, _ a1: Float, _ c0: Float, _ c1: Float, _ pixel: UInt32) {
            guard count < 48, a1 > a0, c1 > c0, pixel != 0 else { return }
            elements[count] = panel.element(a0, a1, c0, c1, pixel)
            count += 1
        }
        let line = panel.line, length = panel.length, unit = panel.unit
        let scaleWidth = 0.7 * unit
        let tick = PremultipliedColor(p.color("tick_color")).packed
        let whole = Int(line.rounded())
        @inline(__always) func addLine(_ a: Float, _ c0: Float, _ c1: Float) {
            if snapped {
                let (a0, a1) = panel.snapped(a, whole)
                add(a0, a1, panel.snappedAcross(c0), panel.snappedAcross(c1), tick)
            } else {
                add(max(0, a - line * 0.5), min(length, a + line * 0.5), c0, c1, tick)
            }
        }
        var dB: Float = 0
        while dB >= panel.floorDB - 0.001 {
            let long = Int(-dB.rounded()) % 18 == 0
            let inset = long ? 0 : scaleWidth * 0.25
            addLine(panel.position(dB), panel.column(2) + inset, panel.column(2) + scaleWidth - inset)
            dB -= 6
        }
        if p.flag("loudness") {
            addLine(panel.position(p.number("target")), panel.column(3) - 0.15 * unit, panel.column(4) + 1.15 * unit)
        }
    }

    /// The strips: each pixel along the axis gets its segments (track, peak, RMS, hold marker; or
    /// track, LUFS bar, integrated marker) composited by how much of the pixel each covers.
    private func fillStrips(_ panel: Panel, _ f: AudioFeatures, _ p: ShaderParameters) {
        strips = p.flag("loudness") ? 4 : 2
        let origin = vertical ? panel.left : panel.top
        let track = PremultipliedColor(p.color("track_color")).packed
        let blue = PremultipliedColor(p.color("loudness_color")).packed, white = PremultipliedColor(.white).packed
        let base = panel.base, length = panel.length, line = panel.line, floorDB = panel.floorDB
        for k in 0..<strips {
            let c = k < 2 ? k : k + 1
            stripFrom[k] = origin + panel.column(c); stripTo[k] = origin + panel.column(c) + panel.unit
            let b = k == 0 ? state.0 : state.1
            let peak = panel.position(b.peak), rms = panel.position(Self.decibels(b.meanSquare.squareRoot()))
            let hold = b.held > floorDB ? panel.position(b.held) : -1
            let lufs = k == 2 ? f.loudnessMomentary : f.loudnessShortTerm
            let bar = lufs.isFinite ? panel.position(lufs) : 0
            let integrated = f.loudnessIntegrated.isFinite && f.loudnessIntegrated > floorDB ? panel.position(f.loudnessIntegrated) : -10
            let profile = profiles + k * zoneCapacity
            for i in 0..<zoneCapacity {
                let a0 = vertical ? base - Float(i + 1) : Float(i) - base, a1 = a0 + 1
                @inline(__always) func share(_ lo: Float, _ hi: Float) -> UInt32 { weight256(min(a1, hi) - max(a0, lo)) }
                let inside = share(0, length)
                guard inside != 0 else { profile[i] = 0; continue }
                var pixel = scalePixel(track, inside)
                if k < 2 {
                    let zone = zones[i]
                    pixel = NormalBlend.blend(scalePixel(scalePixel(zone, 110), share(0, peak)), onto: pixel)
                    pixel = NormalBlend.blend(scalePixel(zone, share(0, rms)), onto: pixel)
                    pixel = NormalBlend.blend(scalePixel(zone, share(hold - 2 * line, hold)), onto: pixel)
                } else {
                    pixel = NormalBlend.blend(scalePixel(blue, share(0, bar)), onto: pixel)
                    pixel = NormalBlend.blend(scalePixel(white, share(integrated - line, integrated + line)), onto: pixel)
                }
                profile[i] = pixel
            }
        }
    }

    /// Zone colour of every screen row (column) the panel spans: each pixel mixes the zones by how much
    /// of it each covers, so a zone boundary inside a pixel is antialiased too.
    private func fillZones(_ p: ShaderParameters, start: Float, length: Float, floorDB: Float) {
        let green = PremultipliedColor(p.color("green_color")), amber = PremultipliedColor(p.color("yellow_color"))
        let hot = PremultipliedColor(p.color("red_color"))
        let yellow = clamp01((p.number("yellow") - floorDB) / -floorDB) * length
        let red = max(yellow, clamp01((p.number("red") - floorDB) / -floorDB) * length)
        for i in 0..<zoneCapacity {
            // This pixel's span measured from the base, along the level axis.
            let a0 = vertical ? start - Float(i + 1) : Float(i) - start, a1 = a0 + 1
            let g = clamp01(min(a1, yellow) - a0), y = clamp01(min(a1, red) - max(a0, yellow)), r = clamp01(a1 - max(a0, red))
            zones[i] = packPremultiplied(green.r * g + amber.r * y + hot.r * r, green.g * g + amber.g * y + hot.g * r,
                                         green.b * g + amber.b * y + hot.b * r, green.a * g + amber.a * y + hot.a * r)
        }
    }

    package func coveredRows(height: Int) -> Range<Int> { covered }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        drawRows(blending: blendMode, target, rows)
    }

    /// Strips first (vertical: one profile pixel per row, spread across the strip's columns with its
    /// edge columns scaled by their coverage; horizontal: the profile copied along the row, scaled by
    /// the row's coverage), then the tick rectangles on top.
    @inline(__always)
    func drawRows<B: BlendFunction>(_: B.Type, _ target: TextureView, _ rows: Range<Int>) {
        let width = target.width
        let direct = B.self == NormalBlend.self && opacity == 255
        @inline(__always) func put(_ dst: UnsafeMutablePointer<UInt32>, _ x: Int, _ p: UInt32) {
            guard p != 0 else { return }
            if direct && p >> 24 == 255 { dst[x] = p } else { dst[x] = B.blend(Blend.scaled(p, opacity: opacity), onto: dst[x]) }
        }
        for y in rows.clamped(to: covered) {
            let dst = target.row32(y)
            let top = Float(y), bottom = top + 1
            for k in 0..<strips {
                let profile = profiles + k * zoneCapacity
                let from = stripFrom[k], to = stripTo[k]
                if vertical {
                    let pixel = profile[min(zoneCapacity - 1, y)]
                    guard pixel != 0 else { continue }
                    let first = max(0, Int(from.rounded(.down))), end = min(width, Int(to.rounded(.up)))
                    guard first < end else { continue }
                    for x in first..<end {
                        let coverage = min(Float(x + 1), to) - max(Float(x), from)
                        put(dst, x, coverage >= 1 ? pixel : scalePixel(pixel, weight256(coverage)))
                    }
                } else {
                    let coverage = min(bottom, to) - max(top, from)
                    guard coverage > 0 else { continue }
                    let weight = weight256(coverage)
                    for x in 0..<min(width, zoneCapacity) {
                        let pixel = profile[x]
                        put(dst, x, coverage >= 1 ? pixel : scalePixel(pixel, weight))
                    }
                }
            }
            for k in 0..<count {
                let e = elements[k]
                let rowCoverage = min(bottom, e.y1) - max(top, e.y0)
                guard rowCoverage > 0 else { continue }
                let first = max(0, Int(e.x0.rounded(.down))), end = min(width, Int(e.x1.rounded(.up)))
                guard first < end else { continue }
                for x in first..<end {
                    let coverage = rowCoverage * clamp01(min(Float(x + 1), e.x1) - max(Float(x), e.x0))
                    put(dst, x, scalePixel(e.pixel, weight256(coverage)))
                }
            }
            labels?.draw(B.self, row: y, into: dst, width: width, opacity: opacity)
        }
    }

    /// Amplitude → dBFS, floored at −120 (log2 from the float's exponent and an atanh series; about 10⁻⁴ dB).
    @inline(__always)
    static func decibels(_ amplitude: Float) -> Float {
        guard amplitude.isFinite, amplitude > 1e-6 else { return -120 }
        let bits = amplitude.bitPattern
        let exponent = Float(Int32(truncatingIfNeeded: (bits >> 23) & 0xff) &- 127)
        let mantissa = Float(bitPattern: (bits & 0x007f_ffff) | 0x3f80_0000)
        let t = (mantissa - 1) / (mantissa + 1), t2 = t * t
        let log2 = exponent + t * (2.885_390_1 + t2 * (0.961_796_7 + t2 * (0.577_078 + t2 * 0.412_198_6)))
        return max(-120, 6.020_6 * log2)
    }
}
