import Foundation

/// Causal beat tracking for live input.
///
/// Every 250 ms the tempo is re-estimated (``TempoEstimator``) over the last 6 s of the onset
/// envelope; a new tempo replaces the current one only when two estimates in a row agree (or it is
/// within 4 %, then it is blended in). Every hop, a comb over the last four periods finds where the
/// most recent beat was; a phase-locked loop pulls the running beat clock towards it. Beats are
/// *predicted* one period ahead and emitted when the caller's frame clock reaches them, so once locked
/// a beat lands in its own video frame, not after it.
///
/// Latency, documented bounds: the first tempo needs ≥ 2.5 s of envelope (more for slow tempi:
/// two periods plus 0.5 s), lock usually follows within two beats after that; a tempo change is
/// followed within about 0.5–1 s. Allocation-free after init.
final class LiveBeatTracker {
    let rate: Double
    private let estimator: TempoEstimator
    private static let size = 1024
    private let history: UnsafeMutablePointer<Float>
    /// Band-group envelopes, `groupCount` per value, same ring indexing.
    private let groupHistory: UnsafeMutablePointer<Float>
    private let linear: UnsafeMutablePointer<Float>
    private let scratch: UnsafeMutablePointer<Float>
    private let window: Int
    private var count = 0
    private var pending: Double = 0
    private var activity: Float = 0

    /// Beat period in ODF frames (0 = no tempo).
    private(set) var period: Double = 0
    /// Position (ODF frames) of the last emitted beat, or nil.
    private(set) var lastBeat: Double?
    private var nextBeat: Double = 0
    private var lastEmitted: Double?
    private var disagreement = 0

    init(rate: Double, minBPM: Double, maxBPM: Double) {
        self.rate = rate
        estimator = TempoEstimator(rate: rate, minBPM: minBPM, maxBPM: maxBPM)
        window = min(Self.size, max(Int(6 * rate), Int(2 * estimator.maxLag) + 8))
        history = .allocate(capacity: Self.size)
        history.initialize(repeating: 0, count: Self.size)
        let gc = OnsetDetector.groupCount
        groupHistory = .allocate(capacity: Self.size * gc)
        groupHistory.initialize(repeating: 0, count: Self.size * gc)
        linear = .allocate(capacity: Self.size * gc)
        scratch = .allocate(capacity: Self.size * gc + 2 * (estimator.lagsNeeded + 1))
    }

    deinit { history.deallocate(); groupHistory.deallocate(); linear.deallocate(); scratch.deallocate() }

    @inline(__always) private func value(_ i: Int) -> Float {
        (i < 0 || i < count - Self.size || i >= count) ? 0 : history[i & (Self.size - 1)]
    }

    /// Feeds ODF value number `count` and updates tempo and phase. Beats are taken with
    /// ``upcomingBeat`` / ``emitUpcoming()`` when the caller's clock reaches them (they are predicted,
    /// so the caller can emit one before its ODF peak has even arrived).
    func push(_ v: Float, groups: UnsafePointer<Float>) {
        history[count & (Self.size - 1)] = v
        let gc = OnsetDetector.groupCount
        for g in 0..<gc { groupHistory[(count & (Self.size - 1)) * gc + g] = groups[g] }
        count += 1
        activity = max(v, activity * 0.99)   // fades within ~3 s of silence
        let t = Double(count - 1)
        if count % 25 == 0 { reestimate() }
        guard period > 0, activity > 0.05 else { return }
        // Where was the most recent beat? Comb over the last four periods.
        let p = Int(period.rounded())
        var best: Float = -1, phi = 0
        for f in 0..<p {
            var s: Float = 0
            var w: Float = 1
            for k in 0..<4 {
                s += w * value(count - 1 - f - Int((Double(k) * period).rounded()))
                w -= 0.2
            }
            if s > best { best = s; phi = f }
        }
        let recent = t - Double(phi)
        if let last = lastBeat {
            var d = (recent - last).truncatingRemainder(dividingBy: period)
            if d > period / 2 { d -= period } else if d < -period / 2 { d += period }
            if abs(d) < 0.3 * period {
                lastBeat = last + 0.1 * d
                nextBeat += 0.1 * d
                disagreement = 0
            } else {
                disagreement += 1
                if Double(disagreement) > 2 * period { lock(recent: recent, now: t) }
            }
        } else {
            lock(recent: recent, now: t)
        }
    }

    /// The next predicted beat (fractional ODF position), when tracking.
    var upcomingBeat: Double? { period > 0 && activity > 0.05 && lastBeat != nil ? nextBeat : nil }

    /// Marks the upcoming beat as due and schedules the one after it. Returns false when it comes
    /// less than half a period after the previously emitted beat (a phase jump), which is then skipped.
    func emitUpcoming() -> Bool {
        let beat = nextBeat
        lastBeat = beat
        nextBeat += period
        if let e = lastEmitted, beat - e < 0.5 * period { return false }
        lastEmitted = beat
        return true
    }

    private func lock(recent: Double, now: Double) {
        lastBeat = recent
        nextBeat = recent + period
        while nextBeat < now { nextBeat += period }
        disagreement = 0
    }

    private func reestimate() {
        let n = min(count, window)
        let gc = OnsetDetector.groupCount
        for i in 0..<n {
            let r = ((count - n + i) & (Self.size - 1)) * gc
            for g in 0..<gc { linear[g * n + i] = groupHistory[r + g] }
        }
        guard let e = estimator.estimate(linear, count: n, channels: gc, stride: n, scratch: scratch),
              e.confidence > 0.05 else {
            if activity <= 0.05 { period = 0; lastBeat = nil; pending = 0 }
            return
        }
        if period == 0 {
            if pending > 0, abs(e.period / pending - 1) < 0.04 { period = e.period; lastBeat = nil }
            pending = e.period
        } else if abs(e.period / period - 1) < 0.04 {
            period = 0.7 * period + 0.3 * e.period
            pending = 0
        } else if pending > 0, abs(e.period / pending - 1) < 0.04 {
            period = e.period
            pending = 0
        } else {
            pending = e.period
        }
    }
}
