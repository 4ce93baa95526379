import MarbleCore

/// Piano: constant-Q bars, one per semitone, over a piano keyboard whose keys light up with their
/// notes, and an optional scrolling note history below it (FFmpeg showcqt's look).
///
/// Audio: `features.pitches` (the analysis' constant-Q transform: one amplitude per equal-tempered
/// semitone, resolved down to the bass; the shader asks for it through `descriptor.needs`) from
/// `low_note` to `high_note` (MIDI numbers: 21 = A0, 24 = C1, 60 = middle C, 108 = C8), in dBFS,
/// mapped from `floor` (empty) to `ceiling` (full height), the height then raised to `contrast` (2:
/// a note 14 dB under the ceiling reads half, one 24 dB under it a quarter, so the notes of a chord stand
/// out from the partials and accompaniment around them as in showcqt). Bars rise at once and fall at `fall` full
/// heights per second (0: they follow every frame). Colours: by pitch class (`colors: pitch`, C red
/// round the hue circle to B) or a gradient from `low_color` to `high_color` across the range.
/// Layout, top to bottom: the bars; the keyboard (`keyboard` of the frame's height, 0 hides it): the
/// upper part has a key per semitone under each bar, the lower part the white keys, seven per octave
/// as on a piano (C, D, E share 5/12 of their octave, F, G, A, B the other 7/12), each key tinted by
/// its note's level, the name of every C (`note_names`: C1 … C8, where the keys are big enough, in
/// Fontconfig's default sans) or else a dot on it (`c_markers`); then the sonogram (`sonogram` of the height, 0 hides it): one row per
/// frame, the newest just under the keyboard, each semitone's colour at its level.
/// Antialiased: every column is a box filter over the bars or keys it overlaps (so 108 notes on 64
/// pixels stay smooth), bar tops cover their top pixel by their fraction, dots by their distance.
/// It draws onto the picture under it (`drawsOnCanvas`, with the layer's blend and opacity), touching
/// only the bars' pixels, the keyboard and the lit sonogram pixels, so a gradient or a background
/// shows around the bars. State (the falling bars, the sonogram's ring) moves in `prepare` from the
/// frame index, so a render that starts later draws the same picture. Without pitches in the features (a program that did not
/// request them), the band levels are read at each note's frequency instead.
package final class Piano: Shader, BlendedRowDrawing, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` only reads the per-column tables and the ring.
    package static let descriptor = ShaderDescriptor(
        name: "piano", summary: "Constant-Q bars per semitone over a lit piano keyboard (like showcqt).",
        kind: .generator, drawsOnCanvas: true, needs: .pitches,
        parameters: [
            ParameterDescriptor("low_note", "Lowest note, MIDI number (21 = A0, 24 = C1, 36 = C2, 60 = middle C); fixed when the layer is made.",
                                .integer(default: 21, range: 12...113)),
            ParameterDescriptor("high_note", "Highest note, MIDI number (96 = C7, 108 = C8, 119 = B8), above low_note; fixed when the layer is made.",
                                .integer(default: 108, range: 18...119)),
            ParameterDescriptor("floor", "Level (dBFS) of an empty bar.", .number(default: -60, range: -120...(-20))),
            ParameterDescriptor("ceiling", "Level (dBFS) of a full bar; above the floor.", .number(default: -12, range: -80...6)),
            ParameterDescriptor("contrast", "Exponent on each note's height between floor and ceiling: 1 is straight decibels, 2 lets a chord's notes stand out from the quieter ones around them (half height 14 dB under the ceiling instead of 24).",
                                .number(default: 2, range: 0.5...4)),
            ParameterDescriptor("fall", "How fast bars fall, full heights per second (0: no smoothing).",
                                .number(default: 2.5, range: 0...30)),
            ParameterDescriptor("colors", "pitch (a hue per pitch class, C red) or gradient (low_color to high_color).",
                                .choice(default: "pitch", options: ["pitch", "gradient"])),
            ParameterDescriptor("low_color", "Gradient colour of the lowest note.", .color(default: Color(parsing: "#2f6bff")!)),
            ParameterDescriptor("high_color", "Gradient colour of the highest note.", .color(default: Color(parsing: "#ff3d7f")!)),
            ParameterDescriptor("gap", "Empty fraction of each bar's slot.", .number(default: 0.18, range: 0...0.8)),
            ParameterDescriptor("keyboard", "Height of the keyboard, fraction of the frame (0: none); fixed when the layer is made.",
                                .number(default: 0.1, range: 0...0.3)),
            ParameterDescriptor("sonogram", "Height of the note history under the keyboard, fraction of the frame (0: none); fixed when the layer is made.",
                                .number(default: 0, range: 0...0.8)),
            ParameterDescriptor("c_markers", "A dot on every C key (its name instead when note_names is on and the keys are big enough).", .flag(default: true)),
            ParameterDescriptor("note_names", "The name of each C key (C1 … C8, middle C is C4) on the keyboard, where the keys are big enough to read it.",
                                .flag(default: true)),
        ])

    private let low: Int, count: Int
    private let markers: Bool
    /// The C keys' names (nil: off, or no font on this machine: the dots stay).
    private let names: PianoNoteNames?
    private let keyboardShare: Float, sonogramShare: Float
    /// Per note: colour (premultiplied, opaque), level 0…1 before and after this frame, height in pixels.
    private let red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>, blue: UnsafeMutablePointer<Float>
    private let raw: UnsafeMutablePointer<Float>, level0: UnsafeMutablePointer<Float>, level1: UnsafeMutablePointer<Float>
    private let heights: UnsafeMutablePointer<Float>
    private let tables: PianoKeyboard
    // Layout (from `configure`) and frame state.
    private var width = 0, height = 0, barsBottom = 0, keyboardRows = 0, sonogramRows = 0
    private var ring: UnsafeMutablePointer<UInt32> = .allocate(capacity: 1)
    private var started = false, frame0 = -1, lastFrame = -1, ringStart = 0
    private var barHalfWidth: Float = 0.5
    private var mode = BlendMode.normal, opacity: UInt32 = 255
    private var covered = 0..<0
    /// Per note, its bar's packed colour.
    private let barPixels: UnsafeMutablePointer<UInt32>

    package init(parameters: ShaderParameters) throws {
        low = parameters.integer("low_note")
        let high = parameters.integer("high_note")
        guard high > low + 5 else {
            throw ParameterError(shader: "piano", parameter: "high_note", message: "\(high) must be at least 6 semitones above low_note (\(low))")
        }
        guard parameters.number("ceiling") > parameters.number("floor") else {
            throw ParameterError(shader: "piano", parameter: "ceiling", message: "must be above floor")
        }
        count = high - low + 1
        markers = parameters.flag("c_markers")
        names = parameters.flag("note_names") ? try? PianoNoteNames() : nil
        keyboardShare = Float(parameters.number("keyboard"))
        sonogramShare = Float(parameters.number("sonogram"))
        red = allocateFilled(count, 0); green = allocateFilled(count, 0); blue = allocateFilled(count, 0)
        raw = allocateFilled(count, 0); level0 = allocateFilled(count, 0); level1 = allocateFilled(count, 0)
        heights = allocateFilled(count, 0)
        barPixels = allocateFilled(count, 0)
        let gradient = parameters.choice("colors") == "gradient"
        let from = PremultipliedColor(parameters.color("low_color")), to = PremultipliedColor(parameters.color("high_color"))
        for i in 0..<count {
            let c: (Float, Float, Float)
            if gradient {
                let m = from.mixed(with: to, Float(i) / Float(count - 1))
                c = (m.r, m.g, m.b)
            } else {
                c = Self.pitchColor((low + i) % 12)
            }
            red[i] = c.0; green[i] = c.1; blue[i] = c.2
            barPixels[i] = packOpaque(c.0, c.1, c.2)
        }
        tables = PianoKeyboard(low: low, count: count)
    }

    deinit {
        for p in [red, green, blue, raw, level0, level1, heights] { p.deallocate() }
        ring.deallocate(); barPixels.deallocate()
    }

    /// Pitch class `pc` (C = 0) on the hue circle, C red, saturated but not garish.
    static func pitchColor(_ pc: Int) -> (Float, Float, Float) {
        let h = Float(pc) / 12 * 6
        @inline(__always) func channel(_ n: Float) -> Float {
            var k = n + h
            while k >= 6 { k -= 6 }
            return 1 - 0.72 * max(0, min(1, min(k, 4 - k)))
        }
        return (channel(5), channel(3), channel(1))
    }

    package func configure(width: Int, height: Int) {
        guard width != self.width || height != self.height else { return }
        self.width = width; self.height = height
        keyboardRows = keyboardShare > 0 ? max(3, Int((keyboardShare * Float(height)).rounded())) : 0
        sonogramRows = Int((sonogramShare * Float(height)).rounded())
        barsBottom = max(0, height - keyboardRows - sonogramRows)
        tables.configure(width: width)
        let lowerTop = barsBottom + Int((Float(keyboardRows) * 0.62).rounded(.up))
        names?.configure(width: width, height: height, lowerTop: lowerTop, bottom: barsBottom + keyboardRows, slot: tables.slot,
                         centers: tables.cCenters, count: tables.cCount, firstC: (low + 11) / 12 * 12)
        ring.deallocate()
        ring = allocateFilled(max(1, sonogramRows) * width, 0)
        started = false
    }

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        guard width > 0 else { return }
        readLevels(uniforms.features, floor: Float(parameters.number("floor")),
                   range: max(1, Float(parameters.number("ceiling") - parameters.number("floor"))),
                   contrast: Float(parameters.number("contrast")))
        let n = uniforms.frameIndex
        if !started || n < lastFrame {
            // A new history: bars from nothing, an empty sonogram.
            level1.update(repeating: 0, count: count)
            ring.update(repeating: 0, count: max(1, sonogramRows) * width)
            lastFrame = n - 1
            started = true
        }
        if n > lastFrame {
            // The frame that ended is where this one starts (preparing a frame again redoes it alike).
            level0.update(from: level1, count: count)
            frame0 = lastFrame
        }
        let fall = Float(parameters.number("fall"))
        let drop = fall * Float(n - frame0) / Float(max(uniforms.fps.doubleValue, 1e-6))
        let barsHeight = Float(barsBottom)
        for i in 0..<count {
            level1[i] = fall > 0 ? max(raw[i], level0[i] - drop) : raw[i]
            heights[i] = level1[i] * barsHeight
        }
        tables.prepare(levels: level1, raw: raw, red: red, green: green, blue: blue,
                       separator: max(0.6, Float(height) / 1080), keys: keyboardRows > 0, sonogram: sonogramRows > 0)
        let gap = Float(parameters.number("gap"))
        barHalfWidth = tables.slot * (1 - gap) * 0.5
        mode = uniforms.blend
        opacity = byte(uniforms.opacity)
        // Rows that can get ink: from the tallest bar's top down (keyboard and sonogram included).
        var tallest: Float = 0
        for i in 0..<count { tallest = max(tallest, heights[i]) }
        let top = max(0, barsBottom - Int(tallest.rounded(.up)) - 1)
        covered = top..<(keyboardRows + sonogramRows > 0 ? height : barsBottom)
        if sonogramRows > 0 {
            // One row per frame at slot n mod rows (skipped frames repeat this one).
            for f in max(frame0 + 1, n - sonogramRows + 1)...n {
                let slot = ((f % sonogramRows) + sonogramRows) % sonogramRows
                (ring + slot * width).update(from: tables.sonogramRow, count: width)
            }
        }
        ringStart = n
        lastFrame = n
    }

    /// This frame's level 0…1 per note, into `raw`.
    private func readLevels(_ f: AudioFeatures, floor: Float, range: Float, contrast: Float) {
        readStraightLevels(f, floor: floor, range: range)
        guard contrast != 1 else { return }
        for i in 0..<count where raw[i] > 0 { raw[i] = Float(preciseExp2(Double(contrast) * preciseLog2(Double(raw[i])))) }
    }

    /// This frame's level 0…1 per note before the contrast, into `raw`.
    private func readStraightLevels(_ f: AudioFeatures, floor: Float, range: Float) {
        let scale = 1 / range
        if f.pitches.count == AudioFeatures.pitchCount {
            f.pitches.withUnsafeBufferPointer { p in
                for i in 0..<count {
                    let a = p[low + i - AudioFeatures.lowestPitch]
                    let db = a > 1e-9 ? Float(6.020_599_913 * preciseLog2(Double(a))) : -180
                    raw[i] = clamp01((db - floor) * scale)
                }
            }
        } else {
            // Fallback: the 64 default bands (log-spaced 30 Hz–16 kHz), read at each note's frequency.
            f.bands.withUnsafeBufferPointer { b in
                guard b.count > 1 else { raw.update(repeating: 0, count: count); return }
                for i in 0..<count {
                    let octaves = Float(low + i - 69) / 12 + Float(preciseLog2(440.0 / 30))
                    let x = clamp(octaves / Float(preciseLog2(16000.0 / 30)) * Float(b.count) - 0.5, 0, Float(b.count - 1))
                    let j = min(b.count - 2, Int(x))
                    raw[i] = clamp01(mix(b[j], b[j + 1], x - Float(j)))
                }
            }
        }
    }

    package func coveredRows(height: Int) -> Range<Int> { covered }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        drawRows(blending: mode, target, rows)
    }

    @inline(__always)
    func drawRows<B: BlendFunction>(_: B.Type, _ target: TextureView, _ rows: Range<Int>) {
        let w = min(target.width, width)
        guard w > 0 else { return }
        let split = Float(barsBottom) + Float(keyboardRows) * 0.62
        for y in rows.clamped(to: 0..<height) {
            let dst = target.row32(y)
            if y < barsBottom {
                barRow(B.self, dst, w, depth: Float(barsBottom - 1 - y))
            } else if y < barsBottom + keyboardRows {
                let share = clamp01(split - Float(y))
                if B.self == NormalBlend.self && opacity == 255 {
                    tables.keyRow(dst, width: w, upperShare: share)   // opaque keys: a copy
                } else {
                    for x in 0..<w { dst[x] = B.blend(Blend.scaled(tables.keyPixel(x, upperShare: share), opacity: opacity), onto: dst[x]) }
                }
                if let names, names.shown {
                    names.draw(B.self, row: y, into: dst, width: w, opacity: opacity)
                } else if markers {
                    markC(B.self, dst, w, y)
                }
            } else {
                let f = ringStart - (y - barsBottom - keyboardRows)
                let row = ring + (((f % sonogramRows) + sonogramRows) % sonogramRows) * width
                for x in 0..<w where row[x] != 0 { dst[x] = B.blend(Blend.scaled(row[x], opacity: opacity), onto: dst[x]) }
            }
        }
    }

    /// One row of bars, `depth` rows above the bottom one, blended onto `dst`: each bar whose top is
    /// above that row draws its colour weighted by the part of each column its span covers and the part
    /// of the row its top covers. A column shared by two bars' edges gets their coverage added before
    /// it is blended (no seam), and fully covered columns are filled without the coverage maths.
    @inline(__always)
    private func barRow<B: BlendFunction>(_: B.Type, _ dst: UnsafeMutablePointer<UInt32>, _ w: Int, depth: Float) {
        let slot = tables.slot, half = barHalfWidth, opacity = self.opacity
        var pendingX = -1, pending: UInt32 = 0
        @inline(__always) func flush() {
            if pendingX >= 0 && pendingX < w && pending != 0 {
                dst[pendingX] = B.blend(Blend.scaled(pending, opacity: opacity), onto: dst[pendingX])
            }
            pendingX = -1; pending = 0
        }
        @inline(__always) func add(_ x: Int, _ p: UInt32) {
            if x != pendingX { flush(); pendingX = x }
            pending = Blend.saturatingAdd(pending, p)
        }
        for i in 0..<count where heights[i] > depth {
            let coverage = min(1, heights[i] - depth)
            let color = barPixels[i]
            let center = (Float(i) + 0.5) * slot
            let start = center - half, end = center + half
            let a = Int(start.rounded(.down)), b = Int(end.rounded(.down))
            guard a < w, end > 0 else { continue }
            if a == b {
                add(a, scalePixel(color, weight256((end - start) * coverage)))
                continue
            }
            add(a, scalePixel(color, weight256((Float(a + 1) - start) * coverage)))
            let lo = max(0, a + 1), hi = min(w, b)
            if lo < hi {
                flush()
                let full = Blend.scaled(scalePixel(color, weight256(coverage)), opacity: opacity)
                if B.self == NormalBlend.self && full >> 24 == 255 {
                    (dst + lo).update(repeating: full, count: hi - lo)
                } else {
                    for x in lo..<hi { dst[x] = B.blend(full, onto: dst[x]) }
                }
            }
            if end > Float(b) { add(b, scalePixel(color, weight256((end - Float(b)) * coverage))) }
        }
        flush()
    }

    /// The dot on every C key's lower part, antialiased by its distance.
    @inline(__always)
    private func markC<B: BlendFunction>(_: B.Type, _ dst: UnsafeMutablePointer<UInt32>, _ w: Int, _ y: Int) {
        let lowerTop = Float(barsBottom) + Float(keyboardRows) * 0.62
        let lowerHeight = Float(barsBottom + keyboardRows) - lowerTop
        let cy = lowerTop + lowerHeight * 0.7
        let r = max(0.8, min(lowerHeight * 0.14, tables.slot * 0.45))
        let py = Float(y) + 0.5
        guard abs(py - cy) < r + 1 else { return }
        let marker: UInt32 = packOpaque(0.35, 0.35, 0.38)
        for k in 0..<tables.cCount {
            let cx = tables.cCenters[k]
            let x0 = max(0, Int(cx - r - 1)), x1 = min(w, Int(cx + r + 2))
            guard x0 < x1 else { continue }
            for x in x0..<x1 {
                let dx = Float(x) + 0.5 - cx, dy = py - cy
                let coverage = clamp01(r + 0.5 - (dx * dx + dy * dy).squareRoot())
                if coverage > 0 {
                    dst[x] = B.blend(Blend.scaled(scalePixel(marker, weight256(coverage)), opacity: opacity), onto: dst[x])
                }
            }
        }
    }
}
