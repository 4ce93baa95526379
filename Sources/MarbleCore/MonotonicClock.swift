import Foundation

/// A monotonic clock for measuring (never for deciding what a frame shows: frames use media time).
public enum MonotonicClock {
    public static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
    public static func milliseconds(since start: UInt64) -> Double { Double(now() &- start) / 1e6 }
}
