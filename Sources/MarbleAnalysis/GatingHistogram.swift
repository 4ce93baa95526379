import Foundation

/// Histogram of block loudness (−70…+10 LUFS, 0.01 LU bins) with per-bin energy sums.
struct GatingHistogram {
    private static let bins = 8000
    private var counts = [Int](repeating: 0, count: bins)
    private var energy = [Double](repeating: 0, count: bins)
    private var total = 0
    private var totalEnergy = 0.0

    private static func bin(_ l: Float) -> Int { min(bins - 1, max(0, Int(((l + 70) * 100).rounded(.down)))) }

    mutating func add(_ l: Float, energy z: Double) {
        let b = Self.bin(l)
        counts[b] += 1; energy[b] += z
        total += 1; totalEnergy += z
    }

    /// BS.1770-4 integrated loudness: absolute gate −70 LUFS (applied on entry), relative gate −10 LU.
    func integrated() -> Float {
        guard total > 0 else { return LoudnessMeter.silence }
        let gate = Self.bin(LoudnessMeter.lufs(totalEnergy / Double(total)) - 10)
        var n = 0, z = 0.0
        for b in gate..<Self.bins { n += counts[b]; z += energy[b] }
        return n > 0 ? LoudnessMeter.lufs(z / Double(n)) : LoudnessMeter.silence
    }

    /// EBU Tech 3342 loudness range: relative gate −20 LU, then the 10th to 95th percentile spread.
    func loudnessRange() -> Float {
        guard total > 0 else { return 0 }
        let gate = Self.bin(LoudnessMeter.lufs(totalEnergy / Double(total)) - 20)
        var n = 0
        for b in gate..<Self.bins { n += counts[b] }
        guard n > 0 else { return 0 }
        func percentile(_ p: Double) -> Float {
            let target = Int((Double(n - 1) * p).rounded())
            var seen = 0
            for b in gate..<Self.bins {
                seen += counts[b]
                if seen > target { return Float(b) / 100 - 70 + 0.005 }
            }
            return 10
        }
        return max(0, percentile(0.95) - percentile(0.10))
    }
}
