import Foundation
import Synchronization
import MarbleCore

/// One sink on a thread of its own, fed through a short queue: the pipeline's fan-out, so a slow
/// output (a stalled network, a window waiting for vsync) never holds up the others.
///
/// Offline (and buffered real time) the distributor waits for a full queue, so every sink sees every
/// frame. In real time it does not: a sink whose queue is full misses that frame (counted in
/// ``dropped``); a display sink (``FrameSink/showsLatestOnly``) also skips a frame when a newer one is
/// already waiting, so what it shows is never older than it must be. A slot goes back to the pool once
/// the last sink holding it is done (``FrameSlot/holders``).
///
/// Safety of @unchecked Sendable: `sink` is used by the worker's thread only, between `start` and the
/// join in `stop` (then by the pipeline's thread for `finish`/`abort`); the counters are atomics.
final class SinkWorker: @unchecked Sendable {
    let sink: any FrameSink
    private let queue: BoundedQueue<FrameSlot>
    private let done = DispatchSemaphore(value: 0)
    private let consumedCount = Atomic<Int>(0)
    private let droppedCount = Atomic<Int>(0)
    private let busyNanoseconds = Atomic<UInt64>(0)
    private var started = false
    /// Set when the pipeline stops after an error: queued frames are given back unseen.
    private let abandoned = Atomic<Bool>(false)

    init(sink: any FrameSink, capacity: Int) {
        self.sink = sink
        queue = BoundedQueue(capacity: capacity)
    }

    /// Frames the sink took, and frames it missed because it was behind.
    var consumed: Int { consumedCount.load(ordering: .relaxed) }
    var dropped: Int { droppedCount.load(ordering: .relaxed) }
    var busyMilliseconds: Double { Double(busyNanoseconds.load(ordering: .relaxed)) / 1e6 }

    /// Starts the thread. `release` gives a slot back (when no other sink holds it); `fail` records an
    /// error and stops the pipeline.
    func start(release: @escaping @Sendable (FrameSlot) -> Void, fail: @escaping @Sendable (MarbleError) -> Void) {
        started = true
        Thread.detachNewThread { [self] in
            while let slot = queue.pop() {
                if abandoned.load(ordering: .relaxed) {
                    release(slot)
                    continue
                }
                if sink.showsLatestOnly, queue.waiting > 0 {
                    droppedCount.add(1, ordering: .relaxed)
                    release(slot)
                    continue
                }
                let start = MonotonicClock.now()
                do throws(MarbleError) {
                    try sink.consume(slot)
                } catch {
                    release(slot)
                    fail(error)
                    break
                }
                busyNanoseconds.add(MonotonicClock.now() &- start, ordering: .relaxed)
                consumedCount.add(1, ordering: .relaxed)
                release(slot)
            }
            // After a failure: give back whatever is still queued.
            while let slot = queue.tryPop() { release(slot) }
            done.signal()
        }
    }

    /// Hands a frame to the sink: waits for room when `wait`, else drops it if the queue is full.
    /// Returns false when the frame was not queued (the caller releases it).
    func offer(_ slot: FrameSlot, wait: Bool) -> Bool {
        if wait { return queue.push(slot) }
        if queue.tryPush(slot) { return true }
        if !queue.isClosed { droppedCount.add(1, ordering: .relaxed) }
        return false
    }

    /// Lets the sink finish what is queued, then waits for its thread (`drain` false: stops at once).
    func stop(drain: Bool) {
        if !drain { abandoned.store(true, ordering: .relaxed) }
        queue.close()
        if started { done.wait(); started = false }
    }
}
