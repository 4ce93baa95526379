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
/// The sink's whole life runs on the worker's thread: its frames, then its `finish` or `abort` once the
/// queue is closed (``end(_:)``). So the pipeline never calls into a sink that does not return (a
/// window on a frozen X server, a write to a hung mount): ``waitForEnd()`` gives up on a thread whose
/// current call has lasted longer than the sink's ``FrameSink/stallLimit`` and the sink is abandoned.
/// A sink that throws is aborted on its thread at once (its partial file removed) and takes no more
/// frames; ``failure`` keeps the error. The thread blocks SIGPIPE: a sink's broken connection (a
/// window whose X server died) is that sink's error, never a stop request (``StopSignals``).
///
/// Safety of @unchecked Sendable: `sink` is used by the worker's thread only, after `start`; `failure`
/// is written by that thread before it signals `done` and read by the pipeline's thread after it waited
/// for `done` (``waitForEnd()`` returned true); `started` and `isAbandoned` only by the pipeline's
/// thread; the rest are atomics or under a lock.
final class SinkWorker: @unchecked Sendable {
    /// How the sink ends once its queue is drained.
    enum Ending: Sendable {
        /// `finish(stopped:)`: the output made final.
        case finish(stopped: Bool)
        /// `abort()`: nothing half-written left behind.
        case abort
    }

    /// How the distributor hands a frame over when the queue is full.
    enum Offer {
        /// Drop it (real time beside other sinks).
        case dropWhenFull
        /// Wait for room (offline: every frame, whatever it takes).
        case wait
        /// Wait for room unless the sink's current call has lasted longer than its stall limit: then
        /// drop it, so a real-time source keeps its clock (and `--duration` its end) past a stalled sink.
        case waitUnlessStalled
    }

    let sink: any FrameSink
    private let queue: BoundedQueue<FrameSlot>
    private let done = DispatchSemaphore(value: 0)
    private let consumedCount = Atomic<Int>(0)
    private let droppedCount = Atomic<Int>(0)
    private let busyNanoseconds = Atomic<UInt64>(0)
    /// When the sink's current call began (``MonotonicClock``), 0 between calls.
    private let callStarted = Atomic<UInt64>(0)
    /// Set when the pipeline stops after an error: queued frames are given back unseen.
    private let abandoned = Atomic<Bool>(false)
    /// Set once the sink failed: it was aborted and takes no more frames.
    private let closed = Atomic<Bool>(false)
    private let ending = Mutex<Ending>(.abort)
    private let stallNanoseconds: UInt64
    private var started = false
    /// The sink's error (a frame or its `finish`), once ``waitForEnd()`` returned true.
    private(set) var failure: MarbleError?
    /// True once ``waitForEnd()`` gave up on the thread.
    private(set) var isAbandoned = false

    init(sink: any FrameSink, capacity: Int) {
        self.sink = sink
        queue = BoundedQueue(capacity: capacity)
        stallNanoseconds = UInt64(max(0.1, sink.stallLimit) * 1e9)
    }

    /// Frames the sink took, and frames it missed because it was behind.
    var consumed: Int { consumedCount.load(ordering: .relaxed) }
    var dropped: Int { droppedCount.load(ordering: .relaxed) }
    var busyMilliseconds: Double { Double(busyNanoseconds.load(ordering: .relaxed)) / 1e6 }
    /// Whether the sink failed (and was closed).
    var hasFailed: Bool { closed.load(ordering: .relaxed) }

    /// Whether the sink's current call has lasted longer than its stall limit.
    var isStalled: Bool {
        let since = callStarted.load(ordering: .relaxed)
        return since != 0 && MonotonicClock.now() &- since > stallNanoseconds
    }

    /// Starts the thread. `release` gives a slot back (when no other sink holds it); `fail` is told of
    /// the sink's error, once, after the sink was aborted.
    func start(release: @escaping @Sendable (FrameSlot) -> Void, fail: @escaping @Sendable (MarbleError) -> Void) {
        started = true
        Thread.detachNewThread { [self] in
            StopSignals.blockBrokenPipeOnThisThread()
            FrameTrace.nameThread("sink")
            while true {
                let wait = FrameTrace.begin()
                guard let slot = queue.pop() else { break }
                FrameTrace.end(.waitSinkFrame, wait, frame: slot.index)
                if abandoned.load(ordering: .relaxed) || closed.load(ordering: .relaxed) {
                    release(slot)
                    continue
                }
                if sink.showsLatestOnly, queue.waiting > 0 {
                    droppedCount.add(1, ordering: .relaxed)
                    release(slot)
                    continue
                }
                let start = MonotonicClock.now()
                callStarted.store(start, ordering: .relaxed)
                do throws(MarbleError) {
                    try sink.consume(slot)
                } catch {
                    callStarted.store(0, ordering: .relaxed)
                    release(slot)
                    close(after: error)
                    fail(error)
                    continue   // gives back what still comes until the queue is closed
                }
                callStarted.store(0, ordering: .relaxed)
                busyNanoseconds.add(MonotonicClock.now() &- start, ordering: .relaxed)
                consumedCount.add(1, ordering: .relaxed)
                release(slot)
            }
            if !closed.load(ordering: .relaxed) { endSink() }
            done.signal()
        }
    }

    /// Aborts the sink after its error (on the worker's thread): its output removed, no more frames.
    private func close(after error: MarbleError) {
        failure = error
        closed.store(true, ordering: .relaxed)
        callStarted.store(MonotonicClock.now(), ordering: .relaxed)
        sink.abort()
        callStarted.store(0, ordering: .relaxed)
    }

    /// Finishes or aborts the sink, as ``end(_:)`` said (on the worker's thread).
    private func endSink() {
        let how = ending.withLock { $0 }
        callStarted.store(MonotonicClock.now(), ordering: .relaxed)
        defer { callStarted.store(0, ordering: .relaxed) }
        switch how {
        case .finish(let stopped):
            do throws(MarbleError) { try sink.finish(stopped: stopped) } catch {
                failure = error
                closed.store(true, ordering: .relaxed)
            }
        case .abort:
            sink.abort()
        }
    }

    /// Hands a frame to the sink as `how` says. Returns false when the frame was not queued (the caller
    /// releases it): dropped, or the sink failed.
    func offer(_ slot: FrameSlot, _ how: Offer) -> Bool {
        if closed.load(ordering: .relaxed) { return false }
        switch how {
        case .wait:
            return queue.push(slot)
        case .waitUnlessStalled:
            while true {
                switch queue.push(slot, waitingAtMost: 0.1) {
                case .pushed: return true
                case .closed: return false
                case .full where isStalled || closed.load(ordering: .relaxed):
                    droppedCount.add(1, ordering: .relaxed)
                    return false
                case .full: continue
                }
            }
        case .dropWhenFull:
            if queue.tryPush(slot) { return true }
            if !queue.isClosed { droppedCount.add(1, ordering: .relaxed) }
            return false
        }
    }

    /// Closes the queue: the sink takes what is queued (all of it when `how` finishes, none when it
    /// aborts), then ends as `how` says, on its own thread.
    func end(_ how: Ending) {
        ending.withLock { $0 = how }
        if case .abort = how { abandoned.store(true, ordering: .relaxed) }
        queue.close()
    }

    /// Waits for the thread after ``end(_:)``. Returns false (and marks the sink abandoned) when the
    /// sink's current call has lasted longer than its stall limit: the thread is left where it is.
    @discardableResult
    func waitForEnd() -> Bool {
        guard started else { return !isAbandoned }
        while done.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            if isStalled {
                isAbandoned = true
                started = false
                return false
            }
        }
        started = false
        return true
    }
}
