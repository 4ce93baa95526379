import Foundation

/// Counts heap allocations (of all threads, or of one) through the project's allocation counter
/// (`Sources/CAllocationCounter`, the product `MarbleAllocationCounter`).
///
/// `marble` does not link the counter: the everyday binary needs no extra library file. The counts
/// are real only when `libMarbleAllocationCounter.so` was loaded before libc (`LD_PRELOAD`, which
/// `marble bench` arranges by re-executing itself, or a test executable that links it); its counter
/// functions are then found at run time in the process's global symbol scope. ``isCounting`` checks
/// with a deliberate allocation; ``preloadLibrary(besides:)`` finds the library to preload.
package enum AllocationCounter {
    /// The counter's C entry points (allocation_counter.h), looked up by name with `dlsym`.
    struct Interposer: @unchecked Sendable {  // immutable addresses of thread-safe C functions
        typealias Toggle = @convention(c) () -> Void
        typealias Stats = @convention(c) (UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>,
                                          UnsafeMutablePointer<Int64>) -> Void
        let enable: Toggle
        let enableThisThread: Toggle
        let disable: Toggle
        let reset: Toggle
        let stats: Stats

        /// The functions when the library is loaded in this process, else nil.
        static func lookUp() -> Interposer? {
            // dlopen(nil) is the main program's handle: a lookup through it searches the global scope
            // (the executable, LD_PRELOAD libraries, then its dependencies).
            guard let program = dlopen(nil, RTLD_NOW) else { return nil }
            func symbol(_ name: String) -> UnsafeMutableRawPointer? { dlsym(program, name) }
            guard let enable = symbol("marble_allocations_enable"), let disable = symbol("marble_allocations_disable"),
                  let thisThread = symbol("marble_allocations_enable_this_thread"),
                  let reset = symbol("marble_allocations_reset"), let stats = symbol("marble_allocations_get")
            else { return nil }
            return Interposer(enable: unsafeBitCast(enable, to: Toggle.self),
                              enableThisThread: unsafeBitCast(thisThread, to: Toggle.self),
                              disable: unsafeBitCast(disable, to: Toggle.self),
                              reset: unsafeBitCast(reset, to: Toggle.self), stats: unsafeBitCast(stats, to: Stats.self))
        }
    }

    /// The interposer's functions, or nil when it is not loaded (nothing is counted then).
    static let interposer = Interposer.lookUp()

    /// True when the interposer's library is loaded in this process (not enough for counting alone).
    package static var isLoaded: Bool { interposer != nil }

    /// True when the interposer sees allocations in this process (checked once, on first use).
    package static let isCounting: Bool = {
        guard interposer != nil else { return false }
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
    package static func start() {
        guard let interposer else { return }
        interposer.reset()
        interposer.enable()
    }

    /// Disables counting; ``count`` keeps its value.
    package static func stop() { interposer?.disable() }

    /// Mallocs (of any kind: malloc, calloc, realloc growth, posix_memalign, …) since ``start()``.
    package static var count: Int {
        guard let interposer else { return 0 }
        // Every out-parameter must point somewhere: the C function writes all three unconditionally.
        var allocations: Int64 = 0, bytes: Int64 = 0, frees: Int64 = 0
        interposer.stats(&allocations, &bytes, &frees)
        return Int(allocations)
    }

    /// Counts the mallocs `body` makes (0 for anything when ``isCounting`` is false).
    package static func measure(_ body: () throws -> Void) rethrows -> Int {
        start()
        defer { stop() }
        try body()
        return count
    }

    /// Counts the mallocs `body` makes on the calling thread only: for code that runs on one thread,
    /// measured while other threads (tests running beside it) allocate.
    package static func measureThisThread(_ body: () throws -> Void) rethrows -> Int {
        guard let interposer else { try body(); return 0 }
        interposer.reset()
        interposer.enableThisThread()
        defer { stop() }
        try body()
        return count
    }

    /// The library's file name.
    package static let libraryName = "libMarbleAllocationCounter.so"

    /// The counter library for `executable`: next to it (SwiftPM builds it in `.build/<config>/`),
    /// else in the install's `lib/marble/` beside its `bin/` (`PREFIX/bin/marble` →
    /// `PREFIX/lib/marble/libMarbleAllocationCounter.so`), where one may put it by hand.
    package static func preloadLibrary(besides executable: String) -> String? {
        let resolved = URL(fileURLWithPath: executable).resolvingSymlinksInPath()
        let folder = resolved.deletingLastPathComponent()
        let candidates = [folder.appendingPathComponent(libraryName),
                          folder.deletingLastPathComponent().appendingPathComponent("lib/marble/\(libraryName)")]
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) }?.path
    }

    /// The environment variable that marks a process as already re-executed with the counter library.
    package static let reexecMarker = "MARBLE_BENCH_PRELOADED"
}
