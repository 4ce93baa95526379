import Foundation
import MarbleCore
import MarbleDSP

/// A constant-Q transform with one output per equal-tempered semitone (``AudioFeatures/pitches``):
/// Brown and Puckette's spectral kernels, as FFmpeg's showcqt computes them, with a window chosen so
/// that a note leaves both of its neighbours dark.
///
/// Each semitone m (frequency f, A4 = 440 Hz) is the inner product of the last samples with a
/// Blackman-windowed complex sinusoid at f of N = 3 · rate / (f · (1 − 2^(−1/12))) samples (0.95 s
/// at 55 Hz, 0.12 s at 440 Hz), clamped to `minimumWindow`…`size`. A Blackman window of that length
/// has its first spectral null at f · (1 − 2^(−1/12)), the distance down to the semitone below, and
/// sidelobes under −58 dB beyond it; the semitone above is a little further (f · (2^(1/12) − 1)), so
/// a steady note reads −70 dB or less on both neighbours, the same on either side. (The former kernel,
/// a Hann window two semitone spacings long, had its null exactly on the semitone above and the one
/// below inside its main lobe: a sine lit the next semitone up at −33 dB, the one after at −44 dB,
/// and nothing below: a wall of bars on a piano view, whose bars span 48 dB.) A note between two
/// semitones (a quarter tone off) lights both, at about −11 dB each.
/// Windows end at the frame end (the analysis is causal), so a bass note shows about N/2 late.
///
/// Per frame: one real FFT of `size` samples (65 536 at 44.1/48 kHz, covering the window of C#1 and
/// up at full length), then each semitone sums its sparse kernel (the kernel's own FFT, kept where
/// it is above −80 dB of its peak) against the spectrum. Notes above 0.45 · rate read 0. Built once;
/// `fill` never allocates.
final class PitchBank {
    /// FFT length, samples: the longest window.
    let size: Int
    private let fft: RealFFT
    private let ones: UnsafeMutablePointer<Float>
    /// Semitone `m` sums `kernel[offset[m] ..< offset[m] + count[m]]` (interleaved re, im pairs) over
    /// bins from `firstBin[m]`.
    private let firstBin: [Int], count: [Int], offset: [Int]
    private let kernel: [Float]
    /// Window length of each semitone, samples (for tests and documentation).
    let windowLengths: [Int]

    /// - Parameters:
    ///   - minimumWindow: the shortest window (the main FFT's length), so high notes are not measured
    ///     over a fraction of a frame.
    init(sampleRate: Int, minimumWindow: Int) throws(MarbleError) {
        let rate = Double(sampleRate)
        let lowest = 440 * pow(2, Double(AudioFeatures.lowestPitch - 69) / 12)
        let below = 1 - pow(2, -1.0 / 12)   // the distance down to the semitone below, per hertz of the note
        // Long enough for A0 (27.5 Hz), capped at 65 536 (1.4 s at 48 kHz).
        let longest = 3 * rate / (27.5 * below)
        var n = 1024
        while Double(n) < longest && n < 65536 { n *= 2 }
        size = n
        fft = try RealFFT(size: n)
        ones = .allocate(capacity: n)
        ones.initialize(repeating: 1, count: n)
        var first = [Int](), counts = [Int](), offsets = [Int](), lengths = [Int](), entries = [Float]()
        let bins = fft.binCount
        for m in 0..<AudioFeatures.pitchCount {
            let f = lowest * pow(2, Double(m) / 12)
            let length = min(n, max(minimumWindow, Int((3 * rate / (f * below)).rounded())))
            lengths.append(length)
            offsets.append(entries.count)
            guard f < 0.45 * rate else { first.append(0); counts.append(0); continue }
            // The kernel's spectrum: a Blackman-windowed cosine at f ending at the buffer's end.
            let input = fft.input
            input.update(repeating: 0, count: n)
            var windowSum = 0.0
            for i in 0..<length {
                let t = 2 * Double.pi * (Double(i) + 0.5) / Double(length)
                let w = 0.42 - 0.5 * cos(t) + 0.08 * cos(2 * t)
                windowSum += w
                input[n - length + i] = Float(w * cos(2 * Double.pi * f * Double(i) / rate))
            }
            fft.transform()
            let out = fft.output
            var peak: Float = 0
            for k in 0..<bins { peak = max(peak, out[2 * k] * out[2 * k] + out[2 * k + 1] * out[2 * k + 1]) }
            let threshold = peak * 1e-8   // −80 dB in amplitude: under the window's sidelobes
            var lo = bins, hi = -1
            for k in 0..<bins where out[2 * k] * out[2 * k] + out[2 * k + 1] * out[2 * k + 1] >= threshold {
                lo = min(lo, k); hi = max(hi, k)
            }
            // The cosine's spectrum is half the complex sinusoid's on the positive side: amplitude
            // A = 2 |Σ x·w·e^{-iωt}| / Σw = |Σ_k X[k] · conj(K[k])| · 4 / (n · Σw) (Parseval).
            let scale = Float(4 / (Double(n) * windowSum))
            first.append(max(0, lo))
            counts.append(max(0, hi - lo + 1))
            if hi >= lo {
                for k in lo...hi { entries.append(out[2 * k] * scale); entries.append(-out[2 * k + 1] * scale) }
            }
        }
        firstBin = first; count = counts; offset = offsets; kernel = entries; windowLengths = lengths
    }

    deinit { ones.deallocate() }

    /// Writes ``AudioFeatures/pitchCount`` semitone amplitudes (full-scale sine ≈ 1) of the mono mix of
    /// the `size` samples ending at `end` to `out`.
    func fill(ring: SampleRing, end: Int, into out: UnsafeMutablePointer<Float>) {
        ring.copyMonoWindowed(from: end - size, count: size, window: ones, to: fft.input)
        fft.transform()
        let spectrum = fft.output
        kernel.withUnsafeBufferPointer { kb in
            for m in 0..<AudioFeatures.pitchCount {
                let k = kb.baseAddress! + offset[m]
                let x = spectrum + 2 * firstBin[m]
                var re: Float = 0, im: Float = 0
                for j in 0..<count[m] {
                    let xr = x[2 * j], xi = x[2 * j + 1], kr = k[2 * j], ki = k[2 * j + 1]
                    re += xr * kr - xi * ki
                    im += xr * ki + xi * kr
                }
                out[m] = FastMath.finite((re * re + im * im).squareRoot())
            }
        }
    }
}
