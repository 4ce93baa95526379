import Foundation
import MarbleCore
import MarbleDSP

/// Causal, per-frame audio analysis for one stream: the features every kernel reads.
///
/// Feed decoded audio with `append(left:right:)` (any chunk size), then call
/// ``computeFeatures(forFrame:into:)`` for frames 0, 1, 2, … once ``samplesNeeded(forFrame:)``
/// samples have been appended (or ``finish()`` was called). Frame `n` analyses the audio up to the
/// *end* of the frame, `t = (n + 1) / fps`, so a sound at time `t` shows in frame `floor(t · fps)` or
/// the next one, never later. Results depend only on the samples, never on how they were chunked.
///
/// Memory is flat in stream length: samples live in a bounded ring sized for the longest window plus
/// two seconds of read-ahead. Appending further ahead than that grows the ring (once) instead of losing
/// samples. `computeFeatures` never allocates in steady state (buffers are made at init; the
/// features' arrays are resized only if they were created with other sizes).
///
/// Not thread-safe: use one instance from one thread at a time. It is `@unchecked Sendable` only so
/// that ownership can move to the thread or task that runs the analysis stage; never call it from two
/// threads concurrently.
///
/// ```swift
/// let fx = try FeatureExtractor(sampleRate: 48000, fps: Rational(60), configuration: AnalysisConfiguration())
/// var features = fx.makeFeatures()                   // sized once; reuse it every frame
/// // Offline render: optionally take beats from the whole-song tracker.
/// fx.setBeatGrid(from: try OfflineAnalyzer.analyze(left: song, sampleRate: 48000))
/// for frame in 0..<frameCount {
///     while decodedSamples < fx.samplesNeeded(forFrame: frame), let chunk = decoder.next() {
///         chunk.left.withUnsafeBufferPointer { l in fx.append(left: l, right: nil) }
///     }
///     if decoderFinished { fx.finish() }
///     fx.computeFeatures(forFrame: frame, into: &features)
///     render(frame, features)
/// }
/// ```
///
/// Live mode (no beat grid) is causal: tempo locks after about 2.5–3 s of music, then beats are
/// predicted and land in their own frame; onsets are confirmed one 10 ms hop after their peak.
/// Per frame it costs well under a millisecond (about 0.05 ms at 60 fps, 44.1 kHz on this machine class).
public final class FeatureExtractor: @unchecked Sendable {
    /// Rate of the samples appended, Hz.
    public let sampleRate: Int
    /// The frame rate frames are computed at.
    public let fps: Rational
    /// The configuration the extractor was made with.
    public let configuration: AnalysisConfiguration
    /// Bands produced (equals `configuration.bandCount` for the logarithmic layout).
    public var bandCount: Int { bank.count }
    /// Bins in `AudioFeatures.spectrum` when requested (main FFT size / 2 + 1).
    public var spectrumLength: Int { main.binCount }
    /// Main FFT length, samples.
    public var fftSize: Int { main.size }
    /// Band edges and centres, Hz.
    public var bandLowerEdges: [Double] { bank.lower }
    /// Upper edge of each band, Hz.
    public var bandUpperEdges: [Double] { bank.upper }
    /// Centre of each band (geometric mean of its edges), Hz.
    public var bandCenters: [Double] { bank.center }

    private let ring: SampleRing
    /// Samples per channel the ring holds (for tests: stays put when frames are computed as audio comes).
    var ringCapacity: Int { ring.capacity }
    private let main: RealFFT
    private let long: RealFFT
    private let mainWindow: UnsafeMutablePointer<Float>
    private let longWindow: UnsafeMutablePointer<Float>
    private let mainScale: Float, longScale: Float
    private let mainPower: UnsafeMutablePointer<Float>
    private let longPower: UnsafeMutablePointer<Float>
    /// Main-spectrum magnitudes of the last frame computed (this frame's once ``fillSpectralShape(_:)`` ran).
    private let previousMagnitude: UnsafeMutablePointer<Float>
    private let bandAmplitude: UnsafeMutablePointer<Float>
    private let rangeAmplitude: UnsafeMutablePointer<Float>
    private let bank: BandBank
    private let ranges: BandBank
    private let smoother: BandSmoother
    private let chroma: ChromaMap
    private var levels: RelativeLevels
    private var level: EnvelopeFollower
    private var levelScale: LevelScale
    private var levelRank: LevelRank
    private var loudness: LoudnessMeter
    private let onsets: OnsetDetector
    private var onsetPicker = LiveOnsetPicker()
    private let beats: LiveBeatTracker
    private var clock = BeatClock()
    private var onsetScale: Float = 0

    private let frameDuration: Double
    /// Per-frame decay of the onset normaliser (a 5 s time constant).
    private let onsetScaleDecay: Float
    private let frameSamples: Int
    /// The constant-Q semitone analysis, made by ``request(_:)`` when pitches are asked for.
    private var pitchBank: PitchBank?
    /// The optional features ``makeFeatures()`` sizes for (set with ``request(_:)``).
    public private(set) var outputs: OptionalFeatures = []
    private var loudnessPosition = 0
    private var nextHop = 0
    private var lastFrame = -1
    private var finished = false
    private var longestWindow: Int

    /// An extractor for one stream of `sampleRate` Hz audio, producing features at `fps` frames per second. Allocates its buffers and FFT setups now.
    ///
    /// - Throws: `MarbleError` (`.option`) for a sample rate outside 8…192 kHz, a non-positive
    ///   frame rate or an invalid configuration; (`.media`) if av_tx cannot be set up.
    public init(sampleRate: Int, fps: Rational, configuration: AnalysisConfiguration = AnalysisConfiguration()) throws(MarbleError) {
        guard (8000...192_000).contains(sampleRate) else {
            throw MarbleError(.option, "sample rate \(sampleRate) Hz is outside 8000–192000 Hz")
        }
        guard fps.numerator > 0, fps.denominator > 0, fps.doubleValue <= 1000 else {
            throw MarbleError(.option, "frame rate \(fps) must be positive and at most 1000")
        }
        try configuration.validate()
        self.sampleRate = sampleRate
        self.fps = fps
        self.configuration = configuration
        let top = min(configuration.maxFrequency, 0.49 * Double(sampleRate))
        guard top > configuration.minFrequency * 1.05 else {
            throw MarbleError(.option, "frequency range \(configuration.minFrequency)–\(configuration.maxFrequency) Hz is above the Nyquist frequency of \(sampleRate) Hz audio")
        }
        let n = configuration.resolvedFFTSize(sampleRate: sampleRate)
        main = try RealFFT(size: n)
        long = try RealFFT(size: 4 * n)
        mainWindow = .allocate(capacity: n)
        longWindow = .allocate(capacity: 4 * n)
        SpectrumScaling.fill(mainWindow, count: n, shape: configuration.window)
        SpectrumScaling.fill(longWindow, count: 4 * n, shape: configuration.window)
        let (ms, menbw) = SpectrumScaling.factors(mainWindow, count: n)
        let (ls, lenbw) = SpectrumScaling.factors(longWindow, count: 4 * n)
        mainScale = ms; longScale = ls
        let e = BandBank.edges(layout: configuration.layout, count: configuration.bandCount,
                               minFrequency: configuration.minFrequency, maxFrequency: top)
        bank = BandBank(lower: e.lower, upper: e.upper, center: e.center, sampleRate: sampleRate,
                        mainSize: n, longSize: configuration.bassResolution || configuration.layout == .semitone ? 4 * n : 0,
                        mainENBW: menbw, longENBW: lenbw)
        let nyq = 0.49 * Double(sampleRate)
        let rl = [20.0, 250, min(4000, nyq * 0.5)], ru = [250.0, min(4000, nyq * 0.5), min(16000, nyq)]
        ranges = BandBank(lower: rl, upper: ru, center: zip(rl, ru).map { ($0 * $1).squareRoot() },
                          sampleRate: sampleRate, mainSize: n, longSize: 0, mainENBW: menbw, longENBW: menbw)
        func buffer(_ c: Int) -> UnsafeMutablePointer<Float> {
            let p = UnsafeMutablePointer<Float>.allocate(capacity: c)
            p.initialize(repeating: 0, count: c)
            return p
        }
        mainPower = buffer(main.binCount)
        longPower = buffer(long.binCount)
        previousMagnitude = buffer(main.binCount)
        bandAmplitude = buffer(bank.count)
        rangeAmplitude = buffer(3)
        frameDuration = 1 / fps.doubleValue
        onsetScaleDecay = Float(exp(-frameDuration / 5))
        frameSamples = max(1, Int((Double(sampleRate) * frameDuration).rounded(.up)))
        smoother = BandSmoother(count: bank.count, centers: bank.center, frameDuration: frameDuration, configuration: configuration)
        chroma = ChromaMap(sampleRate: sampleRate, fftSize: 4 * n)
        levels = RelativeLevels(step: frameDuration)
        level = EnvelopeFollower(attack: configuration.levelAttack, release: configuration.levelRelease, step: frameDuration)
        levelScale = LevelScale(configuration: configuration, step: frameDuration)
        levelRank = LevelRank(configuration: configuration, step: frameDuration)
        loudness = LoudnessMeter(sampleRate: sampleRate)
        onsets = try OnsetDetector(sampleRate: sampleRate)
        beats = LiveBeatTracker(rate: onsets.rate, minBPM: configuration.minTempo, maxBPM: configuration.maxTempo)
        clock.pulseDecay = configuration.beatPulseDecay
        longestWindow = max(4 * n, configuration.waveformLength, frameSamples, onsets.windowSize)
        ring = SampleRing(minimumCapacity: longestWindow + 2 * sampleRate + frameSamples)
    }

    deinit {
        for p in [mainWindow, longWindow, mainPower, longPower, previousMagnitude, bandAmplitude, rangeAmplitude] {
            p.deallocate()
        }
    }

    /// A features value sized for this extractor: bands and waveform, plus the optional features
    /// requested with ``request(_:)``.
    public func makeFeatures() -> AudioFeatures {
        makeFeatures(spectrum: outputs.contains(.spectrum), pitches: outputs.contains(.pitches))
    }

    /// A features value sized for this extractor (bands, waveform; the spectrum when `spectrum` is
    /// true; semitones when `pitches` is true, which needs ``request(_:)`` with `.pitches` first).
    public func makeFeatures(spectrum: Bool, pitches: Bool = false) -> AudioFeatures {
        AudioFeatures(bandCount: bank.count, waveformLength: configuration.waveformLength,
                      spectrumLength: spectrum ? main.binCount : 0,
                      pitchCount: pitches && pitchBank != nil ? AudioFeatures.pitchCount : 0)
    }

    /// Asks for optional features (a scene's `ShaderDescriptor.needs`): ``makeFeatures()`` then sizes
    /// features to hold them, and ``computeFeatures(forFrame:into:)`` fills whatever a features value
    /// has room for. `.pitches` builds the constant-Q analysis (`PitchBank`: kernels and a long FFT,
    /// a few tens of milliseconds, once). Call before the first frame; allocates.
    ///
    /// - Throws: `MarbleError` (`.media`) if av_tx cannot set up the long FFT.
    public func request(_ outputs: OptionalFeatures) throws(MarbleError) {
        precondition(lastFrame < 0, "request optional features before the first frame")
        self.outputs = outputs
        if outputs.contains(.pitches), pitchBank == nil {
            let bank = try PitchBank(sampleRate: sampleRate, minimumWindow: main.size)
            pitchBank = bank
            longestWindow = max(longestWindow, bank.size)
        }
    }

    /// Oldest sample any later frame can still read.
    private var keepFrom: Int {
        min(samplesNeeded(forFrame: lastFrame + 1) - longestWindow, loudnessPosition, onsets.windowEnd(ofHop: nextHop) - onsets.windowSize)
    }

    /// Appends decoded audio, planar float; `right == nil` for mono. Any chunk size.
    public func append(left: UnsafeBufferPointer<Float>, right: UnsafeBufferPointer<Float>?) {
        ring.append(left, right, keepFrom: keepFrom)
    }

    /// Convenience for arrays.
    public func append(left: [Float], right: [Float]? = nil) {
        left.withUnsafeBufferPointer { l in
            if let right {
                right.withUnsafeBufferPointer { r in append(left: l, right: r) }
            } else {
                append(left: l, right: nil)
            }
        }
    }

    /// Samples (per channel, from the stream start) that must have been appended before frame `index`
    /// can be computed: the end of the frame, `ceil((index + 1) · sampleRate / fps)`.
    public func samplesNeeded(forFrame index: Int) -> Int {
        let num = (index + 1) * sampleRate * fps.denominator
        return (num + fps.numerator - 1) / fps.numerator
    }

    /// Ends the stream: later frames read silence past the last appended sample.
    public func finish() { finished = true }

    /// Installs an offline beat grid (seconds, from ``OfflineAnalyzer``): from now on `beatPhase`,
    /// `beatPulse`, `isBeat`, `beatIndex`, `tempo` and, when `downbeats` are given (a subset of
    /// `times`), `isDownbeat` and `barPhase` come from it instead of the live tracker.
    /// Call it before the first frame; it allocates (once).
    public func setBeatGrid(times: [Double], tempo: Double, downbeats: [Double] = []) {
        clock.setGrid(times, tempo: tempo, downbeats: downbeats)
    }

    /// Installs the beat grid of a report (its beats, tempo and downbeats).
    public func setBeatGrid(from report: AnalysisReport) {
        setBeatGrid(times: report.beats, tempo: report.tempo, downbeats: report.downbeats)
    }

    /// Fills `features` for frame `index`. Frames must be requested in increasing order (gaps are
    /// allowed: skipped frames still advance loudness and rhythm). Never allocates in steady state.
    public func computeFeatures(forFrame index: Int, into features: inout AudioFeatures) {
        precondition(index > lastFrame, "frames must be requested in increasing order")
        let end = samplesNeeded(forFrame: index)
        if finished, ring.count < end { ring.appendSilence(end - ring.count, keepFrom: keepFrom) }
        let start = fps.seconds(ofFrame: index)
        features.time = start
        fillLoudness(end: end, &features)
        fillRhythm(end: end, start: start, &features)
        transformSpectra(end: end)
        fillSpectralShape(&features)
        fillBands(&features)
        fillRelativeLevels(&features)
        fillChroma(&features)
        fillPitches(end: end, &features)
        fillLevels(end: end, &features)
        fillWaveform(end: end, &features)
        lastFrame = index
    }

    // MARK: - The steps of a frame, in order

    /// Loudness: K-weighted energy of every sample up to the frame end.
    private func fillLoudness(end: Int, _ features: inout AudioFeatures) {
        advanceLoudness(to: end)
        features.loudnessMomentary = loudness.momentary
        features.loudnessShortTerm = loudness.shortTerm
        features.loudnessIntegrated = loudness.integrated()
    }

    /// Onsets and live beats, hop by hop up to the frame end; then the beat clock (grid or live).
    private func fillRhythm(end: Int, start: Double, _ features: inout AudioFeatures) {
        var onsetMax: Float = 0
        var isOnset = false
        while onsets.windowEnd(ofHop: nextHop) <= end {
            let v = onsets.next(ring: ring, end: onsets.windowEnd(ofHop: nextHop))
            onsetMax = max(onsetMax, v)
            if onsetPicker.push(v) { isOnset = true }
            beats.push(v, groups: onsets.groupFlux)
            nextHop += 1
        }
        // Live beats are predicted: emit every one due before this frame ends.
        while let b = beats.upcomingBeat, onsets.time(ofHop: b) < start + frameDuration {
            if beats.emitUpcoming(), !clock.hasGrid { clock.liveBeat(at: onsets.time(ofHop: b)) }
        }
        onsetScale = max(onsetMax, onsetScale * onsetScaleDecay, 0.5)
        features.onset = min(1, onsetMax / onsetScale)
        features.isOnset = isOnset
        let livePeriod = beats.period > 0 ? beats.period / onsets.rate : 0
        let rhythm = clock.frame(start: start, end: start + frameDuration, livePeriod: livePeriod)
        features.isBeat = rhythm.isBeat
        features.isDownbeat = rhythm.isDownbeat
        features.beatPhase = rhythm.phase
        features.beatPulse = rhythm.pulse
        features.barPhase = rhythm.barPhase
        features.tempo = rhythm.tempo
        features.beatIndex = clock.lastBeat >= 0 ? clock.beatIndex : -1
    }

    /// Main and long spectra over windows ending at the frame end, and band amplitudes from them.
    private func transformSpectra(end: Int) {
        ring.copyMonoWindowed(from: end - main.size, count: main.size, window: mainWindow, to: main.input)
        main.transform()
        main.powerSpectrum(into: mainPower, scale: mainScale)
        // The long spectrum serves the bass bands and chroma.
        ring.copyMonoWindowed(from: end - long.size, count: long.size, window: longWindow, to: long.input)
        long.transform()
        long.powerSpectrum(into: longPower, scale: longScale)
        bank.amplitudes(main: mainPower, long: longPower, into: bandAmplitude)
        ranges.amplitudes(main: mainPower, long: nil, into: rangeAmplitude)
    }

    /// Magnitudes, spectral centroid and flux.
    private func fillSpectralShape(_ features: inout AudioFeatures) {
        let bins = main.binCount
        var weighted: Float = 0, total: Float = 0, flux: Float = 0
        let df = Float(sampleRate) / Float(main.size)
        for k in 0..<bins {
            let m = mainPower[k].squareRoot()
            weighted += Float(k) * m
            total += m
            let d = m - previousMagnitude[k]
            flux += d > 0 ? d : 0
            previousMagnitude[k] = m
        }
        features.centroid = total > 1e-9 ? FastMath.finite(weighted / total * df) : 0
        features.flux = FastMath.finite(flux)
    }

    /// Smoothed bands and caps, raw band levels in dB, and the spectrum when the features ask for it.
    private func fillBands(_ features: inout AudioFeatures) {
        let bins = main.binCount
        let bandCount = bank.count
        if features.bands.count != bandCount { features.bands = [Float](repeating: 0, count: bandCount) }
        if features.bandPeaks.count != bandCount { features.bandPeaks = [Float](repeating: 0, count: bandCount) }
        if features.bandsDecibels.count != bandCount { features.bandsDecibels = [Float](repeating: -120, count: bandCount) }
        features.bands.withUnsafeMutableBufferPointer { b in
            features.bandPeaks.withUnsafeMutableBufferPointer { p in
                smoother.step(amplitudes: bandAmplitude, bands: b.baseAddress!, peaks: p.baseAddress!)
            }
        }
        features.bandsDecibels.withUnsafeMutableBufferPointer { d in
            for b in 0..<bandCount { d[b] = FastMath.amplitudeToDecibels(bandAmplitude[b], floor: -120) }
        }
        if !features.spectrum.isEmpty {
            features.spectrumResolution = Float(sampleRate) / Float(main.size)
            let c = min(features.spectrum.count, bins)
            features.spectrum.withUnsafeMutableBufferPointer { s in
                for k in 0..<c { s[k] = previousMagnitude[k] }
            }
            if features.spectrumDecibels.count == features.spectrum.count {
                features.spectrumDecibels.withUnsafeMutableBufferPointer { d in
                    FastMath.powersToDecibels(mainPower, d.baseAddress!, count: c, floor: -120)
                }
            }
        }
    }

    /// MilkDrop-style bass/mid/treble and their attenuated versions.
    private func fillRelativeLevels(_ features: inout AudioFeatures) {
        let (rel, att) = levels.update((rangeAmplitude[0], rangeAmplitude[1], rangeAmplitude[2]))
        features.bass = rel.0; features.mid = rel.1; features.treble = rel.2
        features.bassAttenuated = att.0; features.midAttenuated = att.1; features.trebleAttenuated = att.2
    }

    /// Chroma from the long spectrum.
    private func fillChroma(_ features: inout AudioFeatures) {
        if features.chroma.count != 12 { features.chroma = [Float](repeating: 0, count: 12) }
        _ = features.chroma.withUnsafeMutableBufferPointer { c in chroma.fill(power: longPower, into: c.baseAddress!) }
    }

    /// Semitone amplitudes, when the features have room for them and they were requested.
    private func fillPitches(end: Int, _ features: inout AudioFeatures) {
        guard let pitchBank, features.pitches.count == AudioFeatures.pitchCount else { return }
        features.pitches.withUnsafeMutableBufferPointer { pitchBank.fill(ring: ring, end: end, into: $0.baseAddress!) }
    }

    /// RMS and peak over the last frame period (both channels, and each one), and the smoothed level.
    private func fillLevels(end: Int, _ features: inout AudioFeatures) {
        var sumLeft: Float = 0, sumRight: Float = 0, peakLeft: Float = 0, peakRight: Float = 0
        ring.forEachRun(from: end - frameSamples, to: end) { l, r, n in
            for i in 0..<n {
                let a = l[i], b = r[i]
                sumLeft += a * a; sumRight += b * b
                peakLeft = max(peakLeft, abs(a)); peakRight = max(peakRight, abs(b))
            }
        }
        let rms = (0.5 * (sumLeft + sumRight) / Float(frameSamples)).squareRoot()
        let peak = max(peakLeft, peakRight)
        features.rms = FastMath.finite(rms)
        features.peak = FastMath.finite(peak)
        features.peakLeft = FastMath.finite(peakLeft)
        features.peakRight = FastMath.finite(peakRight)
        features.rmsLeft = FastMath.finite((sumLeft / Float(frameSamples)).squareRoot())
        features.rmsRight = FastMath.finite((sumRight / Float(frameSamples)).squareRoot())
        features.rmsDecibels = FastMath.amplitudeToDecibels(rms, floor: -120)
        features.peakDecibels = FastMath.amplitudeToDecibels(peak, floor: -120)
        // The frame's loudness, smoothed in decibels (rising within `levelAttack`, falling within
        // `levelRelease`), then read against the recent loud level and ranked among the last minute's.
        let silence = Float(configuration.noiseFloor) - 1
        let db = level.update(FastMath.amplitudeToDecibels(rms, floor: silence) - silence) + silence
        features.level = levelRank.level(rmsDecibels: db, near: levelScale.update(rmsDecibels: db))
    }

    /// Waveform snapshot ending at the frame end.
    private func fillWaveform(end: Int, _ features: inout AudioFeatures) {
        let wl = configuration.waveformLength
        if features.waveformLeft.count != wl { features.waveformLeft = [Float](repeating: 0, count: wl) }
        if features.waveformRight.count != wl { features.waveformRight = [Float](repeating: 0, count: wl) }
        features.waveformLeft.withUnsafeMutableBufferPointer { ring.copy(channel: 0, from: end - wl, count: wl, to: $0.baseAddress!) }
        features.waveformRight.withUnsafeMutableBufferPointer { ring.copy(channel: 1, from: end - wl, count: wl, to: $0.baseAddress!) }
    }

    private func advanceLoudness(to end: Int) {
        guard end > loudnessPosition else { return }
        let stereo = ring.sawStereo
        let held = min(end, ring.count)
        if loudnessPosition < ring.oldest {
            loudness.process(nil, nil, stereo: stereo, count: ring.oldest - loudnessPosition)
            loudnessPosition = ring.oldest
        }
        ring.forEachRun(from: loudnessPosition, to: held) { l, r, n in
            loudness.process(l, r, stereo: stereo, count: n)
        }
        loudnessPosition = max(loudnessPosition, held)
        if end > loudnessPosition {
            loudness.process(nil, nil, stereo: stereo, count: end - loudnessPosition)
            loudnessPosition = end
        }
    }
}
