import Foundation
@testable import MarbleAnalysis
import MarbleCore
@testable import MarbleMedia
import Testing

@Suite("Analysis: smoothing, spectrum and chroma")
struct AnalysisSmoothingTests {
    /// Drives a one-band smoother with `input` per frame at 60 fps.
    func run(_ c: AnalysisConfiguration, _ input: [Float]) -> (bands: [Float], peaks: [Float]) {
        let s = BandSmoother(count: 1, centers: [1000], frameDuration: 1.0 / 60, configuration: c)
        var b: Float = 0, p: Float = 0, x: Float = 0
        var bands = [Float](), peaks = [Float]()
        for v in input {
            x = v
            s.step(amplitudes: &x, bands: &b, peaks: &p)
            bands.append(b); peaks.append(p)
        }
        return (bands, peaks)
    }

    @Test("attack/release, gravity fall-off and peak caps")
    func smoothing() {
        var c = AnalysisConfiguration()
        c.autoSensitivity = false
        let loud = [Float](repeating: 1, count: 30), quiet = [Float](repeating: 0, count: 90)
        let (bands, peaks) = run(c, loud + quiet)
        #expect(bands[29] > 0.99)
        // Exponential release (150 ms): about 1/e of the way down after 9 frames.
        #expect(bands[38] < 0.5 && bands[38] > 0.2)
        // The cap holds 0.3 s (18 frames) at the top, then falls, never below the band.
        #expect(peaks[29 + 15] > 0.99 && peaks[29 + 40] < 0.99)
        #expect(zip(bands, peaks).allSatisfy { $0 <= $1 })

        c.gravity = 8
        let g = run(c, loud + quiet).bands
        // Gravity: the fall accelerates (each frame drops more than the one before while above 0).
        let drops = (31..<38).map { g[$0 - 1] - g[$0] }
        #expect(zip(drops, drops.dropFirst()).allSatisfy { $0 < $1 })
        #expect(g[29 + 30] == 0)
    }

    @Test("noise floor reads 0; auto-sensitivity keeps bands at or under 1")
    func sensitivity() {
        var c = AnalysisConfiguration()
        c.noiseFloor = -60
        c.autoSensitivity = false
        #expect(run(c, [Float](repeating: 0.0005, count: 30)).bands.last == 0)   // −66 dBFS
        c.autoSensitivity = true
        c.sensitivity = 30   // +29.5 dB: would clip without auto-sensitivity
        let (bands, _) = run(c, [Float](repeating: 0.5, count: 120))
        #expect(bands.last! <= 1 && bands.last! > 0.8)
    }

    @Test("spectrum magnitude and dB of a sine; chroma of A")
    func spectrumAndChroma() throws {
        let fx = try FeatureExtractor(sampleRate: 44100, fps: Rational(30))
        var f = fx.makeFeatures(spectrum: true)
        #expect(f.spectrum.count == fx.spectrumLength && fx.spectrumLength == fx.fftSize / 2 + 1)
        // A sine on the centre of bin 41 (882.7 Hz with 2048 points at 44.1 kHz).
        let freq = 41 * 44100.0 / Double(fx.fftSize)
        let x = AnalysisSignals.sine(frequency: freq, amplitude: 0.5, seconds: 0.5, sampleRate: 44100)
        fx.append(left: x)
        fx.finish()
        for i in 0..<10 { fx.computeFeatures(forFrame: i, into: &f) }
        let peak = f.spectrum.indices.max { f.spectrum[$0] < f.spectrum[$1] }!
        #expect(peak == 41)
        // Hann on a bin centre: peak power = A²/ENBW of the total, i.e. −1.76 dB below the sine's level.
        #expect(abs(f.spectrumDecibels[41] - (20 * log10(0.5) - 1.76)) < 0.1, "\(f.spectrumDecibels[41])")
        #expect(f.spectrumDecibels.allSatisfy { $0 >= -120 && $0.isFinite })

        let a = AnalysisSignals.sine(frequency: 440, amplitude: 0.5, seconds: 0.6, sampleRate: 44100)
        var last = AudioFeatures()
        try AnalysisSignals.run(a, sampleRate: 44100, fps: Rational(30)) { _, feat in last = feat }
        #expect(last.chroma[9] == 1 && last.chroma.enumerated().allSatisfy { $0.offset == 9 || $0.element < 0.2 })
        #expect(abs(last.centroid - 440) < 30)
    }
}
