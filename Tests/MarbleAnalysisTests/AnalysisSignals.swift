import Foundation
@testable import MarbleAnalysis
import MarbleCore
@testable import MarbleMedia

/// Deterministic test signals.
enum AnalysisSignals {
    static func sine(frequency: Double, amplitude: Float = 0.5, seconds: Double, sampleRate: Int) -> [Float] {
        let n = Int(seconds * Double(sampleRate))
        let w = 2 * Double.pi * frequency / Double(sampleRate)
        return (0..<n).map { amplitude * Float(sin(w * Double($0))) }
    }

    /// Exponential sweep from f0 to f1.
    static func logSweep(from f0: Double, to f1: Double, seconds: Double, sampleRate: Int, amplitude: Float = 0.5) -> [Float] {
        let n = Int(seconds * Double(sampleRate))
        let k = log(f1 / f0)
        return (0..<n).map { i in
            let t = Double(i) / Double(sampleRate)
            let phase = 2 * Double.pi * f0 * seconds / k * (exp(t / seconds * k) - 1)
            return amplitude * Float(sin(phase))
        }
    }

    /// A short percussive click (decaying noise burst, 15 ms) at each time.
    static func clicks(at times: [Double], seconds: Double, sampleRate: Int, amplitude: Float = 0.8,
                       accentEvery: Int = 0, accent: Float = 1) -> [Float] {
        var x = [Float](repeating: 0, count: Int(seconds * Double(sampleRate)))
        var seed: UInt32 = 12345
        let len = Int(0.015 * Double(sampleRate))
        for (k, t) in times.enumerated() {
            let amplitude = accentEvery > 0 && k % accentEvery == 0 ? amplitude * accent : amplitude
            let s = Int((t * Double(sampleRate)).rounded())
            for i in 0..<len where s + i < x.count && s + i >= 0 {
                seed = seed &* 1664525 &+ 1013904223
                let r = Float(Int32(bitPattern: seed)) / Float(Int32.max)
                x[s + i] += amplitude * r * Float(exp(-Double(i) / (0.003 * Double(sampleRate))))
            }
        }
        return x
    }

    /// Beat times of a click track.
    static func beatTimes(bpm: Double, start: Double = 0.5, seconds: Double) -> [Double] {
        stride(from: start, to: seconds - 0.05, by: 60 / bpm).map { $0 }
    }

    /// A 4/4 groove after Samples/make-sample.py: kick on every beat, snare on 2 and 4, hats on eighths,
    /// a bass note on each off-beat, a held chord. Returns the signal and the kick (beat) times.
    static func groove(bpm: Double, seconds: Double, sampleRate: Int, start: Double = 0.25) -> (signal: [Float], beats: [Double]) {
        let sr = Double(sampleRate)
        var x = [Float](repeating: 0, count: Int(seconds * sr))
        var seed: UInt32 = 99
        func noise() -> Double {
            seed = seed &* 1664525 &+ 1013904223
            return Double(Int32(bitPattern: seed)) / Double(Int32.max)
        }
        func place(_ at: Double, _ length: Double, _ sample: (Double) -> Double) {
            let i0 = Int(at * sr)
            for i in 0..<Int(length * sr) where i0 + i < x.count { x[i0 + i] += Float(sample(Double(i) / sr)) }
        }
        let beat = 60 / bpm
        let beats = Array(stride(from: start, to: seconds - 0.3, by: beat))
        for (k, t0) in beats.enumerated() {
            place(t0, 0.35) { t in 0.7 * sin(2 * Double.pi * (50 * t + 120 * 0.03 * (1 - exp(-t / 0.03)))) * exp(-t / 0.12) }
            if k % 2 == 1 { place(t0, 0.25) { t in 0.35 * (0.6 * noise() + sin(2 * Double.pi * 190 * t)) * exp(-t / 0.06) } }
            place(t0, 0.06) { t in 0.1 * noise() * exp(-t / 0.015) }
            place(t0 + beat / 2, 0.06) { t in 0.18 * noise() * exp(-t / 0.015) }
            let f = [110.0, 110, 130.81, 98][(k / 4) % 4]
            place(t0 + beat / 2, beat / 2) { t in 0.18 * sin(2 * Double.pi * f * t) * exp(-t / 0.25) }
        }
        for i in x.indices {
            let t = Double(i) / sr
            x[i] += Float(0.03 * (sin(2 * Double.pi * 440 * t) + sin(2 * Double.pi * 523.25 * t) + sin(2 * Double.pi * 659.26 * t)))
        }
        return (x, beats)
    }

    /// Fast music (drum and bass, hardcore, fast punk): a kick on every beat (peak 0.8), a hi-hat on every
    /// off-beat `hatDecibels` below the kick's peak (a little quieter, not much), and a snare over the kick
    /// on 2 and 4 (noise at 0.7 · `snare` plus a 190 Hz body at `body` · `snare`, decaying in `snareDecay`
    /// seconds; by default loud, as drum and bass has it), over a held chord. Returns the signal and the
    /// kick times.
    ///
    /// The off-beat hats make the onsets come at twice the kick's rate, and the snare makes every other
    /// kick stronger: read at half the tempo, the kicks on 2 and 4 would be the "in-between" pulses.
    static func fastBeat(bpm: Double, seconds: Double, sampleRate: Int, hatDecibels: Double = -4,
                         snare: Double = 1.0, body: Double = 1.5, snareDecay: Double = 0.08,
                         start: Double = 0.3) -> (signal: [Float], beats: [Double]) {
        let sr = Double(sampleRate)
        var x = [Float](repeating: 0, count: Int(seconds * sr))
        var seed: UInt32 = 4242
        var last = 0.0
        func noise() -> Double {
            seed = seed &* 1664525 &+ 1013904223
            return Double(Int32(bitPattern: seed)) / Double(Int32.max)
        }
        /// Brighter noise (first difference: the spectrum rises 6 dB per octave), as a hat's.
        func bright() -> Double {
            let n = noise(), d = n - last
            last = n
            return 0.5 * d
        }
        func place(_ at: Double, _ length: Double, _ sample: (Double) -> Double) {
            let i0 = Int((at * sr).rounded())
            for i in 0..<Int(length * sr) where i0 + i < x.count { x[i0 + i] += Float(sample(Double(i) / sr)) }
        }
        let beat = 60 / bpm, kick = 0.8, hat = kick * pow(10, hatDecibels / 20)
        let beats = Array(stride(from: start, to: seconds - 0.3, by: beat))
        for (k, t0) in beats.enumerated() {
            // Kick: a pitch-swept sine (150 → 50 Hz) with a beater click.
            place(t0, min(0.25, 0.9 * beat)) { t in
                kick * sin(2 * Double.pi * (50 * t + 100 * 0.02 * (1 - exp(-t / 0.02)))) * exp(-t / 0.07)
            }
            place(t0, 0.01) { t in 0.25 * noise() * exp(-t / 0.003) }
            if snare > 0, k % 2 == 1 {
                place(t0, 0.15) { t in snare * (0.7 * noise() + body * sin(2 * Double.pi * 190 * t)) * exp(-t / snareDecay) }
            }
            place(t0 + beat / 2, 0.05) { t in hat * bright() * exp(-t / 0.012) }
        }
        for i in x.indices {
            let t = Double(i) / sr
            x[i] += Float(0.02 * (sin(2 * Double.pi * 220 * t) + sin(2 * Double.pi * 277.18 * t) + sin(2 * Double.pi * 329.63 * t)))
        }
        return (x, beats)
    }

    /// Low-level white noise.
    static func noise(seconds: Double, sampleRate: Int, amplitude: Float) -> [Float] {
        var seed: UInt32 = 987654
        return (0..<Int(seconds * Double(sampleRate))).map { _ in
            seed = seed &* 1664525 &+ 1013904223
            return amplitude * Float(Int32(bitPattern: seed)) / Float(Int32.max)
        }
    }

    /// Precision/recall F-measure of detections against references within `tolerance` seconds
    /// (greedy one-to-one matching, as mir_eval does for onsets and beats).
    static func fMeasure(_ detected: [Double], _ reference: [Double], tolerance: Double) -> Double {
        guard !detected.isEmpty || !reference.isEmpty else { return 1 }
        guard !detected.isEmpty, !reference.isEmpty else { return 0 }
        var used = [Bool](repeating: false, count: detected.count)
        var hits = 0
        for r in reference {
            var best = -1, bestD = tolerance
            for (i, d) in detected.enumerated() where !used[i] && abs(d - r) <= bestD { best = i; bestD = abs(d - r) }
            if best >= 0 { used[best] = true; hits += 1 }
        }
        let p = Double(hits) / Double(detected.count), r = Double(hits) / Double(reference.count)
        return p + r > 0 ? 2 * p * r / (p + r) : 0
    }

    /// Runs a mono signal through an extractor, calling `body` per frame.
    static func run(_ x: [Float], sampleRate: Int, fps: Rational = Rational(60),
                    configuration: AnalysisConfiguration = AnalysisConfiguration(), chunk: Int = 1024,
                    right: [Float]? = nil,
                    _ body: (Int, AudioFeatures) -> Void) throws {
        let fx = try FeatureExtractor(sampleRate: sampleRate, fps: fps, configuration: configuration)
        var f = fx.makeFeatures()
        let frames = fps.frameCount(covering: Double(x.count) / Double(sampleRate))
        var pos = 0, frame = 0
        while frame < frames {
            while pos < x.count && pos < fx.samplesNeeded(forFrame: frame) {
                let n = min(chunk, x.count - pos)
                if let right {
                    fx.append(left: Array(x[pos..<pos + n]), right: Array(right[pos..<pos + n]))
                } else {
                    fx.append(left: Array(x[pos..<pos + n]))
                }
                pos += n
            }
            if pos >= x.count { fx.finish() }
            fx.computeFeatures(forFrame: frame, into: &f)
            body(frame, f)
            frame += 1
        }
    }
}
