/// MilkDrop's built-in waveform (`nWaveMode` 0…7), drawn after the custom shapes and waves.
///
/// Learned from projectM 4 (`MilkdropPreset/Waveform.cpp`, `Waveforms/*.cpp`), which follows MilkDrop's
/// `DrawWave`:
/// - the 576 samples per channel are scaled by `fWaveScale` and smoothed by a one-pole filter,
///   `s[i] = scale·(1 − fWaveSmoothing)·p[i] + fWaveSmoothing·s[i−1]` (MilkDrop's ±128 samples times
///   `fWaveScale/128` equal our ±1 samples times `fWaveScale`);
/// - each mode makes 80…480 points in clip space (y up) from those samples, `wave_x/y` (as
///   `2·wave_x − 1`), `wave_mystery` and time, with `aspectX/Y` keeping circles round — see
///   `points(mode:_:_:)` for each mode;
/// - the points are doubled by a 4-tap interpolation (−0.15, 1.15, 1.15, −0.15) and drawn as one-pixel
///   lines (modes 0 and 1 as closed loops), dots with `wave_usedots`, two pixels wide with `wave_thick`
///   or dots (MilkDrop draws them four times one pixel apart), additively with `wave_additive`;
/// - opacity: `wave_a` times the mode's factor (see `opacity`), times the volume ramp with
///   `bModWaveAlphaByVolume`, clamped 0…1; `wave_brighten` scales the colour so its largest channel is 1.
/// Modes wrap modulo 8 (MilkDrop 1.x's eight; projectM's later extra modes are not drawn).
package final class BuiltInWave {
    /// The per-frame waveform variables (header name / per-frame variable).
    package struct Settings: Sendable, Equatable {
        /// `nWaveMode` / `wave_mode`: 0 circle, 1 x-y spiral, 2 centred spiro, 3 spiro lit by treble,
        /// 4 derivative line, 5 explosive hash, 6 angled line, 7 double line. Wraps modulo 8.
        package var mode: Int = 0
        /// `wave_x` (`fWaveX`): 0…1 left→right.
        package var x: Float = 0.5
        /// `wave_y` (`fWaveY`): 0…1 bottom→top.
        package var y: Float = 0.5
        /// `wave_r`, `wave_g`, `wave_b`, `wave_a` (`fWaveR`… `fWaveAlpha`).
        package var color: MilkColor = SIMD4(1, 1, 1, 0.8)
        /// `fWaveScale` (per-frame `wave_scale`? MilkDrop has none: header value): amplitude.
        package var scale: Float = 1
        /// `fWaveSmoothing`: 0…0.9, how much each sample keeps of the previous.
        package var smoothing: Float = 0.75
        /// `wave_mystery` (`fWaveParam`): radius offset (0, 1), shape (4), line angle (6, 7).
        package var mystery: Float = 0
        /// `wave_usedots` (`bWaveDots`): dots instead of lines.
        package var dots = false
        /// `wave_thick` (`bWaveThick`): two-pixel lines.
        package var thick = false
        /// `wave_additive` (`bAdditiveWaves`): additive blending.
        package var additive = false
        /// `wave_brighten` (`bMaximizeWaveColor`): scale the colour so its largest channel is 1.
        package var brighten = true
        /// `bModWaveAlphaByVolume`: opacity ramps with the volume between the two levels below.
        package var modulateAlphaByVolume = false
        /// `fModWaveAlphaStart`: volume (average of bass, mid, treb) at which opacity is 0.
        package var modulateAlphaStart: Float = 0.75
        /// `fModWaveAlphaEnd`: volume at which opacity is full.
        package var modulateAlphaEnd: Float = 0.95
        /// `time`: seconds since the preset started (turns modes 0, 1 and 5).
        package var time: Float = 0

        package init() {}
    }

    static let samples = 576
    var left: [Float], right: [Float]
    /// Clip-space points of one or two waves before and after smoothing.
    var raw: [SIMD2<Float>], raw2: [SIMD2<Float>], smooth: [SIMD2<Float>]

    /// A wave with its buffers allocated (drawing never allocates afterwards).
    package init() {
        left = [Float](repeating: 0, count: Self.samples)
        right = [Float](repeating: 0, count: Self.samples)
        raw = []; raw.reserveCapacity(Self.samples)
        raw2 = []; raw2.reserveCapacity(Self.samples)
        smooth = []; smooth.reserveCapacity(2 * Self.samples)
    }

    /// Adds this frame's waveform to `list`, from the samples and levels of `audio`.
    package func build(_ s: Settings, audio: MilkAudio, into list: inout MilkDrawList) {
        let mode = ((s.mode % 8) + 8) % 8
        let space = list.space
        var color = s.color.replacing(with: 0, where: .!(s.color .== s.color))
        color.w = opacity(s, mode: mode, audio: audio, space: space)
        guard color.w > 0 else { return }
        color = color.clamped(lowerBound: .zero, upperBound: .one)
        if s.brighten {
            let top = max(color.x, color.y, color.z)
            if top > 0.01 { color.x /= top; color.y /= top; color.z /= top }
        }
        loadSamples(s, audio: audio)
        points(mode: mode, s, space)
        let loop = mode <= 1 && !s.dots
        let kind: MilkPrimitive = s.dots ? .dots : loop ? .lineLoop : .lineStrip
        let size: Float = s.dots || s.thick ? 2 : 1
        let blend: MilkBlend = s.additive ? .additive : .alpha
        for wave in 0..<2 {
            Self.smoothWave(wave == 0 ? raw : raw2, into: &smooth)
            guard !smooth.isEmpty else { continue }
            list.begin(kind, blend: blend, size: size)
            for p in smooth { list.append(space.pixel(clipX: p.x, clipY: p.y), color) }
            list.end()
        }
    }

    /// `wave_a` with the mode's and the volume's factors, clamped 0…1, as MilkDrop 2's `DrawWave`:
    /// mode 1 × 1.25; modes 2 and 5 × 0.11 and mode 3 0.22 (replacing `wave_a`) × 1.3 × the treble
    /// band's own sum squared (`imm[2]`, not the relative `treb`: loud enough music makes it opaque).
    /// MilkDrop scales modes 2, 3 and 5 by its texture size (0.07…0.13, 0.075…0.33 from 256 to 2048
    /// texels); these are its values at 1024, the size of the look MarbleKit keeps at every frame size.
    /// The volume ramp multiplies by (volume − start) / (end − start) — above `end` that is over 1 and
    /// raises the opacity, as in MilkDrop — and under `start` hides the wave.
    func opacity(_ s: Settings, mode: Int, audio: MilkAudio, space: MilkDrawSpace) -> Float {
        var alpha = s.color.w.isFinite ? s.color.w : 0
        switch mode {
        case 1: alpha *= 1.25
        case 2, 5: alpha *= 0.11
        case 3: alpha = 0.22 * 1.3 * audio.trebleImmediate * audio.trebleImmediate
        default: break
        }
        if s.modulateAlphaByVolume {
            let volume = (audio.bass + audio.mid + audio.treble) * 0.333
            let start = s.modulateAlphaStart, end = s.modulateAlphaEnd
            if end != start {
                alpha *= (volume - start) / (end - start)
            } else {
                alpha = volume > start && alpha > 0 ? 1 : 0   // MilkDrop's division by zero: ±infinity
            }
        }
        return alpha.isFinite ? min(max(alpha, 0), 1) : 0
    }

    /// The samples scaled by `fWaveScale` and smoothed by `fWaveSmoothing` (MilkDrop's one-pole filter).
    func loadSamples(_ s: Settings, audio: MilkAudio) {
        let scale = s.scale.isFinite ? min(max(s.scale, -1000), 1000) : 1
        let keep = s.smoothing.isFinite ? min(max(s.smoothing, 0), 0.9999) : 0
        let take = scale * (1 - keep)
        Self.filter(audio.waveLeft, into: &left, scale: scale, take: take, keep: keep)
        Self.filter(audio.waveRight, into: &right, scale: scale, take: take, keep: keep)
    }

    private static func filter(_ source: [Float], into out: inout [Float], scale: Float, take: Float, keep: Float) {
        let n = min(source.count, samples)
        var previous: Float = 0
        for i in 0..<samples {
            let p = i < n ? source[i] : 0
            let v = i == 0 ? p * scale : p * take + previous * keep
            previous = v
            out[i] = v
        }
    }

    /// Doubles the points with a 4-tap interpolation between each pair (MilkDrop's `SmoothWave`).
    static func smoothWave(_ input: [SIMD2<Float>], into output: inout [SIMD2<Float>]) {
        output.removeAll(keepingCapacity: true)
        let n = input.count
        guard n >= 2 else { output.append(contentsOf: input); return }
        var below = 0
        for i in 0..<(n - 1) {
            let above = i + 1, above2 = min(n - 1, i + 2)
            output.append(input[i])
            output.append((input[below] * -0.15 + input[i] * 1.15 + input[above] * 1.15 + input[above2] * -0.15) * 0.5)
            below = i
        }
        output.append(input[n - 1])
    }
}
