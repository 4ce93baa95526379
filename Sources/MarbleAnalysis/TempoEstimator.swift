import Foundation

/// Global tempo from an onset envelope: autocorrelation scored by a comb of the beat period's
/// multiples, minus the pulses found between them (at half or third periods; so a click track at
/// 180 BPM is not heard at 90, nor eighth notes at 120 BPM as 80), under a broad log-normal prior
/// centred on 120 BPM; then the octave check (T/2 instead of T when, in the kick's band, the pulses
/// halfway between T's beats are at least 0.6 of its beats: fast music with a kick on every beat), then
/// refined to a fraction of a lag.
///
/// Works in caller-provided scratch (no allocation), so the live tracker can re-run it every half second.
struct TempoEstimator {
    /// The octave check's threshold: a reading is doubled when the pulses halfway between its beats
    /// are at least this fraction of its beats' in the lowest band group (see ``estimate(autocorrelation:low:lags:)``).
    static let octaveRatio = 0.6
    let rate: Double
    let minBPM: Double, maxBPM: Double
    /// Lag range searched, in ODF frames.
    var minLag: Double { 60 * rate / maxBPM }
    var maxLag: Double { 60 * rate / minBPM }
    /// Autocorrelation lags needed (four periods of the slowest tempo).
    var lagsNeeded: Int { Int(4 * maxLag) + 3 }

    struct Estimate: Equatable {
        /// Beat period in ODF frames (fractional).
        var period: Double
        /// Tempo in BPM.
        var bpm: Double
        /// Comb score relative to the envelope's variance (0 = no periodicity).
        var confidence: Double
    }

    /// - Parameters:
    ///   - data: `channels` envelopes of `n` values each (oldest first), channel `c` at `data + c · stride`.
    ///     The autocorrelation is summed over channels.
    ///   - scratch: at least `channels · n + 2 · (lagsNeeded + 1)` floats.
    func estimate(_ data: UnsafePointer<Float>, count n: Int, channels: Int = 1, stride: Int = 0,
                  scratch: UnsafeMutablePointer<Float>) -> Estimate? {
        guard n >= minimumCount, channels >= 1 else { return nil }
        let ac = scratch + channels * n, low = ac + lagsNeeded + 1
        let lags = autocorrelation(data, count: n, channels: channels, stride: stride, scratch: scratch, into: ac, low: low)
        return estimate(autocorrelation: ac, low: low, lags: lags)
    }

    /// Envelope values needed for an estimate (two periods of the slowest tempo).
    var minimumCount: Int { Int(2 * maxLag) + 4 }

    /// The mean-removed autocorrelation of `n` values per channel, summed over channels, at lags
    /// 0…`min(lagsNeeded, n − 1)` (the returned last lag), each normalised by its number of products.
    /// `scratch`: at least `channels · n` floats. `low` receives channel 0's own autocorrelation at
    /// the same lags: the lowest band group, where the kick drum is (for the octave check in
    /// ``estimate(autocorrelation:low:lags:)``).
    func autocorrelation(_ data: UnsafePointer<Float>, count n: Int, channels: Int, stride: Int,
                         scratch: UnsafeMutablePointer<Float>, into ac: UnsafeMutablePointer<Float>,
                         low: UnsafeMutablePointer<Float>) -> Int {
        let x = scratch
        let lags = min(lagsNeeded, n - 1)
        guard lags >= 0 else { return lags }
        for l in 0...lags { ac[l] = 0 }
        for c in 0..<channels {
            let src = data + c * stride, dst = x + c * n
            var mean: Float = 0
            for i in 0..<n { mean += src[i] }
            mean /= Float(n)
            for i in 0..<n { dst[i] = src[i] - mean }
            for l in 0...lags {
                ac[l] += FastMath.dot(dst + l, dst, count: n - l) / Float(n - l)
            }
            if c == 0 { low.update(from: ac, count: lags + 1) }
        }
        return lags
    }

    /// The tempo from an autocorrelation at lags 0…`lags` and the lowest band group's own, `low` (see
    /// ``autocorrelation(_:count:channels:stride:scratch:into:low:)``).
    func estimate(autocorrelation ac: UnsafePointer<Float>, low: UnsafePointer<Float>, lags: Int) -> Estimate? {
        guard lags >= 0 else { return nil }
        let zero = ac[0]
        guard zero > 1e-9 else { return nil }
        let comb = Comb(ac: ac, low: low, lags: lags, rate: rate)
        let found = search(comb)
        guard found.period > 0, found.raw > 0 else { return nil }
        let reading = octaveChecked(found, comb)
        let period = refined(reading.period, ac: ac, lags: lags)
        return Estimate(period: period, bpm: 60 * rate / period, confidence: reading.raw / Double(zero))
    }

    /// A candidate beat period (ODF frames) and its comb score before the prior.
    struct Reading { var period: Double, raw: Double }

    /// The comb over an autocorrelation: its value near a lag, and a candidate period's score.
    struct Comb {
        let ac: UnsafePointer<Float>, low: UnsafePointer<Float>
        let lags: Int
        let rate: Double

        /// The largest value within one lag of t: onset peaks are one or two frames wide and a beat
        /// period is rarely a whole number of frames, so a multiple's peak may sit on either neighbour
        /// of the nearest lag (``refined(_:ac:lags:)`` recovers the fraction).
        @inline(__always) func at(_ t: Double, in ac: UnsafePointer<Float>) -> Double {
            let i = Int(t.rounded())
            guard i >= 2, i + 1 <= lags else { return 0 }
            return Double(max(ac[i - 1], ac[i], ac[i + 1]))
        }

        @inline(__always) func at(_ t: Double) -> Double { at(t, in: ac) }

        /// The score of period `t` under the prior, and without it (raw).
        func score(_ t: Double) -> (Double, Double) {
            var hit = 0.0, half = 0.0, third = 0.0, terms = 0.0
            for k in 1...4 {
                let p = Double(k) * t
                if p + 2 > Double(lags) { break }
                hit += at(p)
                half += at(p - 0.5 * t)
                third += 0.5 * (at(p - t / 3) + at(p - 2 * t / 3))
                terms += 1
            }
            guard terms > 0 else { return (-.infinity, 0) }
            // Pulses between the candidate beats (at halves or thirds) count against it: the beat is the
            // level whose pulses outweigh what lies between them. Checking both subdivisions keeps a
            // 120 BPM song with eighth notes from reading as 80 BPM (3 eighths), and a 180 BPM click
            // track from reading as 90.
            let raw = (hit - 0.2 * max(half, third)) / terms
            let bpm = 60 * rate / t
            let z = log2(bpm / 120)
            return (raw * exp(-0.5 * z * z), raw)
        }

        /// Whether the pulses halfway between period `t`'s beats are at least ``octaveRatio`` of its beats:
        /// in the lowest band group, or in all bands when the low one holds under a quarter of the comb's
        /// periodicity (see ``octaveChecked(_:_:)``).
        func pulsesBetweenMatchBeats(period t: Double) -> Bool {
            var on = 0.0, between = 0.0, lowOn = 0.0, lowBetween = 0.0
            for k in 1...4 {
                let p = Double(k) * t
                if p + 2 > Double(lags) { break }
                on += at(p)
                between += at(p - 0.5 * t)
                lowOn += at(p, in: low)
                lowBetween += at(p - 0.5 * t, in: low)
            }
            let useLow = lowOn >= 0.25 * on
            let (b, m) = useLow ? (lowOn, lowBetween) : (on, between)
            return b > 0 && m >= TempoEstimator.octaveRatio * b
        }
    }

    /// Coarse search in 0.1-lag steps (the comb reads ±1 lag around each multiple, so nothing falls
    /// between steps), then 0.01-lag steps around the winner.
    func search(_ comb: Comb) -> Reading {
        var best = -Double.infinity, bestT = 0.0, bestRaw = 0.0
        var t = minLag
        while t <= maxLag {
            let (s, raw) = comb.score(t)
            if s > best { best = s; bestT = t; bestRaw = raw }
            t += 0.1
        }
        let centre = bestT
        t = max(minLag, centre - 0.1)
        while t <= min(maxLag, centre + 0.1) {
            let (s, raw) = comb.score(t)
            if s > best { best = s; bestT = t; bestRaw = raw }
            t += 0.01
        }
        return Reading(period: bestT, raw: bestRaw)
    }

    /// The octave check. Which metrical level is "the beat" is decided by ``search(_:)`` by small margins: fast
    /// music with a kick on every beat and a loud snare on 2 and 4 (drum and bass, hardcore, fast
    /// punk) repeats exactly only every two beats, so the comb at twice the period collects the
    /// snares on all its teeth and pays only 0.2 of the kicks between them, and the prior (centred on
    /// 120) prefers 100 BPM to 200 and 90 to 180. It reads at half speed, its kicks on 1 and 3 taken
    /// for the beats and those on 2 and 4 for off-beats.
    ///
    /// What tells the two apart is the kick, in the lowest band group (40–130 Hz): compare its
    /// pulses halfway between the candidate's beats with those on the beats. Read at half speed,
    /// fast music's in-between pulses there ARE kicks, like the kicks on the beats: the ratio is near
    /// 1, and stays above 0.6 with a loud snare (whose low end and coincidence with the kick add to
    /// one side only; 0.62–0.77 for the test tracks at 150–200 BPM). A song at the slower tempo with
    /// eighth notes between its beats has hats, a shaker or a quieter bass note there, far weaker than
    /// its kicks in the low band: 0.19–0.46 for the test grooves at 96–138 BPM (eighth-note hats and
    /// an off-beat bass note). So: while the half period is in range and the low band's in-between
    /// pulses are at least `octaveRatio` (0.6) of its beats, the faster reading is taken. The low band
    /// alone, not all bands summed: a loud snare on 2 and 4 adds to the slower reading's beats in the
    /// middle bands, which would hide the kicks' equality (the summed ratio is 0.42–0.62 there).
    /// When the low band holds little of the periodicity (under a quarter of the comb's, as with no
    /// bass drum), all bands are used instead.
    ///
    /// Limits: a song whose eighth notes are as strong as its beats in the low band (straight-eighth
    /// bass or double-kick drumming under a slower beat) reads at the eighth-note rate; octave
    /// relations only (a 3:2 confusion, a dotted rhythm read as the beat, is not corrected); and
    /// never beyond the configured range (with the default 60–200 BPM, only readings of 60–100 BPM
    /// can double).
    func octaveChecked(_ reading: Reading, _ comb: Comb) -> Reading {
        var best = reading
        // (Half a lag of slack: a tempo at the range's top edge reads a hair slow.)
        while best.period / 2 >= minLag - 0.5, comb.pulsesBetweenMatchBeats(period: best.period) {
            // The faster reading, searched finely around the half period as in ``search(_:)``.
            let centre = best.period / 2
            var fine = -Double.infinity, fineT = centre, fineRaw = comb.score(centre).1
            var t = max(minLag, centre - 0.1)
            while t <= min(maxLag, centre + 0.1) {
                let (s, raw) = comb.score(t)
                if s > fine, raw > 0 { fine = s; fineT = t; fineRaw = raw }
                t += 0.01
            }
            guard fineRaw > 0 else { break }   // (no periodicity of its own there: keep the slower reading)
            best = Reading(period: fineT, raw: fineRaw)
        }
        return best
    }

    /// Refine: locate each multiple's autocorrelation peak to a fraction of a lag (parabola through
    /// the three lags around it) and fit `peak_k = k · T` by least squares, weighted by peak height.
    /// The comb alone snaps towards periods whose multiples sit on whole lags.
    func refined(_ period: Double, ac: UnsafePointer<Float>, lags: Int) -> Double {
        var num = 0.0, den = 0.0
        for k in 1...4 {
            let centre = Double(k) * period
            let lo = max(1, Int((centre - 1.5).rounded(.down))), hi = min(lags - 1, Int((centre + 1.5).rounded(.up)))
            guard lo < hi else { break }
            var arg = lo
            for l in lo...hi where ac[l] > ac[arg] { arg = l }
            guard arg > lo, arg < hi, ac[arg] > 0 else { continue }
            let a = Double(ac[arg - 1]), b = Double(ac[arg]), c = Double(ac[arg + 1])
            let d = a - 2 * b + c
            let peak = Double(arg) + (d < 0 ? max(-0.5, min(0.5, 0.5 * (a - c) / d)) : 0)
            let w = b * Double(k)
            num += w * peak
            den += w * Double(k)
        }
        guard den > 0 else { return period }
        let refined = num / den
        return abs(refined / period - 1) < 0.03 ? refined : period
    }
}
