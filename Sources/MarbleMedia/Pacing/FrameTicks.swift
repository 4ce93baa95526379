import MarbleCore

/// The frame clock of a source played in real time: frame n is due at `start + n / fps`, exactly
/// (times in ``RealTimePacer`` nanoseconds). A plain value, owned by the source's thread; the pacer
/// does the waiting.
///
/// Rule: when the source asks at `now`, the frame drawn is the newest one due; the due frames it passes
/// over are late (counted and dropped, not drawn late).
package struct FrameTicks: Sendable, Equatable {
    package let fps: Rational
    /// When frame 0 was due.
    package let start: UInt64
    /// The last frame handed out (-1 before the first).
    package private(set) var tick = -1

    package init(fps: Rational, start: UInt64) {
        self.fps = fps
        self.start = start
    }

    /// When frame `n` is due (rounded up to the nanosecond).
    package func due(_ n: Int) -> UInt64 {
        start &+ UInt64((Double(n) * Double(fps.denominator) * 1e9 / Double(fps.numerator)).rounded(.up))
    }

    /// When the next frame is due.
    package var nextDue: UInt64 { due(tick + 1) }

    /// Moves to the newest frame due at `now` (at least the next one: call it once that one is due),
    /// returning it and how many due frames were passed over.
    package mutating func advance(now: UInt64) -> (index: Int, late: Int) {
        var index = tick + 1
        // The newest frame due: a guess from the elapsed time, corrected for rounding.
        if now > start {
            let guess = Int(Double(now - start) * Double(fps.numerator) / (Double(fps.denominator) * 1e9))
            index = max(index, guess)
        }
        while index > tick + 1 && due(index) > now { index -= 1 }
        while due(index + 1) <= now { index += 1 }
        let late = index - tick - 1
        tick = index
        return (index, late)
    }
}
