import Foundation
@testable import MarbleAnalysis
import MarbleCore
@testable import MarbleMedia
import Testing

@Suite("Analysis: loudness (BS.1770-4 / EBU R128)")
struct AnalysisLoudnessTests {
    /// BS.1770 value of a stereo sine of amplitude `a` in both channels: −0.691 + 10·log10(2 · a²/2 · G).
    func theoretical(amplitude a: Double, frequency: Double, sampleRate: Int, channels: Double) -> Double {
        let g = KWeighting(sampleRate: sampleRate).powerGain(at: frequency, sampleRate: sampleRate)
        return -0.691 + 10 * log10(channels * a * a / 2 * g)
    }

    @Test("1 kHz sine at a known level: integrated within ±0.3 LU of theory", arguments: [(44100, 0.1), (48000, 0.5), (22050, 0.02)])
    func sine(sampleRate: Int, amplitude: Double) throws {
        let x = AnalysisSignals.sine(frequency: 1000, amplitude: Float(amplitude), seconds: 5, sampleRate: sampleRate)
        let stereo = try OfflineAnalyzer.analyze(left: x, right: x, sampleRate: sampleRate)
        let expected = theoretical(amplitude: amplitude, frequency: 1000, sampleRate: sampleRate, channels: 2)
        #expect(abs(stereo.loudness.integrated - expected) < 0.3, "\(stereo.loudness.integrated) vs \(expected)")
        // EBU Tech 3341: a stereo 1 kHz sine at −23 dBFS reads −23 LUFS; i.e. ≈ 20·log10(a).
        #expect(abs(stereo.loudness.integrated - 20 * log10(amplitude)) < 0.1)
        let mono = try OfflineAnalyzer.analyze(left: x, sampleRate: sampleRate)
        #expect(abs(mono.loudness.integrated - (expected - 3.0103)) < 0.3)
        #expect(abs(stereo.peak - 20 * log10(amplitude)) < 0.05)
        #expect(stereo.loudness.range < 0.2)
    }

    @Test("relative gate ignores quiet passages (EBU Tech 3341 case 3 shape)")
    func gating() throws {
        let sr = 22050
        let q = AnalysisSignals.sine(frequency: 1000, amplitude: Float(pow(10, -36.0 / 20)), seconds: 3, sampleRate: sr)
        let l = AnalysisSignals.sine(frequency: 1000, amplitude: Float(pow(10, -23.0 / 20)), seconds: 8, sampleRate: sr)
        let x = q + l + q
        let r = try OfflineAnalyzer.analyze(left: x, right: x, sampleRate: sr)
        // 80 gating blocks are fully loud, 2 × 3 straddle the steps at 1/4, 1/2, 3/4 energy and pass the
        // relative gate, the quiet ones do not: BS.1770 gives −23 + 10·log10(77/80) = −23.166 here
        // (the EBU test's 60 s loud part makes that error negligible).
        #expect(abs(r.loudness.integrated - (-23 + 10 * log10(77.0 / 80))) < 0.05, "\(r.loudness.integrated)")
    }

    @Test("loudness range of a 10 LU step (EBU Tech 3342 case 1 shape)")
    func range() throws {
        let sr = 22050
        let a = AnalysisSignals.sine(frequency: 1000, amplitude: Float(pow(10, -20.0 / 20)), seconds: 10, sampleRate: sr)
        let b = AnalysisSignals.sine(frequency: 1000, amplitude: Float(pow(10, -30.0 / 20)), seconds: 10, sampleRate: sr)
        let x = a + b
        let r = try OfflineAnalyzer.analyze(left: x, right: x, sampleRate: sr)
        #expect(abs(r.loudness.range - 10) < 1, "LRA \(r.loudness.range)")
    }

    @Test("momentary and short-term follow a steady sine in the extractor")
    func streaming() throws {
        let x = AnalysisSignals.sine(frequency: 1000, amplitude: 0.25, seconds: 4, sampleRate: 44100)
        var last = AudioFeatures()
        try AnalysisSignals.run(x, sampleRate: 44100, fps: Rational(30), right: x) { frame, f in if frame == 110 { last = f } }
        let expected = Float(20 * log10(0.25))
        #expect(abs(last.loudnessMomentary - expected) < 0.3)
        #expect(abs(last.loudnessShortTerm - expected) < 0.3)
        #expect(abs(last.loudnessIntegrated - expected) < 0.3)
    }
}
