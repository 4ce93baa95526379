import Foundation

/// A monotonic clock for measuring (never for deciding what a frame shows: frames use media time).
package enum MonotonicClock {
    /// Nanoseconds since an arbitrary start (boot), never going back; for intervals only.
    package static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
    /// Milliseconds elapsed since `start`, a value of ``now()``.
    package static func milliseconds(since start: UInt64) -> Double { Double(now() &- start) / 1e6 }
}
