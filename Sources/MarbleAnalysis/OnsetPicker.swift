/// Picks onsets from the onset detection function with an adaptive threshold.
///
/// Offline: a value is an onset when it is the maximum of ±30 ms, exceeds the mean of
/// ±100 ms by `delta` of the envelope's maximum, exceeds an absolute floor (so silence and steady
/// noise give nothing), and comes at least 30 ms after the previous onset (librosa's peak_pick rule).
/// The song is picked as it streams (``candidate(at:in:first:count:)`` needs ±10 values), and only
/// the relative threshold waits for the envelope's maximum (``accept(_:top:)``).
/// Live (``LiveOnsetPicker``): the same test with no look-ahead but one hop, so an onset is confirmed
/// one hop (10 ms) after its peak.
struct OnsetPicker {
    var preMax = 3, postMax = 3, preAverage = 10, postAverage = 10, wait = 3
    var delta: Float = 0.07
    /// Absolute floor on the ODF for an onset (a click out of silence gives 1–8).
    var floor: Float = 0.1

    /// A local maximum above the floor: an onset if it clears the relative threshold.
    struct Candidate {
        var index: Int
        /// Fractional ODF frame (refined by a parabola).
        var position: Double
        var value: Float
        /// Mean of the ±`preAverage`/`postAverage` neighbourhood.
        var mean: Float
    }

    /// Hops of look-ahead ``candidate(at:in:first:count:)`` reads.
    var lookAhead: Int { max(postMax, postAverage) + 1 }

    /// Tests value `i`. `x` holds values `first ..< first + x.count`, which must include
    /// `i − max(preMax, preAverage) … i + lookAhead` where they exist; `n` is the envelope's length
    /// (`Int.max` while it is still growing).
    func candidate(at i: Int, in x: UnsafeBufferPointer<Float>, first: Int, count n: Int) -> Candidate? {
        let v = x[i - first]
        guard v > floor else { return nil }
        for j in max(0, i - preMax)...min(n - 1, i + postMax) where x[j - first] > v || (x[j - first] == v && j < i) {
            return nil
        }
        var s: Float = 0
        let a = max(0, i - preAverage), b = min(n - 1, i + postAverage)
        for j in a...b { s += x[j - first] }
        return Candidate(index: i, position: Double(first) + PeakRefine.refine(x, at: i - first), value: v,
                         mean: s / Float(b - a + 1))
    }

    /// Whether a candidate clears the threshold relative to `top`, the envelope's maximum (a
    /// candidate that fails against a running maximum fails against the final one too).
    func accept(_ c: Candidate, top: Float) -> Bool { c.value >= c.mean + delta * top }

    /// The onsets among `candidates` (in order) for an envelope whose maximum is `top`: the
    /// threshold, then at most one onset per `wait` values.
    func onsets(_ candidates: [Candidate], top: Float) -> [Double] {
        guard top > floor else { return [] }
        var out = [Double]()
        var last = -wait - 1
        for c in candidates where c.index - last > wait && accept(c, top: top) {
            out.append(c.position)
            last = c.index
        }
        return out
    }
}

/// Causal onset picking over a stream of ODF values, allocation-free.
struct LiveOnsetPicker {
    private var history = [Float](repeating: 0, count: 16)
    private var count = 0
    private var lastOnset = -100
    /// Slowly decaying running maximum of the ODF (its scale for the relative threshold).
    private var runningMax: Float = 0
    var delta: Float = 0.07
    var floor: Float = 0.1
    var wait = 3

    /// Feeds ODF value `count`; returns true when the previous value is confirmed as an onset.
    mutating func push(_ v: Float) -> Bool {
        history[count & 15] = v
        count += 1
        runningMax = max(v, runningMax * 0.9985)   // half-life ≈ 4.6 s at 100 values/s
        guard count >= 3 else { return false }
        let i = count - 2
        let p = history[i & 15], before = history[(i - 1) & 15], after = v
        guard p > floor, p >= before, p > after, i - lastOnset > wait else { return false }
        var s: Float = 0
        let m = min(10, i)
        for j in (i - m)..<i { s += history[j & 15] }
        let mean = m > 0 ? s / Float(m) : 0
        guard p >= mean + delta * runningMax else { return false }
        lastOnset = i
        return true
    }
}
