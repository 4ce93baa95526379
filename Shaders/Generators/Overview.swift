import MarbleCore

/// Overview: the whole song's waveform across the frame with a progress marker (FFmpeg's showwavespic
/// plus a playhead), for song and podcast videos.
///
/// Audio: the song's envelope (``SongInfo/overview``, peak and RMS per bin from the analysis pass, so
/// the whole song is known at the first frame), mirrored around a centre line: the RMS as a solid core,
/// the peaks as a lighter shade around it (`peak_alpha`). What has been played (left of the playhead,
/// at x = width × time / duration) takes `played_color`, the rest `rest_color`; the playhead is a line
/// of `playhead` pixels (at 1080p). `channels: split` draws the left channel upwards and the right one
/// downwards. Edges are box-filtered per pixel: the column where the colours change and the playhead
/// are blended by their coverage. Without an overview (a live session) it draws the recent past
/// instead: one column per frame of the frames' peak and RMS, scrolling left, the newest at the right
/// edge under the playhead (the frame prepared again rewrites its column; an earlier one starts the
/// history over). Parameters: `center_y`, `height` (fraction of the frame height for a
/// full-scale peak), `margin` (empty fraction of the width at each side), `gain`, the colours.
package final class Overview: Shader, BlendedRowDrawing, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` only reads the per-column arrays.
    package static let descriptor = ShaderDescriptor(
        name: "overview", summary: "The whole song's waveform with a playhead (showwavespic with progress).",
        kind: .generator, drawsOnCanvas: true,
        parameters: [
            ParameterDescriptor("center_y", "Vertical position of the centre line, fraction of the height.", .number(default: 0.85, range: 0...1)),
            ParameterDescriptor("height", "Height of a full-scale peak (both sides), fraction of the frame height.", .number(default: 0.16, range: 0.02...1)),
            ParameterDescriptor("margin", "Empty fraction of the width left and right.", .number(default: 0.05, range: 0...0.45)),
            ParameterDescriptor("gain", "Multiplies the envelope (clamped to full height).", .number(default: 1, range: 0.1...8)),
            ParameterDescriptor("played_color", "Colour of the part already played.", .color(default: Color(parsing: "#ff2ebd")!)),
            ParameterDescriptor("rest_color", "Colour of the part still to come.", .color(default: Color(parsing: "#ffffffa0")!)),
            ParameterDescriptor("peak_alpha", "Opacity of the peak shade around the RMS core.", .number(default: 0.45, range: 0...1)),
            ParameterDescriptor("playhead", "Playhead width in pixels at 1080p; 0: none.", .number(default: 2, range: 0...12)),
            ParameterDescriptor("playhead_color", "Playhead colour.", .color(default: .white)),
            ParameterDescriptor("channels", "mix (both channels mirrored) or split (left up, right down).",
                                .choice(default: "mix", options: ["mix", "split"])),
        ])

    private let split: Bool
    // Per column (allocated in `configure`): the envelope's reach above and below the centre line, in
    // pixels, for the peak and the RMS; and the live history (peak, RMS per frame, a ring).
    private var capacity = 0
    private var upPeak: UnsafeMutablePointer<Float> = .allocate(capacity: 1), upRMS: UnsafeMutablePointer<Float> = .allocate(capacity: 1)
    private var downPeak: UnsafeMutablePointer<Float> = .allocate(capacity: 1), downRMS: UnsafeMutablePointer<Float> = .allocate(capacity: 1)
    private var historyPeak: UnsafeMutablePointer<Float> = .allocate(capacity: 1), historyRMS: UnsafeMutablePointer<Float> = .allocate(capacity: 1)
    private var historyCount = 0, historyNext = 0, lastFrame = Int.min
    // Per frame.
    private var left = 0, right = 0
    private var centre: Float = 0, halfHeight: Float = 0, playheadX: Float = 0, playheadHalf: Float = 0
    private var played: UInt32 = 0, rest: UInt32 = 0, playheadPixel: UInt32 = 0, peakWeight: UInt32 = 0
    private var firstRow = 0, endRow = 0
    private var mode = BlendMode.normal, opacity: UInt32 = 255

    package init(parameters: ShaderParameters) throws {
        split = parameters.choice("channels") == "split"
    }

    deinit { for p in [upPeak, upRMS, downPeak, downRMS, historyPeak, historyRMS] { p.deallocate() } }

    package func configure(width: Int, height: Int) {
        guard width != capacity else { return }
        for p in [upPeak, upRMS, downPeak, downRMS, historyPeak, historyRMS] { p.deallocate() }
        capacity = width
        upPeak = allocateFilled(width, 0); upRMS = allocateFilled(width, 0)
        downPeak = allocateFilled(width, 0); downRMS = allocateFilled(width, 0)
        historyPeak = allocateFilled(width, 0); historyRMS = allocateFilled(width, 0)
        historyCount = 0; historyNext = 0
    }

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        mode = uniforms.blend
        opacity = byte(uniforms.opacity)
        let w = min(uniforms.width, capacity), h = Float(uniforms.height)
        let margin = Int((parameters.number("margin") * Float(w)).rounded())
        left = margin; right = max(margin, w - margin)
        centre = parameters.number("center_y") * h
        halfHeight = 0.5 * parameters.number("height") * h
        let gain = parameters.number("gain") * halfHeight
        played = PremultipliedColor(parameters.color("played_color")).packed
        rest = PremultipliedColor(parameters.color("rest_color")).packed
        playheadPixel = PremultipliedColor(parameters.color("playhead_color")).packed
        peakWeight = weight256(parameters.number("peak_alpha"))
        playheadHalf = 0.5 * parameters.number("playhead") * h / 1080
        let columns = right - left
        if let song = uniforms.song, let overview = song.overview, overview.count > 0 {
            let duration = song.duration > 0 ? song.duration : overview.duration
            playheadX = Float(left) + Float(columns) * Float(min(1, max(0, uniforms.time / duration)))
            let binsPerColumn = duration / overview.binSeconds / Double(max(1, columns))
            for c in 0..<columns {
                let (lp, lr, rp, rr) = Self.envelope(overview, from: Double(c) * binsPerColumn, to: Double(c + 1) * binsPerColumn)
                store(c + left, split ? lp : max(lp, rp), split ? lr : ((lr * lr + rr * rr) / 2).squareRoot(),
                      split ? rp : max(lp, rp), split ? rr : ((lr * lr + rr * rr) / 2).squareRoot(), gain)
            }
        } else if w > 0 {
            // Live: remember this frame, draw the last `columns` frames, newest at the right edge. An
            // earlier frame than the last starts the history over (a new session).
            if uniforms.frameIndex == lastFrame {
                // The frame just prepared, again: its column is rewritten, not added.
                historyNext = (historyNext - 1 + w) % w
                historyCount -= 1
            } else if uniforms.frameIndex < lastFrame {
                historyCount = 0; historyNext = 0
            }
            lastFrame = uniforms.frameIndex
            let f = uniforms.features
            historyPeak[historyNext] = f.peak.isFinite ? f.peak : 0
            historyRMS[historyNext] = f.rms.isFinite ? f.rms : 0
            historyNext = (historyNext + 1) % w
            historyCount = min(w, historyCount + 1)
            playheadX = Float(right)
            for c in 0..<columns {
                let age = columns - 1 - c
                guard age < historyCount else { store(c + left, 0, 0, 0, 0, gain); continue }
                let i = (historyNext - 1 - age + w) % w
                store(c + left, historyPeak[i], historyRMS[i], historyPeak[i], historyRMS[i], gain)
            }
        }
        // At the very start and end the playhead stays whole inside the overview.
        playheadX = min(max(playheadX, Float(left) + playheadHalf), Float(right) - playheadHalf)
        let reach = max(halfHeight, 1) + 1
        firstRow = columns > 0 ? max(0, Int((centre - reach).rounded(.down))) : 0
        endRow = columns > 0 ? min(uniforms.height, Int((centre + reach).rounded(.up))) : 0
    }

    @inline(__always) private func store(_ x: Int, _ up: Float, _ upR: Float, _ down: Float, _ downR: Float, _ gain: Float) {
        upPeak[x] = min(halfHeight, up * gain); upRMS[x] = min(halfHeight, upR * gain)
        downPeak[x] = min(halfHeight, down * gain); downRMS[x] = min(halfHeight, downR * gain)
    }

    /// Left and right peak and RMS over bins `from`…`to` (fractional): the loudest peak and the power
    /// mean of the bins the span touches, or the linear interpolation at its middle when it is under one bin.
    private static func envelope(_ o: WaveformOverview, from: Double, to: Double) -> (Float, Float, Float, Float) {
        let r = o.channels > 1 ? 1 : 0
        if to - from < 1 {
            let p = max(0, min(Double(o.count - 1), 0.5 * (from + to) - 0.5))
            let i = min(o.count - 1, Int(p)), j = min(o.count - 1, i + 1), t = Float(p - Double(i))
            func at(_ a: [Float]) -> Float { mix(a[i], a[j], t) }
            return (at(o.peaks[0]), at(o.rms[0]), at(o.peaks[r]), at(o.rms[r]))
        }
        let first = min(o.count - 1, Int(from)), end = max(first + 1, min(o.count, Int(to.rounded(.up))))
        var lp: Float = 0, rp: Float = 0, lr: Float = 0, rr: Float = 0
        for b in first..<end {
            lp = max(lp, o.peaks[0][b]); rp = max(rp, o.peaks[r][b])
            lr += o.rms[0][b] * o.rms[0][b]; rr += o.rms[r][b] * o.rms[r][b]
        }
        let n = Float(end - first)
        return (lp, (lr / n).squareRoot(), rp, (rr / n).squareRoot())
    }

    package func coveredRows(height: Int) -> Range<Int> { firstRow..<max(firstRow, min(height, endRow)) }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        drawRows(blending: mode, target, rows)
    }

    @inline(__always)
    func drawRows<B: BlendFunction>(_: B.Type, _ target: TextureView, _ rows: Range<Int>) {
        let band = rows.clamped(to: firstRow..<max(firstRow, endRow))
        guard !band.isEmpty, left < right else { return }
        let top = centre - halfHeight, bottom = centre + halfHeight
        for y in band {
            let row = target.row32(y)
            let y0 = Float(y), y1 = y0 + 1
            // Coverage of this row by [centre − up, centre + down].
            @inline(__always) func span(_ up: Float, _ down: Float) -> Float {
                clamp01(min(y1, centre + down) - max(y0, centre - up))
            }
            let lineRow = clamp01(min(y1, bottom) - max(y0, top))
            for x in left..<right {
                let peak = span(upPeak[x], downPeak[x]), core = span(upRMS[x], downRMS[x])
                let x0 = Float(x)
                var pixel: UInt32 = 0
                if peak > 0 {
                    let playedShare = clamp01(playheadX - x0)
                    let colour = lerpPixel(rest, played, weight256(playedShare))
                    let shade = scalePixel(colour, peakWeight)
                    pixel = lerpPixel(scalePixel(shade, weight256(peak)), colour, weight256(core))
                }
                if playheadHalf > 0 {
                    let line = clamp01(min(x0 + 1, playheadX + playheadHalf) - max(x0, playheadX - playheadHalf)) * lineRow
                    if line > 0 { pixel = lerpPixel(pixel, playheadPixel, weight256(line)) }
                }
                guard pixel != 0 else { continue }
                row[x] = B.blend(Blend.scaled(pixel, opacity: opacity), onto: row[x])
            }
        }
    }
}
