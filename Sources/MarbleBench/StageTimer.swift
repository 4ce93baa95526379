import Histogram
import MarbleCore

/// Per-frame durations of one stage, kept in an HdrHistogram (nanoseconds, 3 significant digits): fixed
/// memory, no allocation while recording, exact enough percentiles for any run length.
package struct StageTimer: Sendable {
    package let name: String
    private var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
    private var totalNanoseconds: UInt64 = 0
    /// Mallocs counted in this stage over the recorded frames (nil: the counter was not active).
    package var allocations: Int?

    package init(name: String) { self.name = name }

    package var count: Int { Int(histogram.totalCount) }

    package mutating func record(nanoseconds: UInt64) {
        _ = histogram.record(max(1, nanoseconds))
        totalNanoseconds &+= nanoseconds
    }

    package mutating func record(milliseconds: Double) {
        record(nanoseconds: UInt64(max(0, milliseconds * 1e6)))
    }

    /// Times `body` and records it.
    package mutating func measure<T>(_ body: () throws -> T) rethrows -> T {
        let start = MonotonicClock.now()
        let result = try body()
        record(nanoseconds: MonotonicClock.now() &- start)
        return result
    }

    package func stats(frames: Int) -> StageStats {
        let ms = { (ns: UInt64) in Double(ns) / 1e6 }
        let n = max(1, count)
        return StageStats(
            name: name, p50: ms(histogram.valueAtPercentile(50)), p95: ms(histogram.valueAtPercentile(95)),
            p99: ms(histogram.valueAtPercentile(99)), max: ms(histogram.max),
            mean: Double(totalNanoseconds) / Double(n) / 1e6,
            allocationsPerFrame: allocations.map { Double($0) / Double(max(1, frames)) })
    }
}

/// Percentiles of one stage, milliseconds per frame.
package struct StageStats: Sendable, Equatable, Codable {
    package var name: String
    package var p50: Double
    package var p95: Double
    package var p99: Double
    package var max: Double
    package var mean: Double
    package var allocationsPerFrame: Double?

    package init(name: String, p50: Double, p95: Double, p99: Double, max: Double, mean: Double,
                allocationsPerFrame: Double? = nil) {
        self.name = name
        self.p50 = p50; self.p95 = p95; self.p99 = p99; self.max = max; self.mean = mean
        self.allocationsPerFrame = allocationsPerFrame
    }

    enum CodingKeys: String, CodingKey {
        case name, mean = "mean_ms", p50 = "p50_ms", p95 = "p95_ms", p99 = "p99_ms", max = "max_ms"
        case allocationsPerFrame = "allocs_per_frame"
    }
}
