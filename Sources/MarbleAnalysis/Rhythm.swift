import Foundation

/// Tempo, beats, downbeats and onsets from a whole song's onset envelopes (offline: looks ahead).
enum Rhythm {
    struct Result {
        var tempo: Double
        var beats: [Double]
        var downbeats: [Double]
        var beatsPerBar: Int
        var onsets: [Double]
    }

    static func analyze(odf: [Float], groups: [Float], onsets detector: OnsetDetector, configuration: AnalysisConfiguration,
                        duration: Double) -> Result {
        func time(_ j: Double) -> Double {
            max(0, min(duration, detector.time(ofHop: j)))
        }
        let onsetTimes = OnsetPicker().pick(odf).map(time)
        guard let top = odf.max(), top > 0.1 else { return Result(tempo: 0, beats: [], downbeats: [], beatsPerBar: 0, onsets: onsetTimes) }
        let estimator = TempoEstimator(rate: detector.rate, minBPM: configuration.minTempo, maxBPM: configuration.maxTempo)
        let n = odf.count, gc = OnsetDetector.groupCount
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 2 * gc * n + estimator.lagsNeeded + 1)
        defer { scratch.deallocate() }
        // Planar copy of the band-group envelopes, then the estimator's own scratch after it.
        let planar = scratch
        for i in 0..<n { for g in 0..<gc { planar[g * n + i] = groups[i * gc + g] } }
        let estimate = estimator.estimate(planar, count: n, channels: gc, stride: n, scratch: scratch + gc * n)
        guard let estimate, estimate.confidence > 0.02 else { return Result(tempo: 0, beats: [], downbeats: [], beatsPerBar: 0, onsets: onsetTimes) }
        let frames = BeatTracker().track(odf, period: estimate.period)
        let beats = frames.map(time)
        // Refine the tempo by a least-squares line through the regular beats (outliers dropped).
        let tempo = refinedTempo(beats, estimate: estimate.bpm)
        let bars = DownbeatDetector().detect(beatFrames: frames, groups: groups)
        return Result(tempo: tempo, beats: beats, downbeats: bars.map { beats[$0.index] },
                      beatsPerBar: bars.first?.beatsPerBar ?? 0, onsets: onsetTimes)
    }

    /// Fits `time = a + k · period` to the beats, numbering them by rounding their distance from the
    /// first in estimated periods; beats more than 10 % of a period off the line are dropped and the
    /// line refitted. Falls back to `estimate` when too few beats agree with it.
    static func refinedTempo(_ beats: [Double], estimate bpm: Double) -> Double {
        guard beats.count >= 6 else { return bpm }
        var period = 60 / bpm
        var use = [Bool](repeating: true, count: beats.count)
        var k = [Double](repeating: 0, count: beats.count)
        for (i, b) in beats.enumerated() { k[i] = ((b - beats[0]) / period).rounded() }
        for _ in 0..<3 {
            var n = 0.0, sk = 0.0, st = 0.0
            for i in beats.indices where use[i] { n += 1; sk += k[i]; st += beats[i] }
            guard n >= 6 else { return bpm }
            let mk = sk / n, mt = st / n
            var sxy = 0.0, sxx = 0.0
            for i in beats.indices where use[i] { sxy += (k[i] - mk) * (beats[i] - mt); sxx += (k[i] - mk) * (k[i] - mk) }
            guard sxx > 0 else { return bpm }
            let slope = sxy / sxx, intercept = mt - slope * mk
            guard abs(slope / period - 1) < 0.05 else { return bpm }
            period = slope
            for i in beats.indices { use[i] = abs(beats[i] - (intercept + slope * k[i])) < 0.1 * period }
        }
        return 60 / period
    }
}
