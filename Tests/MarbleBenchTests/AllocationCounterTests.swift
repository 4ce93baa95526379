import Foundation
@testable import MarbleAnalysis
@testable import MarbleBench
@testable import MarbleMedia
import MallocInterposerSwift
import Shaders
import Testing

/// A class whose instances live on the heap: one malloc each, which the optimiser cannot remove.
private final class Box { var value: Int; init(_ v: Int) { value = v } }

@Suite("AllocationCounter", .serialized)
struct AllocationCounterTests {
    @Test("the interposer is linked in before libc: its counters are found with dlsym and counting works")
    func counting() {
        #expect(AllocationCounter.isLoaded)
        #expect(AllocationCounter.isCounting)
    }

    @Test("the counters found with dlsym are the library's own (the same totals as its Swift API)")
    func sameCounters() {
        var keep: [Box] = []
        let seen = AllocationCounter.measure { for i in 0..<5 { keep.append(Box(i)) } }
        #expect(seen >= 5)
        #expect(MallocInterposerSwift.getStatistics().mallocCount == AllocationCounter.count)
        #expect(keep.count == 5)
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
