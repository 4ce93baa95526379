import Foundation
import MarbleCore

/// The hand-off from the capture thread to consumers: a planar stereo float ring (mono sources are
/// duplicated to both channels; the server remixes them) holding the last `seconds` (default 8 s).
///
/// The stream is continuous: its sample index is the live timeline. When no data arrives (no server,
/// reconnecting, a source that delivers nothing at start), the capture fills silence paced by the
/// monotonic clock, so consumers never stall; see ``silenceFilled``. Reads are by absolute index, so
/// any number of readers each keep their own cursor.
///
/// Everything is allocated in `init`: appending never allocates. The writer holds the lock only to
/// copy one block in; readers hold it while `read`'s body copies out, so a body must only copy.
///
/// Safety of @unchecked Sendable: every stored `var`, and the memory the ring pointers own, is read and
/// written only with `condition` locked.
public final class CaptureBuffer: @unchecked Sendable {
    /// Samples per second per channel, as given to `init`.
    public let sampleRate: Int
    /// Samples per channel held: older ones are overwritten.
    public let capacity: Int

    private let condition = NSCondition()
    private let left: UnsafeMutablePointer<Float>
    private let right: UnsafeMutablePointer<Float>
    private var total = 0
    private var silence = 0
    private var ended = false
    /// One entry per appended block: its first sample index and the monotonic time it was appended.
    private var blocks: BlockTimes

    /// A silent buffer holding the last `seconds` of stereo sound at `sampleRate`; all memory is allocated now.
    ///
    /// - Parameters:
    ///   - sampleRate: the rate of the samples that will be appended, Hz (a label for readers: the
    ///     buffer does not resample).
    ///   - seconds: how much sound is held (at least 0.1 s).
    public init(sampleRate: Int, seconds: Double = 8) {
        self.sampleRate = sampleRate
        capacity = max(1024, Int(Double(sampleRate) * max(0.1, seconds)))
        left = .allocate(capacity: capacity)
        right = .allocate(capacity: capacity)
        left.initialize(repeating: 0, count: capacity)
        right.initialize(repeating: 0, count: capacity)
        // Blocks are at least a few milliseconds (fragments of 5 ms and up, silence every tick).
        blocks = BlockTimes(capacity: max(256, Int(max(0.1, seconds) * 400)))
    }

    deinit {
        left.deallocate()
        right.deallocate()
    }

    /// Samples per channel written since start (the index of the next sample).
    public var written: Int { condition.withLock { total } }

    /// How many of the `written` samples were silence filled in for missing data (no server, a switch
    /// of source, holes in the stream).
    public var silenceFilled: Int { condition.withLock { silence } }

    /// Waits until `written > known` or `timeout` seconds pass; returns `written`. The writer never
    /// waits for this.
    public func wait(after known: Int, timeout: Double) -> Int {
        // The deadline is kept on the monotonic clock; each wait is bounded by what is left of it.
        let deadline = MonotonicClock.now() &+ UInt64(max(0, min(timeout, 1e6)) * 1e9)
        condition.lock()
        defer { condition.unlock() }
        while total <= known && !ended {
            let now = MonotonicClock.now()
            guard now < deadline else { break }
            _ = condition.wait(until: Date(timeIntervalSinceNow: Double(deadline - now) / 1e9))
        }
        return total
    }

    /// Calls `body` with the samples [from, upTo) still held, as one or two contiguous runs, oldest
    /// first (each call gets the same number of left and right samples), and returns the index of the
    /// first sample delivered: greater than `from` when older samples were already overwritten. When
    /// nothing in the range is held, `body` is not called and the result is where delivery would have
    /// started (`max(from, oldest held)`).
    ///
    /// `body` runs with the lock held: copy the samples out and return; the writer waits meanwhile.
    @discardableResult
    public func read(from: Int, upTo: Int,
                     _ body: (_ left: UnsafeBufferPointer<Float>, _ right: UnsafeBufferPointer<Float>) -> Void) -> Int {
        condition.lock()
        defer { condition.unlock() }
        let start = max(from, total - capacity, 0)
        let end = min(upTo, total)
        guard start < end else { return start }
        var index = start
        while index < end {
            let at = index % capacity
            let run = min(end - index, capacity - at)
            body(UnsafeBufferPointer(start: left + at, count: run), UnsafeBufferPointer(start: right + at, count: run))
            index += run
        }
        return start
    }

    /// The monotonic time (`MonotonicClock.now()`, ns) at which the block holding sample `index` was
    /// appended; nil when that sample is not written yet, already overwritten, or older than the block
    /// times kept.
    public func arrivalTime(ofSample index: Int) -> UInt64? {
        condition.withLock {
            guard index < total, index >= max(0, total - capacity) else { return nil }
            return blocks.time(ofSample: index)
        }
    }

    /// Whether the writer said no more samples will come (a playlist that played to its end).
    public var hasEnded: Bool { condition.withLock { ended } }

    // MARK: Writing (the capture thread)

    /// No more samples will come: wakes waiting readers, which then end with what was written.
    func end() {
        condition.withLock {
            ended = true
            condition.broadcast()
        }
    }

    /// Appends `count` samples per channel from planar buffers.
    func append(left l: UnsafePointer<Float>, right r: UnsafePointer<Float>, count: Int) {
        write(count: count, silent: false) { toLeft, toRight, offset, run in
            toLeft.update(from: l + offset, count: run)
            toRight.update(from: r + offset, count: run)
        }
    }

    /// Appends `frames` interleaved stereo float32 frames (what the stream delivers), de-interleaving.
    /// The bytes are read unaligned: libpulse makes no alignment promise about them.
    func append(interleaved bytes: UnsafeRawPointer, frames: Int) {
        write(count: frames, silent: false) { toLeft, toRight, offset, run in
            let from = bytes + offset * CaptureOptions.bytesPerFrame
            for i in 0..<run {
                toLeft[i] = from.loadUnaligned(fromByteOffset: i * 8, as: Float.self)
                toRight[i] = from.loadUnaligned(fromByteOffset: i * 8 + 4, as: Float.self)
            }
        }
    }

    /// Appends `count` samples of silence, counted in ``silenceFilled``.
    func appendSilence(count: Int) {
        write(count: count, silent: true) { toLeft, toRight, _, run in
            toLeft.update(repeating: 0, count: run)
            toRight.update(repeating: 0, count: run)
        }
    }

    /// Stores `count` samples, calling `fill(left, right, offset, run)` for each contiguous run of the
    /// rings (`left`/`right` point into them; `offset` is the run's first sample within the block),
    /// records the block's arrival time, and wakes waiting readers. Of a block longer than the ring only
    /// the last `capacity` samples are kept.
    private func write(count: Int, silent: Bool,
                       _ fill: (_ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>,
                                _ offset: Int, _ run: Int) -> Void) {
        guard count > 0 else { return }
        let now = MonotonicClock.now()
        condition.lock()
        defer { condition.unlock() }
        let skipped = max(0, count - capacity)
        var offset = skipped
        while offset < count {
            let at = (total + offset) % capacity
            let run = min(count - offset, capacity - at)
            fill(left + at, right + at, offset, run)
            offset += run
        }
        blocks.record(firstSample: total, time: now)
        total += count
        if silent { silence += count }
        condition.broadcast()
    }
}
