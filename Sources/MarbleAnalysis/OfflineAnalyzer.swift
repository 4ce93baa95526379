import Foundation
import MarbleCore
import MarbleDSP

/// Whole-song analysis: tempo, beats, onsets, loudness, peak, pitch classes, the waveform overview, and optionally per-frame
/// features. Offline, so it may look ahead: the beat grid comes from a global tempo (autocorrelation
/// scored by a comb, `TempoEstimator`) and a dynamic-programming tracker (Ellis 2007,
/// `BeatTracker`) over overlapping 5-minute windows of the onset envelope (`RhythmStream`).
///
/// Feed the song in chunks of any size with ``append(left:right:)``. Memory is flat in song length:
/// audio is not kept, only a 5-minute window of the onset envelopes (about 2.6 MB with its scratch);
/// what grows is what the report lists (about 16 bytes per beat and 24 per onset, 1–2 MB for ten
/// hours of music) and the per-frame records when `frameRate` is set. Then
/// call ``finish()``. Or call ``analyze(left:right:sampleRate:configuration:frameRate:)`` with the
/// whole signal. To render with the global beat grid, pass the report's `beats` and `tempo` to
/// ``FeatureExtractor/setBeatGrid(from:)``.
///
/// Not thread-safe; `@unchecked Sendable` only so ownership can move to a worker thread (use it from
/// one thread at a time).
public final class OfflineAnalyzer: @unchecked Sendable {
    /// Rate of the samples appended, Hz.
    public let sampleRate: Int
    /// The configuration the analyser was made with.
    public let configuration: AnalysisConfiguration
    /// The rate of the per-frame features put in the report, or nil for none.
    public let frameRate: Rational?

    private let ring: SampleRing
    private let onsets: OnsetDetector
    private var loudness: LoudnessMeter
    private let chromaFFT: RealFFT
    private let chromaWindow: UnsafeMutablePointer<Float>
    private let chromaPower: UnsafeMutablePointer<Float>
    private let chromaFrame: UnsafeMutablePointer<Float>
    private let chromaMap: ChromaMap
    private var chromaSum = [Double](repeating: 0, count: 12)
    private let rhythm: RhythmStream
    private let overview: OverviewBuilder
    private var nextHop = 0
    private var total = 0
    private var peak: Float = 0
    private var stereo = false
    private var finished = false
    private let extractor: FeatureExtractor?
    private var features: AudioFeatures
    private var frames: [AnalysisReport.Frame] = []
    private var nextFrame = 0
    private static let chunk = 8192
    private let cleanLeft = UnsafeMutablePointer<Float>.allocate(capacity: chunk)
    private let cleanRight = UnsafeMutablePointer<Float>.allocate(capacity: chunk)

    /// An analyser for one whole song of `sampleRate` Hz audio; append its samples, then call `finish()`.
    ///
    /// - Parameters:
    ///   - sampleRate: the rate of the samples that will be appended, Hz (8000…192000).
    ///   - configuration: bands, smoothing and tempo range for the analysis.
    ///   - frameRate: when set, per-frame features at this rate go into the report's `frames`.
    /// - Throws: `MarbleError` with kind `.option` for a sample rate out of range or an invalid
    ///   configuration.
    public convenience init(sampleRate: Int, configuration: AnalysisConfiguration = AnalysisConfiguration(),
                            frameRate: Rational? = nil) throws(MarbleError) {
        try self.init(sampleRate: sampleRate, configuration: configuration, frameRate: frameRate,
                      rhythmWindow: RhythmStream.defaultWindow, rhythmOverlap: RhythmStream.defaultOverlap)
    }

    /// With the rhythm window and overlap in seconds (tests use short ones to cross many seams).
    package init(sampleRate: Int, configuration: AnalysisConfiguration, frameRate: Rational?,
                 rhythmWindow: Double, rhythmOverlap: Double) throws(MarbleError) {
        guard (8000...192_000).contains(sampleRate) else {
            throw MarbleError(.option, "sample rate \(sampleRate) Hz is outside 8000–192000 Hz")
        }
        try configuration.validate()
        self.sampleRate = sampleRate
        self.configuration = configuration
        self.frameRate = frameRate
        onsets = try OnsetDetector(sampleRate: sampleRate)
        rhythm = RhythmStream(detector: onsets, configuration: configuration, window: rhythmWindow, overlap: rhythmOverlap)
        loudness = LoudnessMeter(sampleRate: sampleRate)
        overview = OverviewBuilder(sampleRate: sampleRate)
        let n = FastMath.powerOfTwo(from: 1024, atLeast: Double(sampleRate) * 0.17)
        chromaFFT = try RealFFT(size: n)
        chromaWindow = .allocate(capacity: n)
        SpectrumScaling.fill(chromaWindow, count: n, shape: .hann)
        chromaPower = .allocate(capacity: chromaFFT.binCount)
        chromaFrame = .allocate(capacity: 12)
        chromaMap = ChromaMap(sampleRate: sampleRate, fftSize: n)
        ring = SampleRing(minimumCapacity: n + onsets.windowSize + 2 * Self.chunk)
        if let frameRate {
            let fx = try FeatureExtractor(sampleRate: sampleRate, fps: frameRate, configuration: configuration)
            extractor = fx
            features = fx.makeFeatures()
        } else {
            extractor = nil
            features = AudioFeatures(bandCount: 1, waveformLength: 1)
        }
    }

    deinit {
        chromaWindow.deallocate(); chromaPower.deallocate(); chromaFrame.deallocate()
        cleanLeft.deallocate(); cleanRight.deallocate()
    }

    /// Whole-signal convenience: planar float, `right == nil` for mono.
    public static func analyze(left: [Float], right: [Float]? = nil, sampleRate: Int,
                               configuration: AnalysisConfiguration = AnalysisConfiguration(),
                               frameRate: Rational? = nil) throws(MarbleError) -> AnalysisReport {
        let a = try OfflineAnalyzer(sampleRate: sampleRate, configuration: configuration, frameRate: frameRate)
        left.withUnsafeBufferPointer { l in
            if let right {
                right.withUnsafeBufferPointer { r in a.append(left: l, right: r) }
            } else {
                a.append(left: l, right: nil)
            }
        }
        return a.finish()
    }

    /// Appends decoded audio (planar float, `right == nil` for mono), any chunk size.
    public func append(left: UnsafeBufferPointer<Float>, right: UnsafeBufferPointer<Float>?) {
        precondition(!finished, "append after finish")
        guard let lb = left.baseAddress else { return }
        let rb = right?.baseAddress
        if rb != nil { stereo = true }
        var done = 0
        while done < left.count {
            let n = min(Self.chunk, left.count - done)
            // Sanitised copies (NaN and infinity → 0), so the report is always finite.
            SampleRing.copyFinite(lb + done, cleanLeft, n)
            if let rb { SampleRing.copyFinite(rb + done, cleanRight, n) }
            let l = UnsafeBufferPointer(start: UnsafePointer(cleanLeft), count: n)
            let r = rb.map { _ in UnsafeBufferPointer(start: UnsafePointer(cleanRight), count: n) }
            ring.append(l, r, keepFrom: onsets.windowEnd(ofHop: nextHop) - max(onsets.windowSize, chromaFFT.size))
            peak = max(peak, FastMath.absolutePeak(l), r.map(FastMath.absolutePeak) ?? 0)
            loudness.process(l.baseAddress, r?.baseAddress, stereo: stereo, count: n)
            overview.append(l, r)
            total += n
            processHops(upTo: total)
            if let fx = extractor {
                fx.append(left: l, right: r)
                computeFrames(upTo: total, fx)
            }
            done += n
        }
    }

    private func processHops(upTo end: Int) {
        while onsets.windowEnd(ofHop: nextHop) <= end {
            let e = onsets.windowEnd(ofHop: nextHop)
            rhythm.push(onsets.next(ring: ring, end: e), groups: onsets.groupFlux)
            if nextHop % 25 == 0 { accumulateChroma(end: e) }
            nextHop += 1
        }
    }

    private func accumulateChroma(end: Int) {
        let n = chromaFFT.size
        ring.copyMonoWindowed(from: end - n, count: n, window: chromaWindow, to: chromaFFT.input)
        chromaFFT.transform()
        chromaFFT.powerSpectrum(into: chromaPower)
        let top = chromaMap.fill(power: chromaPower, into: chromaFrame)
        // Only frames with audible pitched content (about -70 dBFS and up) vote.
        guard top > 1e-7 * Float(n) * Float(n) else { return }
        for i in 0..<12 { chromaSum[i] += Double(chromaFrame[i]) }
    }

    private func computeFrames(upTo available: Int, _ fx: FeatureExtractor) {
        while fx.samplesNeeded(forFrame: nextFrame) <= available {
            fx.computeFeatures(forFrame: nextFrame, into: &features)
            // Beat fields are live guesses here; finish() replaces them from the whole-song grid.
            frames.append(AnalysisReport.Frame(features))
            nextFrame += 1
        }
    }

    /// Bytes of storage that depend on the song's length: `working` (the rhythm window, bounded) and
    /// `results` (beats and onsets found so far, and per-frame records when `frameRate` is set).
    package var retainedBytes: (working: Int, results: Int) {
        let r = rhythm.retainedBytes
        return (r.working, r.results + frames.capacity * MemoryLayout<AnalysisReport.Frame>.stride)
    }

    /// Ends the song and returns the report.
    public func finish() -> AnalysisReport {
        precondition(!finished, "finish called twice")
        finished = true
        let duration = Double(total) / Double(sampleRate)
        // Let the last transients pass through the onset window.
        ring.appendSilence(onsets.windowSize, keepFrom: onsets.windowEnd(ofHop: nextHop) - max(onsets.windowSize, chromaFFT.size))
        processHops(upTo: total + onsets.windowSize)
        if let fx = extractor, let rate = frameRate {
            fx.finish()
            let count = rate.frameCount(covering: duration)
            while nextFrame < count { computeFrames(upTo: fx.samplesNeeded(forFrame: nextFrame), fx) }
        }

        let rhythm = rhythm.finish(duration: duration)
        var chroma = chromaSum
        let top = chroma.max() ?? 0
        chroma = top > 0 ? chroma.map { $0 / top } : chroma
        let median = chroma.sorted()[6]
        let dominant = top > 0 ? chroma.indices.filter { chroma[$0] >= max(0.6, 1.25 * median) }
            .sorted { chroma[$0] > chroma[$1] }.prefix(3).map { AnalysisReport.pitchClassNames[$0] } : []

        var report = AnalysisReport(
            duration: duration, sampleRate: sampleRate, tempo: rhythm.tempo, beats: rhythm.beats,
            downbeats: rhythm.downbeats, beatsPerBar: rhythm.beatsPerBar, onsets: rhythm.onsets,
            loudness: .init(integrated: Double(loudness.integrated()), range: Double(loudness.range()),
                            momentaryMax: Double(loudness.maxMomentary), shortTermMax: Double(loudness.maxShortTerm)),
            peak: Double(FastMath.amplitudeToDecibels(peak, floor: -120)),
            dominantPitchClasses: dominant, chroma: chroma, frames: nil, frameRate: frameRate?.description,
            overview: overview.finish())
        if let rate = frameRate {
            var clock = BeatClock()
            clock.pulseDecay = configuration.beatPulseDecay
            clock.setGrid(rhythm.beats, tempo: rhythm.tempo, downbeats: rhythm.downbeats)
            let step = 1 / rate.doubleValue
            for i in frames.indices {
                let r = clock.frame(start: frames[i].time, end: frames[i].time + step, livePeriod: 0)
                frames[i].isBeat = r.isBeat
                frames[i].isDownbeat = r.isDownbeat
                frames[i].beatPhase = r.phase
            }
            report.frames = frames
        }
        return report
    }
}
