import Foundation
@testable import MarbleAnalysis
import MarbleCore
import Testing

/// Issue 12, defect 6: on a mastered song the bars and the level barely moved (a straight dB scale over
/// 70 dB: a 6 dB swing was 9 % of a bar, the level sat between 0.80 and 0.89). The display curve and
/// the adaptive level reference make them move with the music. Issue 25: on a compressed master the
/// level was still pinned near 1 (0.89–1.00); it now ranks each frame among the last minute's.
@Suite("Analysis: dynamics of bars and level")
struct DynamicsTests {
    /// One band at 1 kHz (no tilt there), 60 fps, fed `input` amplitudes; returns the bar per frame.
    func bars(_ c: AnalysisConfiguration, _ input: [Float]) -> [Float] {
        let s = BandSmoother(count: 1, centers: [1000], frameDuration: 1.0 / 60, configuration: c)
        var b: Float = 0, p: Float = 0, x: Float = 0
        return input.map { v in
            x = v
            s.step(amplitudes: &x, bands: &b, peaks: &p)
            return b
        }
    }

    @Test("a 6 dB swing near the top moves a bar by more than a quarter of its height")
    func barsSwing() {
        var c = AnalysisConfiguration()
        c.autoSensitivity = false
        let loud = bars(c, [Float](repeating: 1, count: 30)).last!
        let down = bars(c, [Float](repeating: 0.5, count: 30)).last!     // −6 dB
        #expect(abs(loud - 1) < 0.01)
        #expect(loud - down > 0.25, "moved \(loud - down)")
        // A band 40 dB down still shows, and one under the noise floor does not.
        let quiet = bars(c, [Float](repeating: 0.01, count: 30)).last!
        #expect(quiet > 0.05 && quiet < 0.2, "\(quiet)")
        c.dynamics = 1   // linear amplitude: −6 dB is half the height
        #expect(abs(bars(c, [Float](repeating: 0.5, count: 30)).last! - 0.5) < 0.02)
    }

    @Test("tilt lifts the treble for display, around 1 kHz")
    func tilt() {
        var c = AnalysisConfiguration()
        c.autoSensitivity = false
        c.sensitivity = 0.25   // −12 dB, so the lifted band stays under the top
        let s = BandSmoother(count: 2, centers: [125, 8000], frameDuration: 1.0 / 60, configuration: c)
        var a: [Float] = [0.5, 0.5], b: [Float] = [0, 0], p: [Float] = [0, 0]
        for _ in 0..<30 { s.step(amplitudes: &a, bands: &b, peaks: &p) }
        // 3 dB/octave: 125 Hz is 3 octaves under 1 kHz (−9 dB), 8 kHz 3 over (+9 dB): 18 dB apart.
        let ratioDB = 20 * log10(Double(b[1] / b[0])) / c.dynamics
        #expect(abs(ratioDB - 18) < 0.5, "\(ratioDB)")
    }

    /// The level over a tone whose amplitude follows `amplitude(t)`.
    func levels(seconds: Double, _ amplitude: (Double) -> Float) throws -> [Float] {
        let rate = 44100
        let x = (0..<Int(seconds * Double(rate))).map { i -> Float in
            let t = Double(i) / Double(rate)
            return amplitude(t) * Float(sin(2 * Double.pi * 220 * t))
        }
        var out: [Float] = []
        try AnalysisSignals.run(x, sampleRate: rate, fps: Rational(30)) { _, f in out.append(f.level) }
        return out
    }

    @Test("the level reads a 6 dB dip in a loud song as a clear drop")
    func levelFollowsTheMusic() throws {
        // 4 s at −10 dBFS peak, then 1 s 6 dB quieter, then loud again.
        let l = try levels(seconds: 6) { t in t >= 4 && t < 5 ? 0.158 : 0.316 }
        let loud = l[100..<120].reduce(0, +) / 20, dip = l[140..<150].reduce(0, +) / 10
        #expect(loud > 0.6, "\(loud)")
        #expect(loud - dip > 0.4, "loud \(loud) dip \(dip)")
    }

    @Test("a quiet recording reaches the same level as a loud one after a few seconds (autosens); silence reads 0")
    func quietRecordingAdapts() throws {
        let quiet = try levels(seconds: 12) { _ in 0.03 }   // −30 dBFS peak
        let loud = try levels(seconds: 12) { _ in 0.5 }     // −6 dBFS
        #expect(quiet[330..<360].allSatisfy { $0 > 0.6 && abs($0 - loud[345]) < 0.05 }, "\(quiet[330]) against \(loud[345])")
        let silence = try levels(seconds: 2) { _ in 0 }
        #expect(silence.allSatisfy { $0 == 0 })
    }

    /// The 10th and 90th percentiles of `values`.
    func spread(_ values: ArraySlice<Float>) -> (low: Float, high: Float) {
        let sorted = values.sorted()
        return (sorted[sorted.count / 10], sorted[sorted.count * 9 / 10])
    }

    /// A beat every half second: a kick that decays in 80 ms over a sustained tone `sustain` of the
    /// kick's height (0.8: a 2 dB swing, a master pressed against its ceiling).
    func pulsed(_ t: Double, sustain: Float) -> Float {
        let kick = Float(exp(-t.truncatingRemainder(dividingBy: 0.5) / 0.08))
        return 0.5 * (sustain + (1 - sustain) * kick)
    }

    @Test("a compressed song (a 2 dB swing on each beat) still spans the level's range: p10 to p90 over 0.45",
          arguments: [Float(0.8), 0.5])
    func compressedSongBreathes(sustain: Float) throws {
        let l = try levels(seconds: 20) { t in self.pulsed(t, sustain: sustain) }
        let (low, high) = spread(l[150...])   // after the first 5 s
        #expect(high - low >= 0.45, "p10 \(low), p90 \(high)")
    }

    @Test("a chorus 10 dB louder than the verse before it reads louder, and still moves with its beat")
    func loudPartsReadLouder() throws {
        let l = try levels(seconds: 40) { t in (t < 20 ? 0.316 : 1) * self.pulsed(t, sustain: 0.6) }
        let verse = l[450..<600], chorus = l[630..<780]   // 15–20 s and 21–26 s
        let mean = { (s: ArraySlice<Float>) in s.reduce(0, +) / Float(s.count) }
        #expect(mean(chorus) - mean(verse) > 0.2, "verse \(mean(verse)), chorus \(mean(chorus))")
        // Its first seconds rank high against the verse still in the history, and still pulse; once
        // the last 6 s hold the chorus alone, its beats move it further (the last minute, still
        // holding the verse, keeps it high).
        let (low, high) = spread(chorus)
        #expect(high - low > 0.15, "the chorus moves at once: p10 \(low), p90 \(high)")
        let (settledLow, settledHigh) = spread(l[900..<1200])   // 30–40 s
        #expect(settledHigh - settledLow > 0.3, "the chorus, settled: p10 \(settledLow), p90 \(settledHigh)")
    }
}
