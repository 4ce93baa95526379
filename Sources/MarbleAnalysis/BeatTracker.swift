import Foundation

/// Offline beat tracking by dynamic programming (Ellis 2007, "Beat tracking by dynamic programming"):
/// maximise the onset strength at the beats minus a penalty `tightness · log²(interval / period)`
/// on every inter-beat interval, then backtrack from the best final beat. Leading and trailing beats
/// weaker than half the beats' RMS strength are trimmed (as librosa does).
///
/// Works on one window of the envelope (``RhythmStream`` tracks a long song in overlapping windows);
/// its scratch is 24 bytes per value, freed on return.
struct BeatTracker {
    var tightness: Double = 100

    /// Returns beat positions as indices into `odf` (refine them with ``PeakRefine``). `trimStart` and
    /// `trimEnd` say whether weak beats are trimmed at that end (only at the song's own ends: inside a
    /// long song a window's ends are seams).
    func track(_ odf: UnsafeBufferPointer<Float>, period: Double, trimStart: Bool = true, trimEnd: Bool = true) -> [Int] {
        let n = odf.count
        guard n > 4, period >= 2 else { return [] }
        // Normalise by the standard deviation, then smooth with a Gaussian of width period/32.
        var mean = 0.0, sq = 0.0
        for v in odf { mean += Double(v) }
        mean /= Double(n)
        for v in odf { sq += (Double(v) - mean) * (Double(v) - mean) }
        let std = (sq / Double(max(1, n - 1))).squareRoot()
        guard std > 1e-9 else { return [] }
        let half = Int(period.rounded())
        var kernel = [Double](repeating: 0, count: 2 * half + 1)
        for i in -half...half { let z = Double(i) * 32 / period; kernel[i + half] = exp(-0.5 * z * z) }
        var local = [Double](repeating: 0, count: n)
        for t in 0..<n {
            var s = 0.0
            for i in max(-half, -t)...min(half, n - 1 - t) { s += kernel[i + half] * Double(odf[t + i]) / std }
            local[t] = s
        }
        // Forward pass.
        let lo = max(1, Int((period / 2).rounded())), hi = Int((2 * period).rounded())
        var penalty = [Double](repeating: 0, count: hi + 1)
        for d in lo...hi { let l = log(Double(d) / period); penalty[d] = -tightness * l * l }
        var cum = [Double](repeating: 0, count: n)
        var back = [Int](repeating: -1, count: n)
        for t in 0..<n {
            var best = -Double.infinity, arg = -1
            if t - lo >= 0 {
                for d in lo...min(hi, t) {
                    let s = cum[t - d] + penalty[d]
                    if s > best { best = s; arg = t - d }
                }
            }
            // A chain may also start here (no predecessor, no penalty): otherwise the first beat, whose
            // only candidates are the empty frames before it, is pushed onto a wrong frame.
            if arg >= 0, best > 0 {
                cum[t] = local[t] + best
                back[t] = arg
            } else {
                cum[t] = local[t]
                back[t] = -1
            }
        }
        // The last beat: where the cumulative score peaks (Ellis: "the largest value of C*"); it
        // accumulates along the chain, so this is the chain's strongest end, not a stray off-beat.
        var t = 0
        for i in 0..<n where cum[i] >= cum[t] { t = i }
        guard cum[t] > 0 else { return [] }
        var beats = [Int]()
        while t >= 0 { beats.append(t); t = back[t] }
        beats.reverse()
        // Trim weak beats at both ends.
        var rms = 0.0
        for b in beats { rms += local[b] * local[b] }
        let cut = 0.5 * (rms / Double(beats.count)).squareRoot()
        if trimStart { while let f = beats.first, local[f] <= cut { beats.removeFirst() } }
        if trimEnd { while let l = beats.last, local[l] <= cut { beats.removeLast() } }
        return beats
    }
}

/// Sub-frame peak position by a parabola through three samples.
enum PeakRefine {
    static func refine(_ x: UnsafeBufferPointer<Float>, at i: Int) -> Double {
        // Snap to the largest neighbour first, so a beat one frame off its peak still refines onto it.
        var j = i
        if j > 0, x[j - 1] > x[j] { j -= 1 } else if j + 1 < x.count, x[j + 1] > x[j] { j += 1 }
        guard j > 0, j + 1 < x.count else { return Double(j) }
        let a = Double(x[j - 1]), b = Double(x[j]), c = Double(x[j + 1])
        let d = a - 2 * b + c
        guard d < 0 else { return Double(j) }
        return Double(j) + max(-0.5, min(0.5, 0.5 * (a - c) / d))
    }
}
