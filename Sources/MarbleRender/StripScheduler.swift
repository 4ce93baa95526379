import Foundation
import MarbleCore
import Synchronization

/// Splits per-frame work into strips of rows and runs them on a fixed set of threads.
///
/// Kernels are called with disjoint row ranges (the rule every `@unchecked Sendable` texture view in the
/// project relies on). The strip count is a small multiple of the thread count so that uneven rows (a
/// bar here, empty space there) balance out: threads take the next strip from a shared counter.
///
/// The helper threads live as long as the scheduler and sleep on semaphores between frames, so a
/// `run` allocates nothing (Dispatch's `concurrentPerform` allocated about four blocks per call). With
/// one thread, strips run inline on the caller.
package final class StripScheduler: StripRunner {
    /// Threads strips run on, the caller's included (at least 1).
    package let threads: Int
    private let strips: Int
    private let pool: WorkerPool?

    /// A scheduler with `threads` threads (at least 1): the caller and `threads − 1` helpers started now.
    /// `helperWoken` (tests) is called by a helper each time it wakes, before it asks to join the job:
    /// a test holds it there to play a helper that has not got a core yet.
    package init(threads: Int, helperWoken: (@Sendable () -> Void)? = nil) {
        self.threads = max(1, threads)
        self.strips = self.threads == 1 ? 1 : self.threads * 4
        pool = self.threads > 1 ? WorkerPool(helpers: self.threads - 1, woken: helperWoken) : nil
    }

    deinit { pool?.shutDown() }

    /// The number of cores this process may use.
    package static var availableCores: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Runs `task` over `0..<count` rows (or row pairs) in strips; returns when all are done. This is
    /// the per-frame form: handing over a task object allocates nothing.
    package func run(count: Int, _ task: any StripTask) {
        let n = min(strips, max(1, count))
        guard n > 1, let pool else {
            task.run(strip: 0..<count, worker: 0)
            return
        }
        pool.run(StripJob(work: .task(task), count: count, strips: n))
    }

    /// Runs `body` over `0..<count` rows (or row pairs) in strips; returns when all are done.
    /// Convenient, but with more than one thread Swift allocates a context for the closure on each call
    /// (`withoutActuallyEscaping`): per-frame code passes a `StripTask` (MarbleCore) instead.
    /// Calls from several threads at once are served one after the other.
    package func run(count: Int, _ body: (Range<Int>) -> Void) {
        let n = min(strips, max(1, count))
        guard n > 1, let pool else {
            body(0..<count)
            return
        }
        withoutActuallyEscaping(body) { body in
            pool.run(StripJob(work: .closure(body), count: count, strips: n))
        }
    }
}

/// One `run`: the work and how to cut `0..<count` into `strips` ranges.
/// Safety of @unchecked Sendable: the work is only called with disjoint ranges, and only while the
/// `run` that created the job is waiting for it (so a non-escaping closure is still alive).
private struct StripJob: @unchecked Sendable {
    enum Work {
        case task(any StripTask)
        case closure((Range<Int>) -> Void)
    }
    let work: Work
    let count: Int
    let strips: Int

    func range(_ i: Int) -> Range<Int> { (count * i / strips)..<(count * (i + 1) / strips) }

    func run(_ i: Int, worker: Int) {
        switch work {
        case .task(let task): task.run(strip: range(i), worker: worker)
        case .closure(let body): body(range(i))
        }
    }
}

/// Persistent helper threads. The caller publishes a job, wakes the helpers, works along with them
/// (strips handed out by an atomic counter), then closes the job and waits for the helpers that joined
/// it before then.
///
/// A helper that has not joined by the time the caller ran out of strips skips the job when it wakes:
/// on a busy machine (an encoder's threads, another program) a woken helper may wait milliseconds for
/// a core, and the caller, which has done the strips itself meanwhile, does not wait for it. (It used
/// to: a 4K render's draw took 6.0 ms of wall time for 2.9 ms of work, half of it waiting for a helper
/// that had not started.) Only a helper that was preempted in the middle of a strip is still waited for.
///
/// Safety of @unchecked Sendable: `job` is written by the caller before it opens `admission`
/// (releasing) and cleared after every helper that joined (acquiring `admission`) signalled completion,
/// so a helper reads it only while it is set and stays so. `lock` serialises concurrent callers.
private final class WorkerPool: @unchecked Sendable {
    private let helpers: Int
    private let wake: [DispatchSemaphore]
    private let finished = DispatchSemaphore(value: 0)
    private let next = Atomic<Int>(0)
    /// The current job's admission: bit 0 set once the job is closed (and between jobs); the rest
    /// counts, in steps of 2, the helpers that joined it (each signals `finished` once done).
    private let admission = Atomic<Int>(1)
    private let stopping = Atomic<Bool>(false)
    private let lock = NSLock()
    private var job: StripJob?
    private let woken: (@Sendable () -> Void)?

    init(helpers: Int, woken: (@Sendable () -> Void)?) {
        self.helpers = helpers
        self.woken = woken
        wake = (0..<helpers).map { _ in DispatchSemaphore(value: 0) }
        for i in 0..<helpers {
            Thread.detachNewThread { [self] in self.helperLoop(i) }
        }
    }

    func run(_ newJob: StripJob) {
        lock.lock()
        defer { lock.unlock() }
        job = newJob
        next.store(0, ordering: .relaxed)
        admission.store(0, ordering: .releasing)
        for s in wake { s.signal() }
        work(newJob, worker: 0)
        let joined = admission.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue >> 1
        for _ in 0..<joined { finished.wait() }
        job = nil
    }

    /// A woken helper's admission to the current job: true when it joined (the job is still open),
    /// false when the job was closed before it got a core (or no job is running).
    private func join() -> Bool {
        var seen = admission.load(ordering: .acquiring)
        while seen & 1 == 0 {
            let (joined, now) = admission.compareExchange(expected: seen, desired: seen + 2, ordering: .acquiringAndReleasing)
            if joined { return true }
            seen = now
        }
        return false
    }

    private func work(_ job: StripJob, worker: Int) {
        let span = FrameTrace.begin()
        defer { FrameTrace.end(.strips, span) }
        while true {
            let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard i < job.strips else { return }
            job.run(i, worker: worker)
        }
    }

    private func helperLoop(_ index: Int) {
        FrameTrace.nameThread("strips \(index + 1)")
        while true {
            wake[index].wait()
            if stopping.load(ordering: .acquiring) { return }
            woken?()
            guard join() else { continue }
            if let job { work(job, worker: index + 1) }
            finished.signal()
        }
    }

    /// Lets the helper threads end (they hold the pool; the scheduler's deinit calls this).
    func shutDown() {
        stopping.store(true, ordering: .releasing)
        for s in wake { s.signal() }
    }
}
