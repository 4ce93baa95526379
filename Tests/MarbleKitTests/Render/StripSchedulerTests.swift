import Synchronization
import Testing
@testable import MarbleKit

@Suite("StripScheduler")
struct StripSchedulerTests {
    /// Counts how often each index is visited, from any thread.
    final class Visits: StripTask, @unchecked Sendable {
        // Safety: each strip writes only its own indices of `counts` (the scheduler's rule), and the
        // scheduler's run returns only after every strip is done.
        let counts: UnsafeMutableBufferPointer<Int>
        init(_ n: Int) { counts = .allocate(capacity: n); counts.initialize(repeating: 0) }
        deinit { counts.deallocate() }
        func run(strip: Range<Int>) {
            for i in strip { counts[i] += 1 }
        }
    }

    @Test("every row is visited exactly once, with 1, 2 and 5 threads, frame after frame", arguments: [1, 2, 5])
    func coverage(threads: Int) {
        let scheduler = StripScheduler(threads: threads)
        for count in [0, 1, 7, 1080] {
            let visits = Visits(max(1, count))
            for _ in 0..<20 { scheduler.run(count: count, visits) }
            #expect(visits.counts.prefix(count).allSatisfy { $0 == 20 }, "count \(count)")
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

    @Test("the closure form covers the same rows")
    func closure() {
        let total = Mutex(0)
        StripScheduler(threads: 3).run(count: 100) { rows in total.withLock { $0 += rows.count } }
        #expect(total.withLock { $0 } == 100)
    }
}
