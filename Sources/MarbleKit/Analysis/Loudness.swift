import Foundation

/// ITU-R BS.1770-4 K-weighting: a high-shelf ("pre-filter", +4 dB above ~1.7 kHz) then a high-pass
/// (RLB, ~38 Hz), as two biquads designed for any sample rate (the analogue prototypes bilinear-
/// transformed, the same derivation libebur128 uses), run in double precision.
struct KWeighting {
    private let b0, b1, b2, a1, a2: Double      // shelf
    private let c0, c1, c2, d1, d2: Double      // high-pass
    // Direct form I state: inputs x, outputs y of the shelf; inputs w, outputs z of the high-pass
    // (`…1` = one sample ago, `…1b` = two samples ago).
    private var x1 = 0.0, x2 = 0.0, y1 = 0.0, y1b = 0.0
    private var w1 = 0.0, w2 = 0.0, z1 = 0.0, z1b = 0.0

    init(sampleRate: Int) {
        let fs = Double(sampleRate)
        var f0 = 1681.974450955533, q = 0.7071752369554196
        let gainDB = 3.999843853973347
        var k = tan(Double.pi * f0 / fs)
        let vh = pow(10, gainDB / 20), vb = pow(vh, 0.4996667741545416)
        var a0 = 1 + k / q + k * k
        b0 = (vh + vb * k / q + k * k) / a0
        b1 = 2 * (k * k - vh) / a0
        b2 = (vh - vb * k / q + k * k) / a0
        a1 = 2 * (k * k - 1) / a0
        a2 = (1 - k / q + k * k) / a0
        f0 = 38.13547087602444; q = 0.5003270373238773
        k = tan(Double.pi * f0 / fs)
        a0 = 1 + k / q + k * k
        c0 = 1; c1 = -2; c2 = 1
        d1 = 2 * (k * k - 1) / a0
        d2 = (1 - k / q + k * k) / a0
    }

    /// Filters one sample. Direct form I, with each output's own feedback term added last: the only
    /// serial dependency per sample is then one multiply-add (the transposed form has two), which
    /// halves the time of this latency-bound loop.
    @inline(__always)
    mutating func tick(_ v: Double) -> Double {
        let t = b0 * v + b1 * x1 + b2 * x2 - a2 * y1b
        let y = t - a1 * y1
        x2 = x1; x1 = v; y1b = y1; y1 = y
        let u = c0 * y + c1 * w1 + c2 * w2 - d2 * z1b
        let z = u - d1 * z1
        w2 = w1; w1 = y; z1b = z1; z1 = z
        return z
    }

    /// Zeroes states too small to matter, before a long silence decays them into denormals (which
    /// are a hundred times slower to compute with).
    mutating func flushTinyStates() {
        if abs(x1) < 1e-30 && abs(x2) < 1e-30 && abs(y1) < 1e-30 && abs(y1b) < 1e-30 {
            x1 = 0; x2 = 0; y1 = 0; y1b = 0
        }
        if abs(w1) < 1e-30 && abs(w2) < 1e-30 && abs(z1) < 1e-30 && abs(z1b) < 1e-30 {
            w1 = 0; w2 = 0; z1 = 0; z1b = 0
        }
    }

    /// The filter's power gain at `frequency` (for tests: a 1 kHz sine gains about +0.69 dB).
    func powerGain(at frequency: Double, sampleRate: Int) -> Double {
        func mag2(_ b: (Double, Double, Double), _ a: (Double, Double)) -> Double {
            let w = 2 * Double.pi * frequency / Double(sampleRate)
            let (c1, s1, c2, s2) = (cos(w), -sin(w), cos(2 * w), -sin(2 * w))
            let nr = b.0 + b.1 * c1 + b.2 * c2, ni = b.1 * s1 + b.2 * s2
            let dr = 1 + a.0 * c1 + a.1 * c2, di = a.0 * s1 + a.1 * s2
            return (nr * nr + ni * ni) / (dr * dr + di * di)
        }
        return mag2((b0, b1, b2), (a1, a2)) * mag2((c0, c1, c2), (d1, d2))
    }
}

/// EBU R128 / BS.1770-4 loudness meter: momentary (400 ms), short-term (3 s), gated integrated
/// loudness and loudness range (EBU Tech 3342), in bounded memory.
///
/// K-weighted energy is summed into ~10 ms sub-blocks (a ring of 512); every 100 ms a 400 ms gating
/// block and a 3 s short-term block are formed from them (75 % / 97 % overlap, as the standard asks).
/// Gating uses histograms with 0.01 LU bins that keep each bin's energy sum, so the integrated value
/// is exact except for blocks sharing a bin with the relative gate, and memory stays flat however
/// long the stream runs.
struct LoudnessMeter {
    static let silence: Float = -120
    private let subBlock: Int
    private var left: KWeighting, right: KWeighting
    private var ring = [Double](repeating: 0, count: 512)
    private var completed = 0          // sub-blocks completed
    private var partial = 0.0          // energy of the current sub-block
    private var partialCount = 0
    private var blockHist: GatingHistogram
    private var shortHist: GatingHistogram
    private var cachedIntegrated: Float = silence, cachedRange: Float = 0
    private var integratedStale = false, rangeStale = false
    /// Largest momentary loudness seen so far, LUFS.
    private(set) var maxMomentary: Float = silence
    /// Largest short-term loudness seen so far (over what there is during the first 3 s), LUFS.
    private(set) var maxShortTerm: Float = silence

    init(sampleRate: Int) {
        subBlock = max(1, Int((Double(sampleRate) / 100).rounded()))
        left = KWeighting(sampleRate: sampleRate)
        right = KWeighting(sampleRate: sampleRate)
        blockHist = GatingHistogram()
        shortHist = GatingHistogram()
    }

    static func lufs(_ meanSquare: Double) -> Float {
        guard meanSquare > 1e-15 else { return silence }
        return Float(max(-120, -0.691 + 10 * log10(meanSquare)))
    }

    /// Feeds `n` samples. `stereo == false` counts one channel (mono, as BS.1770 counts it) and
    /// ignores `r`; `l == nil` feeds silence.
    mutating func process(_ l: UnsafePointer<Float>?, _ r: UnsafePointer<Float>?, stereo: Bool, count n: Int) {
        var done = 0
        while done < n {
            let chunk = min(n - done, subBlock - partialCount)
            partial += Self.filter(&left, &right, l.map { $0 + done }, stereo ? (r ?? l).map { $0 + done } : nil, chunk)
            partialCount += chunk
            done += chunk
            if partialCount == subBlock { closeSubBlock() }
        }
    }

    /// Runs both channels' filters in one loop (two independent recurrences keep the core busy).
    private static func filter(_ fl: inout KWeighting, _ fr: inout KWeighting,
                               _ l: UnsafePointer<Float>?, _ r: UnsafePointer<Float>?, _ n: Int) -> Double {
        var a = fl, b = fr
        var acc0 = 0.0, acc1 = 0.0
        if let l, let r {
            for i in 0..<n {
                let y0 = a.tick(Double(l[i])), y1 = b.tick(Double(r[i]))
                acc0 += y0 * y0; acc1 += y1 * y1
            }
        } else if let l {
            for i in 0..<n { let y0 = a.tick(Double(l[i])); acc0 += y0 * y0 }
        } else {
            for _ in 0..<n {
                let y0 = a.tick(0), y1 = b.tick(0)
                acc0 += y0 * y0; acc1 += y1 * y1
            }
        }
        fl = a; fr = b
        return acc0 + acc1
    }

    private mutating func closeSubBlock() {
        left.flushTinyStates()
        right.flushTinyStates()
        ring[completed & 511] = partial
        completed += 1
        partial = 0; partialCount = 0
        if completed % 10 == 0 {
            if completed >= 40 {
                let z = mean(last: 40)
                let l = Self.lufs(z)
                maxMomentary = max(maxMomentary, l)
                if l > -70 { blockHist.add(l, energy: z); integratedStale = true }
            }
            let st = mean(last: 300)
            maxShortTerm = max(maxShortTerm, Self.lufs(st))
            if completed >= 300 {
                let z = st
                let l = Self.lufs(z)
                if l > -70 { shortHist.add(l, energy: z); rangeStale = true }
            }
        }
    }

    private func mean(last count: Int) -> Double {
        let n = min(count, completed)
        guard n > 0 else { return 0 }
        var s = 0.0
        for i in (completed - n)..<completed { s += ring[i & 511] }
        return s / Double(n * subBlock)
    }

    /// Gated integrated loudness so far, LUFS (recomputed only after a new gating block).
    mutating func integrated() -> Float {
        if integratedStale { cachedIntegrated = blockHist.integrated(); integratedStale = false }
        return cachedIntegrated
    }

    /// Loudness range so far, LU (recomputed only after a new short-term block).
    mutating func range() -> Float {
        if rangeStale { cachedRange = shortHist.loudnessRange(); rangeStale = false }
        return cachedRange
    }

    /// Loudness of the last 400 ms of complete sub-blocks, LUFS.
    var momentary: Float { Self.lufs(mean(last: 40)) }
    /// Loudness of the last 3 s of complete sub-blocks, LUFS.
    var shortTerm: Float { Self.lufs(mean(last: 300)) }
}

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
