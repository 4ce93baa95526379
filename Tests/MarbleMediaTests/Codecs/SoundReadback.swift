import Foundation
import MarbleCore
@testable import MarbleMedia

/// Test signals for the sound writers, and the measurements made on what is decoded back: length,
/// frequency (zero crossings), level (RMS in dB), and where a click landed (cross-correlation).
enum TestSignal {
    /// `seconds` of a sine at `rate`.
    static func sine(_ frequency: Double, amplitude: Double, rate: Int, seconds: Double) -> [Float] {
        (0..<Int((seconds * Double(rate)).rounded())).map {
            Float(amplitude * sin(2 * .pi * frequency * Double($0) / Double(rate)))
        }
    }

    /// A 2 ms burst of 3 kHz under a Hann window, starting at `start` seconds, sampled at time `t`.
    static func click(at start: Double, _ t: Double) -> Float {
        let x = (t - start) / 0.002
        guard x >= 0 && x <= 1 else { return 0 }
        return Float(0.9 * 0.5 * (1 - cos(2 * .pi * x)) * sin(2 * .pi * 3000 * (t - start)))
    }

    /// Hands `samples` to `append` in blocks whose sizes cycle through `sizes` (none a multiple of an
    /// encoder frame), so no block lines up with a frame.
    static func feed(_ left: [Float], _ right: [Float]?, sizes: [Int] = [397, 1013, 61, 2999, 1],
                     _ append: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>?) throws -> Void) rethrows {
        var start = 0, k = 0
        while start < left.count {
            let n = min(sizes[k % sizes.count], left.count - start)
            try left.withUnsafeBufferPointer { l in
                let lb = UnsafeBufferPointer(rebasing: l[start..<start + n])
                if let right {
                    try right.withUnsafeBufferPointer { r in try append(lb, UnsafeBufferPointer(rebasing: r[start..<start + n])) }
                } else {
                    try append(lb, nil)
                }
            }
            start += n
            k += 1
        }
    }
}

/// A file's sound decoded back with ``AudioDecoder``: every channel, at the file's rate.
struct DecodedSound {
    let rate: Int
    let channels: [[Float]]

    init(_ path: String) throws {
        let decoder = try AudioDecoder(path: path)
        var left: [Float] = [], right: [Float] = []
        while try decoder.decodeNext({ l, r in
            left.append(contentsOf: l)
            if let r { right.append(contentsOf: r) }
        }) {}
        rate = decoder.sampleRate
        channels = decoder.channels == 2 ? [left, right] : [left]
    }

    var seconds: Double { Double(channels[0].count) / Double(rate) }

    private func range(_ from: Double, _ to: Double) -> Range<Int> {
        let n = channels[0].count
        return min(n, max(0, Int(from * Double(rate))))..<min(n, max(0, Int(to * Double(rate))))
    }

    /// RMS level in dB (0 dB = 1.0) of `channel` between `from` and `to` seconds.
    func level(_ channel: Int, from: Double, to: Double) -> Double {
        let r = range(from, to)
        guard !r.isEmpty else { return -.infinity }
        let power = channels[channel][r].reduce(0.0) { $0 + Double($1) * Double($1) } / Double(r.count)
        return 10 * log10(max(power, 1e-30))
    }

    /// Frequency (Hz) from the rising zero crossings between `from` and `to` seconds, placed to the
    /// fraction of a sample by linear interpolation.
    func frequency(_ channel: Int, from: Double, to: Double) -> Double {
        let x = channels[channel], r = range(from, to)
        var first: Double?, last = 0.0, count = 0
        for i in r.dropFirst() where x[i - 1] < 0 && x[i] >= 0 {
            let t = Double(i - 1) + Double(x[i - 1] / (x[i - 1] - x[i]))
            if first == nil { first = t }
            last = t
            count += 1
        }
        guard let first, count > 1 else { return 0 }
        return Double(count - 1) / (last - first) * Double(rate)
    }

    /// Where ``TestSignal/click(at:_:)`` placed at `start` sits in `channel`: the lag (seconds, within
    /// ± `search`) that best lines the decoded sound up with the click as written, by cross-correlation.
    func clickOffset(_ channel: Int, at start: Double, search: Double = 0.01) -> Double {
        let x = channels[channel]
        let reference = (0..<Int(0.002 * Double(rate)) + 1).map { TestSignal.click(at: 0, Double($0) / Double(rate)) }
        let origin = Int((start * Double(rate)).rounded()), reach = Int(search * Double(rate))
        var best = (lag: 0, score: -Double.infinity)
        for lag in -reach...reach {
            var score = 0.0
            for (k, v) in reference.enumerated() {
                let i = origin + lag + k
                if i >= 0 && i < x.count { score += Double(v) * Double(x[i]) }
            }
            if score > best.score { best = (lag, score) }
        }
        return Double(best.lag) / Double(rate)
    }
}

/// Amplitude → dB.
func decibels(_ amplitude: Double) -> Double { 20 * log10(amplitude) }
