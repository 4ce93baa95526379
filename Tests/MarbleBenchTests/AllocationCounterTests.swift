import Foundation
@testable import MarbleAnalysis
@testable import MarbleBench
@testable import MarbleMedia
import CAllocationCounter
import Shaders
import Testing

/// A class whose instances live on the heap: one malloc each, which the optimiser cannot remove.
private final class Box { var value: Int; init(_ v: Int) { value = v } }

/// A flag one thread sets and another reads (a lock, the test needing no atomics package).
private final class ManagedAtomicFlag: @unchecked Sendable {  // every access under `lock`
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

@Suite("AllocationCounter", .serialized)
struct AllocationCounterTests {
    @Test("the counter is linked in before libc: its counters are found with dlsym and counting works")
    func counting() {
        #expect(AllocationCounter.isLoaded)
        #expect(AllocationCounter.isCounting)
    }

    @Test("the counters found with dlsym are the library's own (the same totals as its C functions)")
    func sameCounters() {
        var keep: [Box] = []
        let seen = AllocationCounter.measure { for i in 0..<5 { keep.append(Box(i)) } }
        #expect(seen >= 5)
        var allocations: Int64 = 0, bytes: Int64 = 0, frees: Int64 = 0
        marble_allocations_get(&allocations, &bytes, &frees)
        #expect(Int(allocations) == AllocationCounter.count && bytes >= 5 * 24)
        #expect(keep.count == 5)
    }

    @Test("each allocator entry point is counted: calloc, aligned ones, a realloc that grows (not one that shrinks), and frees")
    func entryPoints() {
        // Other suites run at once and can only add: the fewest of several tries is this block's own.
        var fewest = (allocations: Int64.max, frees: Int64.max)
        for _ in 0..<20 where fewest != (6, 5) {
            marble_allocations_reset()
            marble_allocations_enable()
            let a = calloc(4, 64)
            var b: UnsafeMutableRawPointer?
            let failed = posix_memalign(&b, 64, 256)
            let c = aligned_alloc(128, 512), d = valloc(96)
            let grown = realloc(a, 100_000)      // grows past the block: an allocation
            let shrunk = realloc(grown, 16)      // shrinks: none
            let e = malloc(8)
            free(shrunk); free(b); free(c); free(d); free(e)
            free(nil)                            // not counted
            marble_allocations_disable()
            var allocations: Int64 = 0, bytes: Int64 = 0, frees: Int64 = 0
            marble_allocations_get(&allocations, &bytes, &frees)
            #expect(failed == 0)
            if allocations <= fewest.allocations { fewest = (allocations, min(fewest.frees, frees)) }
        }
        #expect(fewest.allocations == 6 && fewest.frees == 5)
    }

    @Test("counting one thread sees its own allocations, not those another thread makes meanwhile")
    func oneThread() {
        let stop = ManagedAtomicFlag()
        let started = DispatchSemaphore(value: 0), ended = DispatchSemaphore(value: 0)
        let other = Thread {
            started.signal()
            var churn: [Box] = []
            while !stop.isSet { churn.append(Box(churn.count)); if churn.count > 64 { churn.removeAll(keepingCapacity: false) } }
            ended.signal()
        }
        other.start()
        started.wait()
        var keep: [Box] = []
        let everyone = AllocationCounter.measure { for i in 0..<1000 { keep.append(Box(i)); if keep.count > 5 { keep.removeAll() } } }
        keep.removeAll(keepingCapacity: true)
        let mine = AllocationCounter.measureThisThread { for i in 0..<5 { keep.append(Box(i)) } }
        stop.set()
        ended.wait()
        #expect(mine == 5, "\(mine) mallocs counted on this thread for 5 boxes")
        #expect(everyone > 1000, "the other thread's allocations are seen when every thread is counted: \(everyone)")
        #expect(keep.count == 5)
    }

    @Test("threads that end while counting is on leave the heap whole (no counter state dies with a thread)")
    func threadsEnding() {
        AllocationCounter.start()
        defer { AllocationCounter.stop() }
        let done = DispatchGroup()
        for _ in 0..<64 {
            done.enter()
            let thread = Thread {
                var boxes: [Box] = []
                for i in 0..<100 { boxes.append(Box(i)) }
                precondition(boxes.count == 100)
                done.leave()
            }
            thread.start()
        }
        done.wait()
        // The threads' last frees (their thread dictionaries, stacks' bookkeeping) happen as they end,
        // after `leave`: allocate and free a while longer so they land among these.
        var keep: [[Int]] = []
        for i in 0..<2000 { keep.append([Int](repeating: i, count: i % 50 + 1)); if keep.count > 100 { keep.removeFirst(50) } }
        #expect(AllocationCounter.count >= 64 * 100)
        #expect(!keep.isEmpty)
    }

    @Test("a deliberate allocation is seen, a loop on the stack is not")
    func deliberate() {
        var keep: [Box] = []
        keep.reserveCapacity(16)
        let seen = AllocationCounter.measure {
            for i in 0..<10 { keep.append(Box(i)) }
        }
        #expect(seen >= 10, "saw \(seen) mallocs for 10 objects")
        // Counted on this thread only: the process-wide counters also see the suites running beside
        // this one (20 attempts once all saw at least 31 of their mallocs on a busy run).
        var sum = 0
        let onStack = AllocationCounter.measureThisThread { for i in 0..<1000 { sum &+= i &* 3 } }
        #expect(onStack == 0)
        #expect(sum > 0 && keep.count == 10)
    }

    @Test("the library to preload is found next to the test executable")
    func library() {
        #expect(AllocationCounter.preloadLibrary(besides: "/proc/self/exe") != nil)
    }

    @Test("in an install, the library is looked for in PREFIX/lib/marble, through a symlinked executable too")
    func installedLibrary() throws {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("marble-prefix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let bin = prefix.appendingPathComponent("bin"), lib = prefix.appendingPathComponent("lib/marble")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let executable = bin.appendingPathComponent("marble").path
        #expect(FileManager.default.createFile(atPath: executable, contents: Data()))
        let link = prefix.appendingPathComponent("marble-link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: executable)
        #expect(AllocationCounter.preloadLibrary(besides: executable) == nil)
        try FileManager.default.createDirectory(at: lib, withIntermediateDirectories: true)
        let library = lib.appendingPathComponent(AllocationCounter.libraryName)
        #expect(FileManager.default.createFile(atPath: library.path, contents: Data()))
        let expected = library.resolvingSymlinksInPath().path
        #expect(AllocationCounter.preloadLibrary(besides: executable).map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path } == expected)
        #expect(AllocationCounter.preloadLibrary(besides: link).map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path } == expected)
    }
}
