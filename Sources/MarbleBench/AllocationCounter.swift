import Foundation
import MallocInterposerSwift

/// Counts `malloc` calls (all threads) through ordo-one's malloc interposer.
///
/// The counts are real only when the interposer's `malloc` is the one the dynamic linker binds: when
/// `libMallocInterposerSwift.so` comes before libc in the executable's search order (SwiftPM links it
/// that way into `marble`) or is preloaded with `LD_PRELOAD`. ``isCounting`` checks with a deliberate
/// allocation; ``preloadLibrary`` finds the library next to the executable so `marble bench` can
/// re-execute itself with it when linking was not enough.
public enum AllocationCounter {
    /// True when the interposer sees allocations in this process (checked once, on first use).
    public static let isCounting: Bool = {
        start()
        // Through the Swift runtime (swift_slowAlloc → malloc), which the optimiser cannot elide the way
        // it drops an unused malloc/free pair.
        let p = UnsafeMutableRawPointer.allocate(byteCount: 24, alignment: 8)
        p.deallocate()
        let seen = count
        stop()
        return seen >= 1
    }()

    /// Resets the counters and enables counting.
    public static func start() {
        MallocInterposerSwift.reset()
        MallocInterposerSwift.hook()
    }

    /// Disables counting; ``count`` keeps its value.
    public static func stop() { MallocInterposerSwift.unhook() }

    /// Mallocs (of any kind: malloc, calloc, realloc growth, posix_memalign, …) since ``start()``.
    public static var count: Int { MallocInterposerSwift.getStatistics().mallocCount }

    /// Counts the mallocs `body` makes (0 for anything when ``isCounting`` is false).
    public static func measure(_ body: () throws -> Void) rethrows -> Int {
        start()
        defer { stop() }
        try body()
        return count
    }

    /// The interposer library built next to `executable` (SwiftPM puts it in `.build/<config>/`).
    public static func preloadLibrary(besides executable: String) -> String? {
        let resolved = (try? FileManager.default.destinationOfSymbolicLink(atPath: executable)) ?? executable
        let url = URL(fileURLWithPath: resolved).deletingLastPathComponent()
            .appendingPathComponent("libMallocInterposerSwift.so")
        return FileManager.default.fileExists(atPath: url.path) ? url.path : nil
    }

    /// The environment variable that marks a process as already re-executed with the interposer.
    public static let reexecMarker = "MARBLE_BENCH_PRELOADED"
}
