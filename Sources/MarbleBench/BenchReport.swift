import Foundation

/// Everything one `marble bench` run measured, and its three renderings: a terminal table, JSON, and the
/// Markdown table docs/BENCHMARKS.md carries.
package struct BenchReport: Sendable {
    package var machine: MachineInfo
    package var configuration: BenchConfiguration
    package var results: [BenchResult]
    package var comparisons: [FFmpegComparisonResult]
    /// False when the allocation counter was not loaded: allocation columns then read "n/a".
    package var allocationsCounted: Bool

    package init(machine: MachineInfo, configuration: BenchConfiguration, results: [BenchResult],
                comparisons: [FFmpegComparisonResult], allocationsCounted: Bool) {
        self.machine = machine
        self.configuration = configuration
        self.results = results
        self.comparisons = comparisons
        self.allocationsCounted = allocationsCounted
    }

    package var budget: Double { configuration.budgetMilliseconds }

    /// One line naming the machine and the method.
    package var header: String {
        String(format: "%@ — %d frames after %d warm-up, budget %.1f ms/frame (%@ fps)%@",
               machine.summary, configuration.frames, configuration.warmup, budget, configuration.fps.description,
               machine.load.map { String(format: ", load average %.2f at start", $0) } ?? "")
    }

    /// A row of the tables: a benchmark's whole frame, or one of its stages.
    struct Row {
        var label: String
        var kind: String
        var size: String
        var threads: String
        var stats: StageStats
        var fps: Double?
        var isStage: Bool
    }

    /// Rows in order: each result, then (for presets) its stages indented under it.
    func rows(includeStages: Bool) -> [Row] {
        var rows: [Row] = []
        for r in results {
            var whole = r.total
            whole.allocationsPerFrame = r.allocationsPerFrame
            rows.append(Row(label: r.name, kind: r.kind.rawValue, size: r.size, threads: "\(r.threads)", stats: whole,
                            fps: r.fps, isStage: false))
            if includeStages && r.kind == .preset {
                for s in r.stages {
                    rows.append(Row(label: s.name, kind: "", size: "", threads: "", stats: s, fps: nil, isStage: true))
                }
            }
        }
        return rows
    }

    static func number(_ v: Double) -> String {
        v >= 100 ? String(format: "%.0f", v) : v >= 10 ? String(format: "%.1f", v) : String(format: "%.2f", v)
    }

    func allocations(_ v: Double?) -> String {
        guard allocationsCounted else { return "n/a" }
        guard let v else { return "" }  // a layer: counted with its preset's render stage
        return v == v.rounded() ? String(format: "%.0f", v) : String(format: "%.1f", v)
    }

    func share(_ stats: StageStats) -> String { String(format: "%.0f%%", stats.p50 / budget * 100) }
}
