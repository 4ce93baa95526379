import Dispatch
import MarbleCore
@testable import MarbleMedia
@testable import MarbleRender
import Shaders
import Synchronization
import Testing

@Suite("StripScheduler")
struct StripSchedulerTests {
    /// Counts how often each index is visited, from any thread.
    final class Visits: StripTask, @unchecked Sendable {
        // Safety: each strip writes only its own indices of `counts` (the scheduler's rule), and the
        // scheduler's run returns only after every strip is done.
        let counts: UnsafeMutableBufferPointer<Int>
        init(_ n: Int) { counts = .allocate(capacity: n); counts.initialize(repeating: 0) }
        deinit { counts.deallocate() }
        func run(strip: Range<Int>, worker: Int) {
            for i in strip { counts[i] += 1 }
        }
    }

    @Test("every row is visited exactly once, with 1, 2 and 5 threads, frame after frame", arguments: [1, 2, 5])
    func coverage(threads: Int) {
        let scheduler = StripScheduler(threads: threads)
        for count in [1, 7, 1080] {
            let visits = Visits(count)
            for _ in 0..<20 { scheduler.run(count: count, visits) }
            #expect(visits.counts.allSatisfy { $0 == 20 }, "count \(count)")
        }
        // No rows: the task is never handed a row (a visit would land in the one spare counter).
        let none = Visits(1)
        for _ in 0..<20 { scheduler.run(count: 0, none) }
        #expect(none.counts[0] == 0)
    }

    /// Notes which worker runs each strip, and whether a worker ever ran two strips at once.
    final class Workers: StripTask, @unchecked Sendable {
        // Safety: all state sits behind the mutex.
        let state: Mutex<(busy: [Bool], seen: Set<Int>, clashes: Int)>
        init(threads: Int) { state = Mutex((busy: [Bool](repeating: false, count: threads + 1), seen: [], clashes: 0)) }
        func run(strip: Range<Int>, worker: Int) {
            state.withLock { s in
                let w = min(max(worker, 0), s.busy.count - 1)
                if s.busy[w] || worker != w { s.clashes += 1 }
                s.busy[w] = true
                s.seen.insert(worker)
            }
            for _ in 0..<2_000 { _ = strip.count }   // a little work, so strips overlap in time
            state.withLock { $0.busy[min(max(worker, 0), $0.busy.count - 1)] = false }
        }
    }

    @Test("a strip's worker index lies in 0..<threads and is never in use twice at once", arguments: [1, 2, 3])
    func workerIndices(threads: Int) {
        let scheduler = StripScheduler(threads: threads)
        let task = Workers(threads: threads)
        for _ in 0..<50 { scheduler.run(count: 1080, task) }
        task.state.withLock { s in
            #expect(s.clashes == 0)
            #expect(s.seen.allSatisfy { (0..<threads).contains($0) } && s.seen.contains(0))
        }
    }

    @Test("callers on several threads at once are served one after the other")
    func concurrentCallers() async {
        let scheduler = StripScheduler(threads: 2)
        let visits = Visits(64)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { for _ in 0..<50 { scheduler.run(count: 64, visits) } }
            }
        }
        // Overlapping runs would race on the counts and lose increments.
        #expect(visits.counts.allSatisfy { $0 == 200 })
    }

    @Test("the caller does not wait for a helper that has not started: it does the strips, the late helper skips the job")
    func lateHelperSkipped() {
        let gate = DispatchSemaphore(value: 0)
        let scheduler = StripScheduler(threads: 2, helperWoken: { gate.wait() })
        let task = Workers(threads: 2)
        let visits = Visits(1080)
        // The helper is held before it joins: each run returns with every strip done by the caller.
        for _ in 0..<3 {
            scheduler.run(count: 1080, visits)
            scheduler.run(count: 1080, task)
        }
        #expect(visits.counts.allSatisfy { $0 == 3 })
        task.state.withLock { #expect($0.seen == [0] && $0.clashes == 0) }
        // Let it go: it finds those jobs closed and skips them (a visit would be counted twice)...
        for _ in 0..<6 { gate.signal() }
        scheduler.run(count: 1080, visits)
        #expect(visits.counts.allSatisfy { $0 == 4 })
        for _ in 0..<2 { gate.signal() }   // the last run's wake-up, and one to spare: no thread left waiting
        // ...and it joins later runs again once it is let through at once.
        let open = StripScheduler(threads: 2, helperWoken: {})
        let later = Workers(threads: 2)
        for _ in 0..<200 { open.run(count: 1080, later) }
        later.state.withLock { #expect($0.clashes == 0 && $0.seen.isSubset(of: [0, 1])) }
    }

    @Test("the closure form visits every row exactly once too")
    func closure() {
        let visits = Mutex([Int](repeating: 0, count: 100))
        StripScheduler(threads: 3).run(count: 100) { rows in visits.withLock { for i in rows { $0[i] += 1 } } }
        #expect(visits.withLock { $0 } == [Int](repeating: 1, count: 100))
    }
}
