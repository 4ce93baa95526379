import Foundation

/// Carries decoded samples from the audio thread to the frame loop's analyser: a bounded planar ring
/// (allocated once) behind a lock. The audio thread never waits on the frame loop: if the ring is full
/// (the frame loop stalled for seconds) it starts over, as after a seek.
///
/// Safety of @unchecked Sendable: every stored property, and the memory the ring pointers own, is
/// read and written only with `lock` held.
final class SampleHandoff: @unchecked Sendable {
    private let lock = NSLock()
    private let capacity: Int
    private let left: UnsafeMutablePointer<Float>
    private let right: UnsafeMutablePointer<Float>
    private let stereo: Bool
    private var head = 0
    private var count = 0
    private var generation = 0
    private var baseSample = 0

    /// - Parameters:
    ///   - seconds: how much audio the ring holds.
    ///   - stereo: whether the right channel is carried (else the analyser gets mono).
    init(sampleRate: Int, stereo: Bool, seconds: Double = 4) {
        capacity = max(4096, Int(Double(sampleRate) * seconds))
        left = .allocate(capacity: capacity)
        right = .allocate(capacity: capacity)
        self.stereo = stereo
    }

    deinit {
        left.deallocate()
        right.deallocate()
    }

    /// Starts a new sample stream (after a seek) whose first sample has index `base`.
    func reset(base: Int) {
        lock.lock()
        defer { lock.unlock() }
        generation &+= 1
        baseSample = base
        head = 0
        count = 0
    }

    /// Appends a block whose first sample has index `start` (audio thread).
    func push(_ l: UnsafeBufferPointer<Float>, _ r: UnsafeBufferPointer<Float>?, start: Int) {
        lock.lock()
        defer { lock.unlock() }
        if count + l.count > capacity {
            // The reader fell far behind: start over from this block.
            generation &+= 1
            baseSample = start
            head = 0
            count = 0
        }
        let n = min(l.count, capacity)
        for i in 0..<n {
            let at = (head + count + i) % capacity
            left[at] = l[i]
            right[at] = r?[i] ?? l[i]
        }
        count += n
    }

    /// Hands everything buffered to `append`, oldest first (frame loop). When the stream was reset
    /// since the last call (`generation` differs), `reset` is called first with the new stream's
    /// first sample index, and `generation` is updated. `reset` runs without the lock held (it may be
    /// slow, and the audio thread must not wait for it); if the stream is reset again meanwhile, the
    /// samples are left for the next call.
    func drain(generation known: inout Int, reset onReset: (_ base: Int) -> Void,
               append: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>?) -> Void) {
        lock.lock()
        let current = generation, base = baseSample
        lock.unlock()
        if known != current {
            known = current
            onReset(base)
        }
        lock.lock()
        defer { lock.unlock() }
        guard generation == known else { return }
        while count > 0 {
            let run = min(count, capacity - head)
            append(UnsafeBufferPointer(start: left + head, count: run),
                   stereo ? UnsafeBufferPointer(start: right + head, count: run) : nil)
            head = (head + run) % capacity
            count -= run
        }
        head = 0
    }
}
