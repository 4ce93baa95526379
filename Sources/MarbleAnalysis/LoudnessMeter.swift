import Foundation

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
    /// Largest short-term loudness seen so far (from 3 s on, as meters report it), LUFS.
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
            if completed >= 300 {
                let z = mean(last: 300)
                let l = Self.lufs(z)
                maxShortTerm = max(maxShortTerm, l)
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
    /// -120 until 400 ms have passed.
    var momentary: Float { completed >= 40 ? Self.lufs(mean(last: 40)) : Self.silence }
    /// Loudness of the last 3 s of complete sub-blocks, LUFS.
    /// Over what there is (at least 400 ms, else -120) during the first 3 s.
    var shortTerm: Float { completed >= 40 ? Self.lufs(mean(last: 300)) : Self.silence }
}
