import Foundation

/// Tempo, beats, downbeats and onsets of a song whose onset envelopes arrive one hop (10 ms) at a
/// time, in memory bounded by a window of the envelope rather than by the song's length.
///
/// - **Tempo**: the band-group autocorrelation (``TempoEstimator``) is computed over each block of
///   new hops (a window's hops that the previous window did not hold) and accumulated, each lag
///   weighted by its number of products; the global tempo is estimated from the sum at the end. Only
///   the products that straddle two blocks (lags of at most 4 s) are left out.
/// - **Beats**: each window is tracked by dynamic programming (``BeatTracker``) with the period of the
///   tempo accumulated so far (the global one by the last window). Windows overlap; consecutive ones
///   are stitched at a beat both found (within 2 hops) nearest the middle of the overlap, so the beat
///   sequence goes on with none duplicated or lost and each side has half the overlap of context.
///   Where they agree on none (no steady pulse there), the cut is at the middle and the later
///   window's beats start at least half a period after the earlier's last. Weak beats are trimmed
///   only at the song's two ends.
/// - **Onsets**: picked as the envelope streams (±10 hops of context); only the relative threshold,
///   which needs the song's maximum, is applied at the end, to candidates that already clear it
///   against the running maximum.
///
/// A song no longer than one window is analysed exactly as a whole (one block, one tracked window:
/// the same arithmetic in the same order as before the envelope was windowed).
///
/// Bounds, at about 100 hops per second and the default 300 s window: the envelope window holds
/// 6 floats per hop (720 KB) and the tempo scratch 10 (1.2 MB); the beat tracker's 24 bytes per
/// window hop (720 KB) live only while a window is tracked. What grows is what is found: 16 bytes per
/// beat (position and accent) and 24 per onset candidate.
final class RhythmStream {
    /// Default window and overlap, seconds.
    static let defaultWindow = 300.0, defaultOverlap = 40.0

    let window: Int, overlap: Int
    private let detector: OnsetDetector
    private let configuration: AnalysisConfiguration
    private let estimator: TempoEstimator
    private let picker = OnsetPicker()
    private static let gc = OnsetDetector.groupCount

    // The envelope window: hops `first ..< first + count`.
    private let odf: UnsafeMutablePointer<Float>
    private let groups: UnsafeMutablePointer<Float>
    private var first = 0, count = 0
    private var hops: Int { first + count }
    private var top: Float = 0

    // Tempo: autocorrelation sums over blocks.
    private let scratch: UnsafeMutablePointer<Float>
    private let scratchCount: Int
    private var acSum: [Double], acWeight: [Double]
    /// The lowest band group's own autocorrelation sums (the kick's band, for the octave check).
    private var acLowSum: [Double]
    private var acLags = -1
    private var acDone = 0
    private var period = 0.0

    // Results so far.
    private var nextPick = 0
    private var candidates: [OnsetPicker.Candidate] = []
    private var beats: [Double] = []
    private var accents: [Double] = []
    private struct Beat { var hop: Int; var position: Double; var accent: Double }
    /// Beats of the last window inside its overlap with the next, waiting to be stitched.
    private var pending: [Beat] = []

    /// - Parameters: `window` and `overlap` in seconds (the overlap at least 1 s and under half the window).
    init(detector: OnsetDetector, configuration: AnalysisConfiguration,
         window: Double = RhythmStream.defaultWindow, overlap: Double = RhythmStream.defaultOverlap) {
        self.detector = detector
        self.configuration = configuration
        self.window = max(256, Int(window * detector.rate))
        self.overlap = min(self.window / 2, max(64, Int(overlap * detector.rate)))
        estimator = TempoEstimator(rate: detector.rate, minBPM: configuration.minTempo, maxBPM: configuration.maxTempo)
        odf = .allocate(capacity: self.window)
        groups = .allocate(capacity: self.window * Self.gc)
        scratchCount = 2 * Self.gc * self.window + 2 * (estimator.lagsNeeded + 1)
        scratch = .allocate(capacity: scratchCount)
        acSum = [Double](repeating: 0, count: estimator.lagsNeeded + 1)
        acWeight = acSum
        acLowSum = acSum
    }

    deinit { odf.deallocate(); groups.deallocate(); scratch.deallocate() }

    /// Bytes held: `working` is bounded by the window; `results` grows with the beats and onsets found.
    var retainedBytes: (working: Int, results: Int) {
        let working = 4 * (window * (1 + Self.gc) + scratchCount) + 24 * acSum.count
            + pending.capacity * MemoryLayout<Beat>.stride
        let results = 8 * (beats.capacity + accents.capacity)
            + candidates.capacity * MemoryLayout<OnsetPicker.Candidate>.stride
        return (working, results)
    }

    /// Appends one hop: its ODF value and its ``OnsetDetector/groupCount`` group fluxes.
    func push(_ value: Float, groups g: UnsafePointer<Float>) {
        if count == window { closeWindow(final: false) }
        odf[count] = value
        (groups + count * Self.gc).update(from: g, count: Self.gc)
        count += 1
        top = max(top, value)
        while nextPick + picker.lookAhead <= hops { pick(nextPick, count: .max); nextPick += 1 }
    }

    /// Ends the envelope; `duration` (seconds) clamps the times.
    func finish(duration: Double) -> Rhythm.Result {
        if hops > 2 { while nextPick < hops { pick(nextPick, count: hops); nextPick += 1 } }
        closeWindow(final: true)
        func time(_ j: Double) -> Double { max(0, min(duration, detector.time(ofHop: j))) }
        let onsets = hops > 2 ? picker.onsets(candidates, top: top).map(time) : []
        guard top > 0.1, let estimate = tempoEstimate(), estimate.confidence > 0.02 else {
            return Rhythm.Result(tempo: 0, beats: [], downbeats: [], beatsPerBar: 0, onsets: onsets)
        }
        let times = beats.map(time)
        // Refine the tempo by a least-squares line through the regular beats (outliers dropped).
        let tempo = Rhythm.refinedTempo(times, estimate: estimate.bpm)
        let bars = DownbeatDetector().detect(accents: accents)
        return Rhythm.Result(tempo: tempo, beats: times, downbeats: bars.map { times[$0.index] },
                             beatsPerBar: bars.first?.beatsPerBar ?? 0, onsets: onsets)
    }

    private func pick(_ i: Int, count n: Int) {
        let x = UnsafeBufferPointer(start: odf, count: count)
        if let c = picker.candidate(at: i, in: x, first: first, count: n), picker.accept(c, top: top) {
            candidates.append(c)
        }
    }

    /// Adds the new hops to the tempo, tracks the window's beats and stitches them on; unless `final`,
    /// then slides the window on, keeping `overlap` hops.
    private func closeWindow(final: Bool) {
        addBlockToTempo()
        candidates.removeAll { !picker.accept($0, top: top) }
        var found: [Beat] = []
        if top > 0.1, let estimate = tempoEstimate(), estimate.confidence > 0.02 {
            period = estimate.period
            let x = UnsafeBufferPointer(start: odf, count: count)
            let g = UnsafeBufferPointer(start: UnsafePointer(groups), count: count * Self.gc)
            let indices = BeatTracker().track(x, period: estimate.period, trimStart: first == 0, trimEnd: final)
            found = indices.map { i in
                let position = Double(first) + PeakRefine.refine(x, at: i)
                return Beat(hop: first + i, position: position,
                            accent: DownbeatDetector.accent(at: position, groups: g, first: first, total: hops))
            }
        }
        stitch(found, final: final)
        guard !final else { return }
        let drop = window - overlap
        odf.update(from: odf + drop, count: overlap)
        groups.update(from: groups + drop * Self.gc, count: overlap * Self.gc)
        first += drop
        count = overlap
    }

    private func stitch(_ found: [Beat], final: Bool) {
        var new = found[...]
        if first > 0 {
            // The overlap with the previous window is `first ..< first + overlap`.
            let mid = first + overlap / 2, reach = overlap / 4
            var cut: (p: Int, q: Int)?
            var best = Int.max, q = new.startIndex
            for (p, b) in pending.enumerated() where abs(b.hop - mid) <= reach {
                while q < new.endIndex, new[q].hop < b.hop - 2 { q += 1 }
                if q < new.endIndex, abs(new[q].hop - b.hop) <= 2, abs(b.hop - mid) < best {
                    cut = (p, q)
                    best = abs(b.hop - mid)
                }
            }
            if let cut {
                commit(pending[..<cut.p])
                new = new[cut.q...]
            } else {
                commit(pending.prefix { $0.hop < mid })
                let last = beats.last ?? -.infinity
                new = new.drop { $0.hop < mid || $0.position - last < period / 2 }
            }
            pending.removeAll(keepingCapacity: true)
        }
        if final {
            commit(new)
        } else {
            let next = first + count - overlap
            commit(new.prefix { $0.hop < next })
            pending.append(contentsOf: new.drop { $0.hop < next })
        }
    }

    private func commit<C: Collection<Beat>>(_ b: C) {
        for beat in b {
            beats.append(beat.position)
            accents.append(beat.accent)
        }
    }

    /// Adds the autocorrelation of the hops not yet counted (`acDone ..< hops`) to the sums.
    private func addBlockToTempo() {
        let n = hops - acDone, start = acDone - first
        guard n > 0 else { return }
        acDone = hops
        let gc = Self.gc
        // Planar copy of the band-group envelopes, then the estimator's scratch, then the lags.
        let planar = scratch
        for i in 0..<n { for g in 0..<gc { planar[g * n + i] = groups[(start + i) * gc + g] } }
        let ac = scratch + 2 * gc * n, low = ac + estimator.lagsNeeded + 1
        let lags = estimator.autocorrelation(planar, count: n, channels: gc, stride: n, scratch: scratch + gc * n,
                                             into: ac, low: low)
        guard lags >= 0 else { return }
        // Exact for one block: a float times a count below 2²⁴ is exact in a double, and so is the division back.
        for l in 0...lags {
            acSum[l] += Double(ac[l]) * Double(n - l)
            acLowSum[l] += Double(low[l]) * Double(n - l)
            acWeight[l] += Double(n - l)
        }
        acLags = max(acLags, lags)
    }

    /// The tempo of all hops counted so far (nil while fewer than two slow periods have arrived).
    private func tempoEstimate() -> TempoEstimator.Estimate? {
        guard acDone >= estimator.minimumCount, acLags >= 0 else { return nil }
        let ac = scratch, low = scratch + estimator.lagsNeeded + 1
        for l in 0...acLags {
            ac[l] = Float(acSum[l] / acWeight[l])
            low[l] = Float(acLowSum[l] / acWeight[l])
        }
        return estimator.estimate(autocorrelation: ac, low: low, lags: acLags)
    }
}
