import MarbleCore

/// Spectrogram: the spectrum's history scrolling across the frame, like FFmpeg's showspectrum.
///
/// Audio: `features.spectrumDecibels` (the main FFT, about 46 ms, dBFS per bin; the shader asks for it
/// through `descriptor.needs`), mapped along the frequency axis (`frequency_scale` linear, log or
/// mel, from `min_frequency` to `max_frequency`) and coloured by the level between `floor` (the
/// map's darkest colour) and `ceiling` (its brightest) through a 1024-entry table of `colormap`.
/// Where a pixel is narrower than a bin (the bass on a log axis) the levels are interpolated between
/// bins (Catmull-Rom, clamped to its two neighbours), so there are no blocky bands; where it spans
/// several bins it shows the loudest, so a narrow tone never vanishes between pixels.
/// Time runs along the other axis: `history` seconds span the frame, the newest column at the edge
/// the picture scrolls away from (`scroll` left: newest at the right). A column covers history /
/// width seconds: a frame shorter than that adds its levels to the open column (loudest wins); a
/// frame longer than that fills several columns, interpolated from the previous frame's levels.
/// The history lives in a ring of packed colours allocated in `configure` and is advanced in
/// `prepare` from the frame index alone, so a render that starts later (after `prepare` for every
/// earlier frame) draws the same picture; an earlier frame index starts the history again.
/// With `scale` (the default: this is a measuring view) a frequency legend sits at the edge the
/// history scrolls towards (the oldest columns): 20, 50, 100, 200, 500 Hz, 1k, 2k, 5k, 10k, 20k on a
/// log or mel axis, round multiples on a linear one, only those inside the range, each on a tick at
/// the row (column) the axis maps that frequency to; a label that would touch another is left out
/// (decades first), and at frame sizes where the text would be under 7 pixels there is no legend.
/// Text 20 pixels high at 1080p and ticks one pixel thick there, both in proportion to the frame's
/// height, on whole pixels (see `AxisLabels`); laid out when the axis is mapped, never per frame.
/// Without a spectrum in the features (a program that did not request it), the band levels are
/// drawn instead, spread evenly over the axis (and no legend). Opaque: silence is the map's darkest colour.
package final class Spectrogram: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` only reads the ring, the frame's scroll offset and the legend.
    package static let descriptor = ShaderDescriptor(
        name: "spectrogram", summary: "Scrolling spectrogram of the spectrum's history (like showspectrum).",
        kind: .generator, isOpaque: true, needs: .spectrum,
        parameters: [
            ParameterDescriptor("scroll", "Where the picture moves: left (newest at the right), right, up (newest at the bottom) or down.",
                                .choice(default: "left", options: ["left", "right", "up", "down"])),
            ParameterDescriptor("frequency_scale", "Frequency axis: log, linear or mel.",
                                .choice(default: "log", options: ["log", "linear", "mel"])),
            ParameterDescriptor("colormap", "Colours from silence to loud.", .choice(default: "magma", options: ColorMap.names)),
            ParameterDescriptor("floor", "Level (dBFS per bin) drawn as the darkest colour; quieter is clipped.",
                                .number(default: -100, range: -150...(-20))),
            ParameterDescriptor("ceiling", "Level (dBFS per bin) drawn as the brightest colour; above the floor.",
                                .number(default: -6, range: -100...20)),
            ParameterDescriptor("min_frequency", "Lowest frequency shown, Hz (at the bottom, or the left when scrolling vertically).",
                                .number(default: 30, range: 0...20000)),
            ParameterDescriptor("max_frequency", "Highest frequency shown, Hz (clamped to the analysis' Nyquist frequency).",
                                .number(default: 16000, range: 50...96000)),
            ParameterDescriptor("history", "Seconds of history across the frame (sets the scroll speed).",
                                .number(default: 8, range: 0.25...120)),
            ParameterDescriptor("scale", "A frequency legend (50, 100, 200, 500, 1k … 20k Hz inside the range) with ticks on the axis, at the edge of the oldest history; none where the text would be under 7 pixels.",
                                .flag(default: true)),
        ])

    private enum Scroll { case left, right, up, down }
    private enum Scale { case log, linear, mel }
    private let scroll: Scroll
    private let scale: Scale
    private let lut: UnsafeMutablePointer<UInt32>
    private var minFrequency: Float, maxFrequency: Float
    // Sized in `configure`: the frequency axis (`axis` pixels) and the history (`depth` columns).
    private var axis = 0, depth = 0
    private var ring: UnsafeMutablePointer<UInt32> = .allocate(capacity: 1)
    /// Per axis pixel: levels 0…1 of this frame, of the frame before it, of the last frame prepared, of
    /// the open column before this frame and after it; the pixel's span in bins.
    private var current: UnsafeMutablePointer<Float> = .allocate(capacity: 1)
    private var previous: UnsafeMutablePointer<Float> = .allocate(capacity: 1)
    private var lastLevels: UnsafeMutablePointer<Float> = .allocate(capacity: 1)
    private var base0: UnsafeMutablePointer<Float> = .allocate(capacity: 1)
    private var base1: UnsafeMutablePointer<Float> = .allocate(capacity: 1)
    private var binLow: UnsafeMutablePointer<Float> = .allocate(capacity: 1)
    private var binHigh: UnsafeMutablePointer<Float> = .allocate(capacity: 1)
    private var mappedFor: (bins: Int, resolution: Float, low: Float, high: Float) = (-1, -1, -1, -1)
    // History state at the start of the frame being prepared (0) and after it (1).
    private var frame0 = -1, position0 = 0.0, position1 = 0.0, started = false, lastFrame = -1
    /// Index of the newest (open) column after this frame.
    private var newest = 0
    /// The frequency legend (nil: `scale` off, or no font on this machine), for a `frameWidth` × `frameHeight` frame.
    private let legend: AxisLabels?
    private var frameWidth = 0, frameHeight = 0

    package init(parameters: ShaderParameters) throws {
        scroll = switch parameters.choice("scroll") { case "right": .right; case "up": .up; case "down": .down; default: .left }
        scale = switch parameters.choice("frequency_scale") { case "linear": .linear; case "mel": .mel; default: .log }
        minFrequency = Float(parameters.number("min_frequency"))
        maxFrequency = Float(parameters.number("max_frequency"))
        guard maxFrequency > minFrequency * 1.05 + 1 else {
            throw ParameterError(shader: "spectrogram", parameter: "max_frequency",
                                 message: "\(maxFrequency) Hz must be above min_frequency (\(minFrequency) Hz)")
        }
        guard parameters.number("ceiling") > parameters.number("floor") else {
            throw ParameterError(shader: "spectrogram", parameter: "ceiling", message: "must be above floor")
        }
        lut = .allocate(capacity: ColorMap.size)
        (ColorMap(rawValue: parameters.choice("colormap")) ?? .magma).fill(lut)
        legend = parameters.flag("scale") ? try? AxisLabels() : nil
    }

    deinit {
        for p in [current, previous, lastLevels, base0, base1, binLow, binHigh] { p.deallocate() }
        ring.deallocate(); lut.deallocate()
    }

    package func configure(width: Int, height: Int) {
        let horizontal = scroll == .left || scroll == .right
        let (a, d) = horizontal ? (height, width) : (width, height)
        guard a != axis || d != depth else { return }
        frameWidth = width; frameHeight = height
        for p in [current, previous, lastLevels, base0, base1, binLow, binHigh] { p.deallocate() }
        ring.deallocate()
        axis = a; depth = d
        ring = allocateFilled(a * d, lut[0])
        current = allocateFilled(a, 0); previous = allocateFilled(a, 0); lastLevels = allocateFilled(a, 0)
        base0 = allocateFilled(a, 0); base1 = allocateFilled(a, 0)
        binLow = allocateFilled(a, 0); binHigh = allocateFilled(a, 0)
        mappedFor = (-1, -1, -1, -1)
        started = false
    }

    /// The frequency at fraction `u` of the axis.
    private func frequency(_ u: Float, top: Float) -> Float {
        switch scale {
        case .linear: return mix(minFrequency, top, u)
        case .log:
            let low = Double(max(minFrequency, 1))
            return Float(low * preciseExp2(Double(u) * preciseLog2(max(Double(top), low * 1.01) / low)))
        case .mel:
            // mel = 2595 log10(1 + f/700); the factor cancels, so log2 serves.
            let a = preciseLog2(1 + Double(minFrequency) / 700), b = preciseLog2(1 + Double(top) / 700)
            return Float(700 * (preciseExp2(a + (b - a) * Double(u)) - 1))
        }
    }

    /// The fraction of the axis where frequency `f` lies: the inverse of `frequency(_:top:)`.
    private func fraction(_ f: Float, top: Float) -> Float {
        switch scale {
        case .linear: return (f - minFrequency) / (top - minFrequency)
        case .log:
            let low = Double(max(minFrequency, 1))
            return Float(preciseLog2(Double(f) / low) / preciseLog2(max(Double(top), low * 1.01) / low))
        case .mel:
            let a = preciseLog2(1 + Double(minFrequency) / 700), b = preciseLog2(1 + Double(top) / 700)
            return Float((preciseLog2(1 + Double(f) / 700) - a) / (b - a))
        }
    }

    /// Each axis pixel's span in bins, for `bins` bins `resolution` Hz apart (once per analysis setup).
    private func mapAxis(bins: Int, resolution: Float) {
        mappedFor = (bins, resolution, minFrequency, maxFrequency)
        let top = resolution > 0 ? min(maxFrequency, resolution * Float(bins - 1)) : maxFrequency
        placeLegend(top: resolution > 0 ? top : nil)
        for p in 0..<axis {
            let lo = frequency(Float(p) / Float(axis), top: top), hi = frequency(Float(p + 1) / Float(axis), top: top)
            if resolution > 0 {
                binLow[p] = lo / resolution; binHigh[p] = hi / resolution
            } else {
                // No spectrum: the bands, evenly over the axis.
                binLow[p] = Float(p) / Float(axis) * Float(bins); binHigh[p] = Float(p + 1) / Float(axis) * Float(bins)
            }
        }
    }

    /// The legend for an axis from `minFrequency` to `top` Hz (none when the axis shows bands): each
    /// frequency's label centred on the axis pixel it falls in, after a tick from the frame's edge.
    private func placeLegend(top: Float?) {
        guard let legend else { return }
        legend.begin(width: frameWidth, height: frameHeight, haloAlpha: 0.7)
        let size = AxisLabels.textSize(20, frameHeight: frameHeight)
        guard let top, size > 0, axis > 0 else { return }
        let line = AxisLabels.lineWidth(frameHeight: frameHeight)
        let length = max(3, Int((10 * Float(frameHeight) / 1080).rounded())), gap = max(2, size / 4), apart = max(3, size / 2)
        let tick = packPremultiplied(0.75, 0.75, 0.75, 0.75)
        for f in Self.legendFrequencies(linear: scale == .linear, low: minFrequency, high: top) {
            let u = fraction(f, top: top)
            guard u >= 0, u < 1 else { continue }
            let p = Int(u * Float(axis))
            switch scroll {
            case .left, .right:
                let row = axis - 1 - p, atLeft = scroll == .left
                guard legend.label(Self.legendText(f), size: size, x: Float(atLeft ? length + gap : frameWidth - length - gap),
                                   y: Float(row) + 0.5, anchorX: atLeft ? 0 : 1, anchorY: 0.5, gap: apart) else { continue }
                legend.tick(x: atLeft ? 0 : frameWidth - length, y: row - (line - 1) / 2, width: length, height: line, color: tick)
            case .up, .down:
                let atTop = scroll == .up
                guard legend.label(Self.legendText(f), size: size, x: Float(p) + 0.5,
                                   y: Float(atTop ? length + gap : frameHeight - length - gap),
                                   anchorX: 0.5, anchorY: atTop ? 0 : 1, gap: apart) else { continue }
                legend.tick(x: p - (line - 1) / 2, y: atTop ? 0 : frameHeight - length, width: line, height: length, color: tick)
            }
        }
    }

    /// The legend's frequencies from `low` to `high` Hz, most important first: on a log or mel axis the
    /// 1-2-5 series (decades, then fives, then twos), on a linear one the multiples of the 1-2-5 step
    /// that gives about eight.
    static func legendFrequencies(linear: Bool, low: Float, high: Float) -> [Float] {
        if linear {
            let mantissas: [Float] = [1, 2, 5]
            var m = 0, decade: Float = 1
            while mantissas[m] * decade * 8 < high - low {
                m += 1
                if m == 3 { m = 0; decade *= 10 }
            }
            let step = mantissas[m] * decade
            let first = max(1, (low / step).rounded(.up))
            return stride(from: first, through: (high / step).rounded(.down), by: 1).map { $0 * step }
        }
        let decades: [Float] = [1000, 100, 10000, 10, 100000]
        return (decades + decades.map { $0 * 5 } + decades.map { $0 * 2 }).filter { $0 >= low && $0 <= high }
    }

    /// "50", "500", "1k", "2.5k", "20k".
    static func legendText(_ f: Float) -> String {
        guard f >= 1000 else { return "\(Int(f.rounded()))" }
        let k = f / 1000
        return k == k.rounded() ? "\(Int(k))k" : "\((k * 10).rounded() / 10)k"
    }

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        guard axis > 0, depth > 0 else { return }
        let f = uniforms.features
        let useSpectrum = !f.spectrumDecibels.isEmpty && f.spectrumResolution > 0
        let bins = useSpectrum ? f.spectrumDecibels.count : f.bands.count
        let resolution = useSpectrum ? f.spectrumResolution : 0
        // The range may follow a binding: the axis is mapped again when it moves.
        minFrequency = Float(parameters.number("min_frequency"))
        maxFrequency = max(Float(parameters.number("max_frequency")), minFrequency * 1.05 + 1)
        if mappedFor.bins != bins || mappedFor.resolution != resolution || mappedFor.low != minFrequency
            || mappedFor.high != maxFrequency {
            mapAxis(bins: bins, resolution: resolution)
        }
        let floor = Float(parameters.number("floor"))
        let range = max(1, Float(parameters.number("ceiling")) - floor)
        if useSpectrum {
            f.spectrumDecibels.withUnsafeBufferPointer { levels(decibels: $0, floor: floor, range: range) }
        } else {
            f.bands.withUnsafeBufferPointer { levels(bands: $0) }
        }
        advance(to: uniforms.frameIndex, fps: uniforms.fps.doubleValue, history: Double(parameters.number("history")))
    }

    /// This frame's level 0…1 per axis pixel from the spectrum in dB, into `current`.
    private func levels(decibels d: UnsafeBufferPointer<Float>, floor: Float, range: Float) {
        let last = d.count - 1
        guard last >= 1 else { current.update(repeating: 0, count: axis); return }
        let scale = 1 / range
        for p in 0..<axis {
            let lo = clamp(binLow[p], 0, Float(last)), hi = clamp(binHigh[p], 0, Float(last))
            var level = catmullRom(d, at: 0.5 * (lo + hi), last: last)
            // A pixel spanning bins shows the loudest of them.
            var k = Int(lo.rounded(.up))
            let end = Int(hi.rounded(.down))
            while k <= end { level = max(level, d[k]); k += 1 }
            current[p] = clamp01((level - floor) * scale)
        }
    }

    /// Interpolates `d` at bin position `x` (Catmull-Rom, clamped between the two bins around `x`).
    @inline(__always)
    private func catmullRom(_ d: UnsafeBufferPointer<Float>, at x: Float, last: Int) -> Float {
        let i = min(last - 1, Int(x)), t = x - Float(i)
        let p0 = d[max(0, i - 1)], p1 = d[i], p2 = d[i + 1], p3 = d[min(last, i + 2)]
        let v = p1 + 0.5 * t * (p2 - p0 + t * (2 * p0 - 5 * p1 + 4 * p2 - p3 + t * (3 * (p1 - p2) + p3 - p0)))
        return clamp(v, min(p1, p2), max(p1, p2))
    }

    /// The fallback: band levels (0…1), linearly interpolated over the axis.
    private func levels(bands b: UnsafeBufferPointer<Float>) {
        guard b.count > 0 else { current.update(repeating: 0, count: axis); return }
        for p in 0..<axis {
            let x = clamp(0.5 * (binLow[p] + binHigh[p]) - 0.5, 0, Float(b.count - 1))
            let i = min(b.count - 1, Int(x)), j = min(b.count - 1, i + 1)
            current[p] = clamp01(mix(b[i], b[j], x - Float(i)))
        }
    }

    /// Moves the history to frame `n`: the columns that ended during this frame are written, the open
    /// one holds the loudest level of its frames so far. Computed from the state before frame `n`, so
    /// preparing the same frame again gives the same ring.
    private func advance(to n: Int, fps: Double, history: Double) {
        if !started || n < lastFrame {
            // A new history: empty, with this frame's levels as the "previous" ones (no fade-in).
            ring.update(repeating: lut[0], count: axis * depth)
            base1.update(repeating: 0, count: axis)
            lastLevels.update(from: current, count: axis)
            position1 = 0; lastFrame = n - 1
            started = true
        }
        if n > lastFrame {
            // Frame `lastFrame` is done: its state is where this one starts.
            swap(&base0, &base1); swap(&previous, &lastLevels)
            frame0 = lastFrame; position0 = position1
        }
        let perFrame = Double(depth) / history / max(fps, 1e-6)
        position1 = position0 + Double(n - frame0) * perFrame
        let open0 = Int(position0), open1 = Int(position1)
        newest = open1
        if open1 == open0 {
            for p in 0..<axis { base1[p] = max(base0[p], current[p]) }
            write(column: open0, base1)
        } else {
            // Column open0 closes with this frame's levels folded in; the columns after it, inside this
            // frame's span, go from the previous frame's levels to this one's.
            let k = open1 - open0
            for j in max(0, k - depth)..<k {
                let t = Float(j + 1) / Float(k)
                for p in 0..<axis {
                    let v = mix(previous[p], current[p], t)
                    base1[p] = j == 0 ? max(base0[p], v) : v
                }
                write(column: open0 + j, base1)
            }
            base1.update(from: current, count: axis)
            write(column: open1, base1)
        }
        lastLevels.update(from: current, count: axis)
        lastFrame = n
    }

    /// Writes one column's colours (levels 0…1 in `levels`) into its ring slot.
    private func write(column c: Int, _ levels: UnsafeMutablePointer<Float>) {
        let slot = ((c % depth) + depth) % depth
        let lut = self.lut
        @inline(__always) func color(_ v: Float) -> UInt32 { lut[Int(v * Float(ColorMap.size - 1) + 0.5)] }
        if scroll == .left || scroll == .right {
            for p in 0..<axis { ring[p * depth + slot] = color(levels[p]) }
        } else {
            let row = ring + slot * axis
            for p in 0..<axis { row[p] = color(levels[p]) }
        }
    }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let width = min(target.width, scroll == .left || scroll == .right ? depth : axis)
        guard axis > 0, depth > 0 else {
            for y in rows { fillPixels(target.row32(y), target.width, 0xFF00_0000) }
            return
        }
        let d = depth
        @inline(__always) func slot(_ c: Int) -> Int { ((c % d) + d) % d }
        for y in rows {
            let dst = target.row32(y)
            switch scroll {
            case .left, .right:
                guard y < axis else { fillPixels(dst, target.width, lut[0]); continue }
                let row = ring + (axis - 1 - y) * d
                if scroll == .left {
                    // x shows column newest − (width − 1) + x: two contiguous runs of the ring.
                    let start = slot(newest - (d - 1))
                    let first = min(width, d - start)
                    dst.update(from: row + start, count: first)
                    if first < width { (dst + first).update(from: row, count: width - first) }
                } else {
                    var s = slot(newest)
                    for x in 0..<width {
                        dst[x] = row[s]
                        s = s == 0 ? d - 1 : s - 1
                    }
                }
            case .up, .down:
                guard y < d else { fillPixels(dst, target.width, lut[0]); continue }
                let c = scroll == .up ? newest - (d - 1) + y : newest - y
                dst.update(from: ring + slot(c) * axis, count: width)
            }
            if width < target.width { fillPixels(dst + width, target.width - width, lut[0]) }
            legend?.draw(NormalBlend.self, row: y, into: dst, width: target.width)
        }
    }
}
