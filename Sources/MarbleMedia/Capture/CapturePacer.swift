/// Keeps a capture's timeline in step with wall time: decides how much silence to fill in when the
/// stream delivers nothing, and how much of a block to drop when the timeline runs too far ahead.
/// A plain value (times are monotonic nanoseconds passed in), owned by the capture thread.
///
/// Rules:
/// - Filler: when nothing arrived for longer than `gap` (max(3 fragments, 50 ms)), the timeline gets
///   silence for the whole time since the last data (elapsed × rate), topped up at each tick. A tick
///   that comes late (more than two fragments after the previous one: the loop's thread was held up)
///   fills nothing, once: libpulse runs due timers before reading sockets, so data that waited with it
///   is read just after, and would otherwise find its time already filled with silence.
/// - Resume: a block arriving after such a gap, or after a discontinuity the capture announced (a
///   switch of source, a reconnect), is preceded by silence for the part of the gap not yet filled
///   (the gap minus the block's own length), so the timeline has no hole.
/// - Drift bound: the timeline never runs more than `aheadLimit` (250 ms) ahead of wall time since
///   start; the oldest samples of an arriving block are dropped to stay within it.
struct CapturePacer {
    let sampleRate: Int
    /// Nanoseconds without data after which silence is filled in.
    let gap: UInt64
    /// Samples the timeline may run ahead of wall time.
    let aheadLimit: Int
    /// When the timeline's sample 0 was due.
    let start: UInt64
    /// Samples per channel given to the buffer so far (the timeline's length).
    private(set) var written = 0
    /// Nanoseconds between ticks, as scheduled.
    private let tickInterval: UInt64
    private var lastTick: UInt64
    private var skippedLateTick = false
    private var lastData: UInt64
    private var filledSinceData = 0
    private var discontinuity = false

    init(sampleRate: Int, fragmentSeconds: Double, start: UInt64) {
        self.sampleRate = sampleRate
        gap = UInt64(max(3 * fragmentSeconds, 0.05) * 1e9)
        aheadLimit = sampleRate / 4
        self.start = start
        tickInterval = UInt64(fragmentSeconds * 1e9)
        lastTick = start
        lastData = start
    }

    /// What to do with an arriving block.
    struct Admission: Equatable {
        /// Silence to append before the block.
        var silence: Int
        /// Samples to drop from the block's start (the oldest).
        var drop: Int
    }

    /// Silence the timer, ticking every fragment, should append now (0 while data flows).
    mutating func silenceDue(at now: UInt64) -> Int {
        let late = now > lastTick && now - lastTick > 2 * tickInterval
        lastTick = now
        if late, !skippedLateTick {
            skippedLateTick = true
            return 0
        }
        skippedLateTick = false
        guard now > lastData, now - lastData > gap else { return 0 }
        let due = samples(in: now - lastData) - filledSinceData
        guard due > 0 else { return 0 }
        filledSinceData += due
        written += due
        return due
    }

    /// Admits a block of `frames` samples arriving at `now`.
    mutating func admit(frames: Int, at now: UInt64) -> Admission {
        var silence = 0
        let quiet = now > lastData ? now - lastData : 0
        if discontinuity || filledSinceData > 0 || quiet > gap {
            silence = max(0, samples(in: quiet) - frames - filledSinceData)
        }
        let wall = samples(in: now > start ? now - start : 0)
        var ahead = written + silence + frames - wall
        if ahead > aheadLimit {
            let cut = min(silence, ahead - aheadLimit)
            silence -= cut
            ahead -= cut
        }
        let drop = ahead > aheadLimit ? min(frames, ahead - aheadLimit) : 0
        written += silence + frames - drop
        lastData = now
        filledSinceData = 0
        discontinuity = false
        return Admission(silence: silence, drop: drop)
    }

    /// The stream was replaced (switch of source, reconnect): the next block closes the gap even when
    /// it was shorter than the filler's threshold.
    mutating func markDiscontinuity() { discontinuity = true }

    private func samples(in nanoseconds: UInt64) -> Int {
        Int(Double(nanoseconds) * Double(sampleRate) / 1e9)
    }
}
