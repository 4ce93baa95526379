import Synchronization
import MarbleCore
import MarbleMedia

/// The player's master clock: what the listener hears now, from what the audio thread wrote.
///
/// The audio thread publishes a ``Reading`` after every write (and every few milliseconds while
/// paused): how many samples it has written since the last seek, and the latency the device reported
/// just then. The heard position is
///
///     base + written / rate − latency + (time since the reading)
///
/// clamped to what was written (a device never plays what it was not given: during a pause the
/// buffer drains and the clock stops at the last written sample). The frame loop reads it lock-cheaply
/// every frame; nothing here goes through the store.
final class AudioClock: Sendable {
    struct Reading: Sendable, Equatable {
        /// Increases at every seek (and resets of the sample stream).
        var generation = 0
        /// Sample index, from the media start, of the first sample written since the last seek.
        var baseSample = 0
        /// Samples written to the device since the last seek.
        var written = 0
        /// Device latency (buffer + sink) at `stamp`, seconds.
        var latency = 0.0
        /// When `latency` was measured (nanoseconds on the session's ``RealTimePacer``).
        var stamp: UInt64 = 0
        /// Everything up to the end of the media has been heard.
        var ended = false
    }

    let sampleRate: Int
    /// The session's clock: readings are stamped with it and positions measured on it.
    let pacer: RealTimePacer
    private let state = Mutex(Reading())

    init(sampleRate: Int, pacer: RealTimePacer = .system()) {
        self.sampleRate = sampleRate
        self.pacer = pacer
    }

    func publish(_ reading: Reading) { state.withLock { $0 = reading } }

    var reading: Reading { state.withLock { $0 } }

    /// Seconds from the media start that are being heard now, for `reading`.
    func position(of reading: Reading) -> Double { position(of: reading, at: pacer.now) }

    /// Seconds from the media start that are being heard at `now` (pacer nanoseconds), for `reading`.
    func position(of reading: Reading, at now: UInt64) -> Double {
        let rate = Double(sampleRate)
        let start = Double(reading.baseSample) / rate
        let end = Double(reading.baseSample + reading.written) / rate
        let elapsed = now > reading.stamp ? Double(now - reading.stamp) * 1e-9 : 0
        let heard = end - reading.latency + elapsed
        return min(end, max(start, heard))
    }
}
