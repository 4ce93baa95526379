import Foundation
@testable import MarbleAnalysis
import MarbleCore
import Testing

/// The constant-Q semitones (`AudioFeatures.pitches`): a note lights its own semitone, not its neighbours
/// on either side, from the bass up; nothing is computed unless requested.
@Suite("Analysis: semitones (constant-Q)")
struct PitchBankTests {
    /// `pitches` after `seconds` of a sine at `frequency` (amplitude 0.5), at frame rate 30.
    func pitches(frequency: Double, sampleRate: Int = 44100, seconds: Double = 2) throws -> [Float] {
        let fx = try FeatureExtractor(sampleRate: sampleRate, fps: Rational(30))
        try fx.request(.pitches)
        var f = fx.makeFeatures()
        #expect(f.pitches.count == AudioFeatures.pitchCount)
        let x = AnalysisSignals.sine(frequency: frequency, amplitude: 0.5, seconds: seconds, sampleRate: sampleRate)
        fx.append(left: x)
        let frames = Int(seconds * 30) - 1
        for i in 0..<frames { fx.computeFeatures(forFrame: i, into: &f) }
        return f.pitches
    }

    /// Index in `pitches` of MIDI note `midi`.
    func index(_ midi: Int) -> Int { midi - AudioFeatures.lowestPitch }

    @Test("A4 (440 Hz) lights A4 at the sine's amplitude, G#4 and A#4 stay dark")
    func a4() throws {
        let p = try pitches(frequency: 440)
        let a4 = p[index(69)]
        #expect(abs(a4 - 0.5) < 0.05, "A4 reads \(a4), expected 0.5")
        #expect(p[index(68)] < 0.002 && p[index(70)] < 0.002, "G#4 \(p[index(68)]), A#4 \(p[index(70)])")
        #expect(p.indices.max { p[$0] < p[$1] } == index(69))
    }

    @Test("a tone lights its own key and both neighbours stay 50 dB under it, on either side, from A1 to C8",
          arguments: [33, 40, 45, 52, 57, 60, 64, 69, 76, 81, 88, 93, 100, 105, 108])
    func symmetricKernel(midi: Int) throws {
        let p = try pitches(frequency: 440 * pow(2, Double(midi - 69) / 12), seconds: midi < 40 ? 2 : 1)
        #expect(p.indices.max { p[$0] < p[$1] } == index(midi), "the loudest note is \(p.indices.max { p[$0] < p[$1] }! + AudioFeatures.lowestPitch)")
        let own = p[index(midi)]
        for neighbour in [midi - 2, midi - 1, midi + 1, midi + 2] where index(neighbour) >= 0 && index(neighbour) < p.count {
            let down = 20 * log10(Double(own) / Double(max(p[index(neighbour)], 1e-12)))
            // The piano view spans 48 dB from an empty bar to a full one: 50 dB down is an empty key.
            #expect(down >= 50, "note \(neighbour) is \(down) dB under note \(midi)")
        }
    }

    @Test("A1 (55 Hz) lights A1 only: semitones resolved in the bass, where FFT bins are 21.5 Hz wide")
    func a1() throws {
        let p = try pitches(frequency: 55)
        let a1 = p[index(33)]
        #expect(abs(a1 - 0.5) < 0.05, "A1 reads \(a1)")
        for (i, v) in p.enumerated() where i != index(33) {
            #expect(v < 0.05 * a1, "note \(i + AudioFeatures.lowestPitch) reads \(v) beside A1's \(a1)")
        }
    }

    @Test("a high note at 48 kHz: C7 (2093 Hz) lights C7, not B6 or C#7")
    func c7() throws {
        let p = try pitches(frequency: 440 * pow(2, 27.0 / 12), sampleRate: 48000, seconds: 1)
        #expect(p.indices.max { p[$0] < p[$1] } == index(96))
        #expect(p[index(95)] < 0.05 * p[index(96)] && p[index(97)] < 0.05 * p[index(96)])
    }

    @Test("a quarter tone between A4 and A#4 lights both about equally")
    func between() throws {
        let p = try pitches(frequency: 440 * pow(2, 0.5 / 12))
        let a = p[index(69)], b = p[index(70)]
        #expect(a > 0.1 && b > 0.1 && abs(a - b) < 0.1 * max(a, b), "A4 \(a), A#4 \(b)")
    }

    @Test("silence reads 0; without a request there is no pitch array (and no work)")
    func silenceAndRequest() throws {
        let fx = try FeatureExtractor(sampleRate: 44100, fps: Rational(30))
        var plain = fx.makeFeatures()
        #expect(plain.pitches.isEmpty && plain.spectrum.isEmpty)
        try fx.request([.pitches, .spectrum])
        var f = fx.makeFeatures()
        #expect(f.pitches.count == AudioFeatures.pitchCount && f.spectrum.count == fx.spectrumLength)
        fx.append(left: [Float](repeating: 0, count: 44100))
        for i in 0..<20 { fx.computeFeatures(forFrame: 2 * i, into: &f); fx.computeFeatures(forFrame: 2 * i + 1, into: &plain) }
        #expect(f.pitches.allSatisfy { $0 == 0 })
        #expect(plain.pitches.isEmpty)
        #expect(f.spectrumResolution == Float(44100) / Float(fx.fftSize))
    }

    @Test("window lengths: three times the inverse distance to the semitone below, clamped to the main FFT and the long one")
    func windows() throws {
        let bank = try PitchBank(sampleRate: 44100, minimumWindow: 2048)
        #expect(bank.size == 65536)
        let a1 = bank.windowLengths[index(33)]
        #expect(abs(Double(a1) - 3 * 44100 / (55 * (1 - pow(2, -1.0 / 12)))) < 2)
        #expect(bank.windowLengths.last == 2048 && bank.windowLengths.first == 65536)
    }
}
