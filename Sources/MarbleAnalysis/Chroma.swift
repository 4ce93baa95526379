import Foundation

/// Folds a power spectrum into 12 pitch classes (C = 0 … B = 11, A4 = 440 Hz), over 55 Hz–5 kHz.
///
/// Each bin adds its power to the pitch class of its centre frequency; the result is normalised so
/// the strongest class is 1 (all zero for silence). Use a long FFT: a semitone at 55 Hz is 3 Hz wide.
struct ChromaMap {
    private let firstBin: Int
    private let classes: [UInt8]

    init(sampleRate: Int, fftSize: Int) {
        let df = Double(sampleRate) / Double(fftSize)
        let lo = max(1, Int((55 / df).rounded(.up)))
        let hi = min(fftSize / 2, Int((min(5000, 0.45 * Double(sampleRate)) / df).rounded(.down)))
        firstBin = lo
        var c = [UInt8]()
        if hi >= lo {
            for k in lo...hi {
                let midi = 69 + 12 * log2(Double(k) * df / 440)
                let pc = ((Int(midi.rounded()) % 12) + 12) % 12
                c.append(UInt8(pc))
            }
        }
        classes = c
    }

    /// Writes the normalised 12-class chroma of `power` to `out`; returns the strongest class's
    /// raw power (0 for silence).
    @discardableResult
    func fill(power: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>) -> Float {
        for i in 0..<12 { out[i] = 0 }
        classes.withUnsafeBufferPointer { cls in
            let p = power + firstBin
            for i in 0..<cls.count { out[Int(cls[i])] += p[i] }
        }
        var top: Float = 0
        for i in 0..<12 { top = max(top, out[i]) }
        if top > 1e-12 {
            let s = 1 / top
            for i in 0..<12 { out[i] = FastMath.finite(out[i] * s) }
        } else {
            for i in 0..<12 { out[i] = 0 }
        }
        return top
    }
}
