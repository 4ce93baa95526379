import Foundation

/// The bounds every number a user gives (an option, a preset value) is checked against before it is
/// converted or used to size anything: beyond them a value is a mistake, not a request, and gets a
/// one-line error instead of a trap on overflow or an allocation of gigabytes.
public enum Limits {
    /// Frame rates, in frames per second.
    public static let framesPerSecond: ClosedRange<Double> = 1...240
    /// The largest part of a frame-rate fraction: FFmpeg's `AVRational` holds 32-bit parts.
    public static let rationalPart = Int(Int32.max)
    /// Times in a song or a session (`--at`, `--duration`): 100 hours.
    public static let seconds: ClosedRange<Double> = 0...360_000
    /// Worker threads: enough to oversubscribe the cores a little, never thousands (every thread gets
    /// a scratch band of a frame's width and a stack).
    public static var threads: ClosedRange<Int> { 1...max(8, ProcessInfo.processInfo.activeProcessorCount * 4) }

    /// `value` if it lies in `range`, else an option error naming `option`: "--threads 10000: must be
    /// between 1 and 8".
    public static func check<T: Comparable & CustomStringConvertible>(
        _ value: T, in range: ClosedRange<T>, _ option: String, unit: String = ""
    ) throws(MarbleError) -> T {
        guard range.contains(value) else {
            throw MarbleError(.option, "\(option) \(value): must be between \(range.lowerBound) and \(range.upperBound)\(unit)")
        }
        return value
    }

    /// `rate` if it is a positive rate within ``framesPerSecond``, else an option error naming `option`.
    public static func check(rate: Rational, _ option: String = "--fps") throws(MarbleError) -> Rational {
        guard rate.numerator > 0, rate.denominator > 0, framesPerSecond.contains(rate.doubleValue) else {
            throw MarbleError(.option, "\(option) \(rate): must be between 1 and 240")
        }
        return rate
    }

    /// `value` if it is a finite number in `range`, else an option error naming `option`.
    public static func check(_ value: Double, in range: ClosedRange<Double>, _ option: String, unit: String = "") throws(MarbleError) -> Double {
        guard value.isFinite, range.contains(value) else {
            throw MarbleError(.option, "\(option) \(value): must be between \(clean(range.lowerBound)) and \(clean(range.upperBound))\(unit)")
        }
        return value
    }

    private static func clean(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
}
