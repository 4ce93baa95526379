import Foundation

/// Tempo, beats, downbeats and onsets of a whole song (offline: looks ahead), found by ``RhythmStream``.
enum Rhythm {
    struct Result {
        var tempo: Double
        var beats: [Double]
        var downbeats: [Double]
        var beatsPerBar: Int
        var onsets: [Double]
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
