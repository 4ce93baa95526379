import MarbleKit
import Synchronization

/// When `main` began (``MonotonicClock``), for the timings printed from there: what `--stats` calls
/// "after main started" leaves out only the loading of the binary and its libraries.
enum Launch {
    private static let started = Atomic<UInt64>(0)

    /// Called first thing in `main`.
    static func markStart() { started.store(MonotonicClock.now(), ordering: .relaxed) }

    /// Seconds from `main`'s start to now.
    static var seconds: Double { Double(MonotonicClock.now() &- started.load(ordering: .relaxed)) / 1e9 }
}
