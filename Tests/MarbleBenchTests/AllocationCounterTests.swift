@testable import MarbleAnalysis
@testable import MarbleBench
@testable import MarbleMedia
import Shaders
import Testing

/// A class whose instances live on the heap: one malloc each, which the optimiser cannot remove.
private final class Box { var value: Int; init(_ v: Int) { value = v } }

@Suite("AllocationCounter", .serialized)
struct AllocationCounterTests {
    @Test("the interposer is linked in before libc: counting works in this process")
    func counting() {
        #expect(AllocationCounter.isCounting)
    }

    @Test("a deliberate allocation is seen, a loop on the stack is not")
    func deliberate() {
        var keep: [Box] = []
        keep.reserveCapacity(16)
        let seen = AllocationCounter.measure {
            for i in 0..<10 { keep.append(Box(i)) }
        }
        #expect(seen >= 10, "saw \(seen) mallocs for 10 objects")
        // The counters are process-wide and other suites run concurrently: their mallocs can only add,
        // so one clean attempt out of a few shows that this loop makes none.
        var sum = 0
        var fewest = Int.max
        for _ in 0..<20 where fewest > 0 {
            fewest = min(fewest, AllocationCounter.measure { for i in 0..<1000 { sum &+= i &* 3 } })
        }
        #expect(fewest == 0)
        #expect(sum > 0 && keep.count == 10)
    }

    @Test("the library to preload is found next to the test executable")
    func library() {
        #expect(AllocationCounter.preloadLibrary(besides: "/proc/self/exe") != nil)
    }
}
