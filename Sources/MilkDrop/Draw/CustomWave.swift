/// One of a preset's four custom waves: up to 512 points a frame, each placed and coloured by the wave's
/// per-point code from a waveform or spectrum sample.
///
/// Semantics as projectM 4 `MilkdropPreset/CustomWaveform.cpp` and the wave contexts:
/// - per frame, the per-frame code sees `time`…`q32`, `t1`…`t8` as the init code left them, and `r g b a`
///   and `samples` from the file; it may change them;
/// - `samples` (≤ 480 waveform, ≤ 512 spectrum; at least 2) samples are taken: the waveform's middle,
///   the left channel `sep/2` earlier and the right one `sep/2` later; or the spectrum stretched over
///   the points; smoothed forward and backward with `mix = √(0.98·smoothing)`, then multiplied by
///   `scaling · fWaveScale · 0.512` (waveform: MilkDrop's 0.004 × its ±128 samples) or
///   `scaling · fWaveScale · 0.15 · spectrumGain` (spectrum);
/// - per point, the per-point code (its own variables; q and t copied from the per-frame code) sees
///   `sample` (0…1 along the wave), `value1`/`value2` (left/right), `x = 0.5 + value1`,
///   `y = 0.5 + value2` (preset space, y up), and the per-frame `r g b a`; it sets `x y r g b a`;
/// - the points are doubled by MilkDrop's 4-tap interpolation and drawn as a one-pixel line strip (two
///   pixels with `bDrawThick`), or dots (`bUseDots`; two-pixel dots when thick), additively with
///   `bAdditive`. Colour channels wrap like MilkDrop's bytes.
/// x and y 0…1 span the whole target (MilkDrop 1.x's stretched square canvas; MilkDrop 2 and projectM
/// also divide by the aspect ratio, which pushes y = 0…1 past the top and bottom on wide targets).
package final class CustomWave {
    /// The wave's file values (`wavecode_N_…`).
    package struct Settings: Sendable, Equatable {
        /// `enabled`.
        package var enabled = false
        /// `samples` (per-frame variable `samples`): points, 2…512.
        package var samples: Double = 512
        /// `sep`: samples between the left and right channels.
        package var separation = 0
        /// `bSpectrum`: spectrum instead of waveform.
        package var spectrum = false
        /// `bUseDots`, `bDrawThick`, `bAdditive`.
        package var dots = false, thick = false, additive = false
        /// `scaling`: amplitude; `smoothing`: 0…1.
        package var scaling: Double = 1, smoothing: Double = 0.5
        /// `r`, `g`, `b`, `a`: starting colour of the per-frame code.
        package var color = SIMD4<Double>(1, 1, 1, 1)

        package init() {}

        /// The settings of `wavecode_N_*` values (keys lower-cased), defaults for missing keys.
        package init(values: [String: Double]) {
            func v(_ k: String, _ d: Double) -> Double { values[k] ?? d }
            enabled = v("enabled", 0) != 0; samples = v("samples", 512)
            let sep = v("sep", 0)
            separation = sep.isFinite ? Int(min(max(sep, 0), 512)) : 0
            spectrum = v("bspectrum", 0) != 0; dots = v("busedots", 0) != 0
            thick = v("bdrawthick", 0) != 0; additive = v("badditive", 0) != 0
            scaling = v("scaling", 1); smoothing = v("smoothing", 0.5)
            color = SIMD4(v("r", 1), v("g", 1), v("b", 1), v("a", 1))
        }
    }

    /// How much larger MilkDrop's spectrum values are than ``MilkAudio/spectrum``'s (about 1 for a
    /// full-scale sine): a spectrum wave with scaling 1 rises about as high as in MilkDrop.
    package static let spectrumGain: Float = 16

    package let settings: Settings
    package let index: Int
    /// Variables of the per-frame and init code; of the per-point code.
    package let frameMemory: ExpressionMemory, pointMemory: ExpressionMemory
    let initCode: ExpressionProgram?, perFrame: ExpressionProgram?, perPoint: ExpressionProgram?
    /// The blocks as reports name them (`wave 1 per_point` and the file line).
    let initLabel: MilkCodeLabel, perFrameLabel: MilkCodeLabel, perPointLabel: MilkCodeLabel
    let frameSlots: FrameSlots, pointSlots: FrameSlots
    let fR: Int, fG: Int, fB: Int, fA: Int, fSamples: Int
    let pSample: Int, pValue1: Int, pValue2: Int, pX: Int, pY: Int, pR: Int, pG: Int, pB: Int, pA: Int
    var tAfterInit = SIMD8<Double>()
    var started = false
    var left: [Float], right: [Float], points: [SIMD2<Float>], colors: [MilkColor]

    /// Compiles wave `index` of a preset. `seed` fixes its `rand`.
    package init(code: CustomWaveCode, index: Int = 0, globalBuffer: MegaBuffer, seed: UInt64 = 0) throws(CustomCodeError) {
        self.index = index
        settings = Settings(values: code.values)
        frameMemory = ExpressionMemory(seed: seed, globalBuffer: globalBuffer)
        pointMemory = ExpressionMemory(seed: seed &+ 1, globalBuffer: globalBuffer)
        frameSlots = try FrameSlots(frameMemory)
        pointSlots = try FrameSlots(pointMemory)
        func s(_ m: ExpressionMemory, _ name: String) throws(CustomCodeError) -> Int {
            do { return try m.slot(name) } catch { throw CustomCodeError(block: "wave \(index) variables", line: 0, error: error) }
        }
        let f = frameMemory, p = pointMemory
        fR = try s(f, "r"); fG = try s(f, "g"); fB = try s(f, "b"); fA = try s(f, "a"); fSamples = try s(f, "samples")
        pSample = try s(p, "sample"); pValue1 = try s(p, "value1"); pValue2 = try s(p, "value2")
        pX = try s(p, "x"); pY = try s(p, "y"); pR = try s(p, "r"); pG = try s(p, "g"); pB = try s(p, "b"); pA = try s(p, "a")
        initCode = try CustomCodeError.compile(code.initCode, "wave \(index) init", f)
        perFrame = try CustomCodeError.compile(code.perFrame, "wave \(index) per_frame", f)
        perPoint = try CustomCodeError.compile(code.perPoint, "wave \(index) per_point", p)
        initLabel = MilkCodeLabel("wave \(index) init", code.initCode, .initial)
        perFrameLabel = MilkCodeLabel("wave \(index) per_frame", code.perFrame, .perFrame)
        perPointLabel = MilkCodeLabel("wave \(index) per_point", code.perPoint, .wavePoint)
        let n = MilkDropLimits.wavePoints
        left = [Float](repeating: 0, count: n); right = left
        points = []; points.reserveCapacity(n)
        colors = []; colors.reserveCapacity(n)
    }

    /// Makes the next ``build(_:audio:into:)`` run the init code again (a preset restart).
    package func restart() { started = false; frameMemory.resetVariables(); pointMemory.resetVariables() }

    private func loadFrame(_ v: MilkFrameValues) {
        let m = frameMemory, st = settings
        frameSlots.load(v, into: m)
        m[fR] = st.color.x; m[fG] = st.color.y; m[fB] = st.color.z; m[fA] = st.color.w
        m[fSamples] = st.samples
    }

    /// Runs the per-frame and per-point code and adds the wave to `list`, with no work budget.
    package func build(_ v: MilkFrameValues, audio: MilkAudio, into list: inout MilkDrawList) {
        var work = MilkWork(budget: .unlimited)
        build(v, audio: audio, into: &list, work: &work)
    }

    /// Runs the per-frame and per-point code within `work` and adds the wave to `list` (code stopped
    /// by the budget leaves what it reached; the points are still drawn).
    package func build(_ v: MilkFrameValues, audio: MilkAudio, into list: inout MilkDrawList, work: inout MilkWork) {
        guard settings.enabled else { return }
        let f = frameMemory, p = pointMemory
        if !started {
            started = true
            loadFrame(v)
            if let initCode { _ = work.run(initCode, initLabel) }
            tAfterInit = frameSlots.readT(f)
        }
        loadFrame(v)
        frameSlots.loadT(tAfterInit, into: f)
        if let perFrame { _ = work.run(perFrame, perFrameLabel) }
        let maximum = settings.spectrum ? MilkAudio.spectrumLength : 480
        let requested = f[fSamples]
        let count = requested.isFinite ? Int(min(max(requested, 0), Double(maximum))) : 0
        guard count >= 2 else { return }
        loadSamples(count: count, maximum: maximum, audio: audio, waveScale: v.waveScale)
        // Per-point variables: the frame's values, q and t from the per-frame code.
        var q = v; q.q = frameSlots.readQ(f)
        pointSlots.load(q, into: p)
        pointSlots.loadT(frameSlots.readT(f), into: p)
        let r = f[fR], g = f[fG], b = f[fB], a = f[fA]
        let space = list.space
        points.removeAll(keepingCapacity: true); colors.removeAll(keepingCapacity: true)
        let step = 1 / Double(count - 1), label = perPointLabel
        for i in 0..<count {
            let l = Double(left[i]), rr = Double(right[i])
            p[pSample] = Double(i) * step; p[pValue1] = l; p[pValue2] = rr
            p[pX] = 0.5 + l; p[pY] = 0.5 + rr
            p[pR] = r; p[pG] = g; p[pB] = b; p[pA] = a
            if let perPoint { _ = work.run(perPoint, label) }
            let x = Float(p[pX]), y = Float(p[pY])
            points.append(x.isFinite && y.isFinite ? space.pixel(presetX: x, presetY: y) : SIMD2(.nan, .nan))
            colors.append(milkWrappedColor(p[pR], p[pG], p[pB], p[pA]))
        }
        let kind: MilkPrimitive = settings.dots ? .dots : .lineStrip
        list.begin(kind, blend: settings.additive ? .additive : .alpha, size: settings.thick ? 2 : 1)
        // MilkDrop's smoothing doubles the points: each pair gets an interpolated point between them
        // with the first one's colour.
        for i in 0..<(count - 1) {
            let below = max(i - 1, 0), above = i + 1, above2 = min(count - 1, i + 2)
            list.append(points[i], colors[i])
            let mid = (points[below] * -0.15 + points[i] * 1.15 + points[above] * 1.15 + points[above2] * -0.15) * 0.5
            list.append(mid, colors[i])
        }
        list.append(points[count - 1], colors[count - 1])
        list.end()
    }

    /// `left`/`right` for `count` points: picked, smoothed both ways and scaled.
    private func loadSamples(count: Int, maximum: Int, audio: MilkAudio, waveScale: Double) {
        let spectrum = settings.spectrum, sep = settings.separation
        let sourceL = spectrum ? audio.spectrum : audio.waveLeft
        let sourceR = spectrum ? audio.spectrum : audio.waveRight
        let last = sourceL.count - 1
        let offset1 = spectrum ? 0 : (maximum - count) / 2 - sep / 2
        let offset2 = spectrum ? 0 : (maximum - count) / 2 + sep / 2
        let stretch: Float = spectrum ? Float(maximum - sep) / Float(count) : 1
        let smoothing = Float(settings.smoothing.isFinite ? min(max(settings.smoothing, 0), 1) : 0)
        let mix1 = (smoothing * 0.98).squareRoot(), mix2 = 1 - mix1
        let gain: Float = spectrum ? 0.15 * Self.spectrumGain : 0.512
        let scale = Double(gain) * settings.scaling * (waveScale.isFinite ? waveScale : 1)
        let mult = scale.isFinite ? Float(min(max(scale, -1e6), 1e6)) : 0
        func at(_ source: [Float], _ i: Int, _ offset: Int) -> Float {
            let k = Int(Float(i) * stretch) + offset
            return source[min(max(k, 0), last)]
        }
        left[0] = at(sourceL, 0, offset1); right[0] = at(sourceR, 0, offset2)
        for i in 1..<count {
            left[i] = at(sourceL, i, offset1) * mix2 + left[i - 1] * mix1
            right[i] = at(sourceR, i, offset2) * mix2 + right[i - 1] * mix1
        }
        for i in stride(from: count - 2, through: 0, by: -1) {
            left[i] = left[i] * mix2 + left[i + 1] * mix1
            right[i] = right[i] * mix2 + right[i + 1] * mix1
        }
        for i in 0..<count { left[i] *= mult; right[i] *= mult }
    }
}
