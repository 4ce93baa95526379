import Foundation

/// Band edges plus precomputed bin weights: turns power spectra into band amplitudes.
///
/// A band at least one bin wide sums the power of the bins it overlaps, each weighted by the overlap.
/// A band narrower than a bin reads the power interpolated at its centre, scaled by the window's
/// equivalent noise bandwidth, so a full-scale sine reads amplitude ≈ 1 (0 dBFS) in its band either
/// way. Each band reads the main spectrum or, when it is too narrow for it and a long spectrum is
/// available, the long ("bass") one.
struct BandBank {
    let count: Int
    /// Lower and upper edge and centre of each band, Hz.
    let lower: [Double], upper: [Double], center: [Double]
    /// Band `b` uses `weights[start[b] ..< start[b] + length[b]]` over bins from `firstBin[b]`.
    private let start: [Int], length: [Int], firstBin: [Int], weights: [Float]
    /// 0 = main spectrum, 1 = long spectrum.
    let source: [UInt8]

    /// Band edges for a configuration, before any FFT is chosen.
    static func edges(layout: BandLayout, count: Int, minFrequency: Double, maxFrequency: Double)
        -> (lower: [Double], upper: [Double], center: [Double]) {
        switch layout {
        case .logarithmic:
            let ratio = maxFrequency / minFrequency
            var lo = [Double](), hi = [Double](), c = [Double]()
            for b in 0..<count {
                let a = minFrequency * pow(ratio, Double(b) / Double(count))
                let z = minFrequency * pow(ratio, Double(b + 1) / Double(count))
                lo.append(a); hi.append(z); c.append((a * z).squareRoot())
            }
            return (lo, hi, c)
        case .semitone:
            let first = Int((12 * log2(minFrequency / 440) + 69).rounded(.up))
            let last = max(first, Int((12 * log2(maxFrequency / 440) + 69).rounded(.down)))
            var lo = [Double](), hi = [Double](), c = [Double]()
            for m in first...last {
                let f = 440 * pow(2, Double(m - 69) / 12)
                c.append(f); lo.append(f * pow(2, -1.0 / 24)); hi.append(f * pow(2, 1.0 / 24))
            }
            return (lo, hi, c)
        }
    }

    /// - Parameters:
    ///   - mainSize / longSize: FFT lengths (longSize 0 = no long spectrum).
    ///   - mainENBW / longENBW: equivalent noise bandwidth of each window, in bins.
    init(lower: [Double], upper: [Double], center: [Double], sampleRate: Int,
         mainSize: Int, longSize: Int, mainENBW: Double, longENBW: Double, forceLongBelow: Double = 0) {
        count = lower.count
        self.lower = lower; self.upper = upper; self.center = center
        var start = [Int](), length = [Int](), firstBin = [Int](), weights = [Float](), source = [UInt8]()
        let sr = Double(sampleRate)
        for b in 0..<count {
            let width = upper[b] - lower[b]
            let mainDF = sr / Double(mainSize)
            let useLong = longSize > 0 && (width < 2 * mainDF || center[b] < forceLongBelow)
            let n = useLong ? longSize : mainSize
            let df = sr / Double(n)
            let nyquistBin = n / 2
            start.append(weights.count)
            source.append(useLong ? 1 : 0)
            if width >= df {
                let k0 = max(0, Int((lower[b] / df + 0.5).rounded(.down)))
                let k1 = min(nyquistBin, Int((upper[b] / df + 0.5).rounded(.down)))
                firstBin.append(k0)
                for k in k0...max(k0, k1) {
                    let a = max(lower[b], (Double(k) - 0.5) * df), z = min(upper[b], (Double(k) + 0.5) * df)
                    weights.append(Float(max(0, z - a) / df))
                }
                length.append(weights.count - start[b])
            } else {
                let enbw = useLong ? longENBW : mainENBW
                let x = min(Double(nyquistBin) - 1.0001, center[b] / df)
                let k0 = Int(x.rounded(.down)), frac = x - Double(k0)
                firstBin.append(k0)
                weights.append(Float((1 - frac) * enbw)); weights.append(Float(frac * enbw))
                length.append(2)
            }
        }
        self.start = start; self.length = length; self.firstBin = firstBin
        self.weights = weights; self.source = source
    }

    /// Writes band amplitudes (full-scale sine ≈ 1) to `out`, from power spectra already scaled so a
    /// full-scale sine's power summed over its bins is 1 (see ``SpectrumScaling``).
    func amplitudes(main: UnsafePointer<Float>, long: UnsafePointer<Float>?, into out: UnsafeMutablePointer<Float>) {
        weights.withUnsafeBufferPointer { w in
            start.withUnsafeBufferPointer { st in
                length.withUnsafeBufferPointer { ln in
                    firstBin.withUnsafeBufferPointer { fb in
                        source.withUnsafeBufferPointer { src in
                            for b in 0..<count {
                                let p = (src[b] == 1 ? (long ?? main) : main) + fb[b]
                                let wp = w.baseAddress! + st[b]
                                var s: Float = 0
                                for j in 0..<ln[b] { s += wp[j] * p[j] }
                                out[b] = s > 0 ? s.squareRoot() : 0
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Window tables and the factor that scales |X|² so a full-scale sine sums to power 1.
enum SpectrumScaling {
    /// Fills `w` (length `n`) with the window.
    static func fill(_ w: UnsafeMutablePointer<Float>, count n: Int, shape: AnalysisWindow) {
        switch shape {
        case .hann:
            for i in 0..<n {
                let s = sin(Double.pi * (Double(i) + 0.5) / Double(n))
                w[i] = Float(s * s)
            }
        case .lowLatency:
            let rise = n * 3 / 4, fall = n - rise
            for i in 0..<rise {
                let s = sin(0.5 * Double.pi * (Double(i) + 0.5) / Double(rise))
                w[i] = Float(s * s)
            }
            for i in 0..<fall {
                let s = cos(0.5 * Double.pi * (Double(i) + 0.5) / Double(fall))
                w[rise + i] = Float(s * s)
            }
        }
    }

    /// `(powerScale, enbwBins)`: multiply |X|² by powerScale so a full-scale sine sums to 1 over its
    /// bins; enbw is the equivalent noise bandwidth in bins.
    static func factors(_ w: UnsafePointer<Float>, count n: Int) -> (Float, Double) {
        var s1 = 0.0, s2 = 0.0
        for i in 0..<n { s1 += Double(w[i]); s2 += Double(w[i]) * Double(w[i]) }
        // Σ_k>0 |X_k|² ≈ (A²/4)·N·Σw² for a sine of amplitude A.
        let scale = 4.0 / (Double(n) * s2)
        return (Float(scale), Double(n) * s2 / (s1 * s1))
    }
}
