import Foundation
@testable import MarbleAnalysis
@testable import MarbleBench
import MarbleCore
@testable import MarbleKit
@testable import MarbleMedia
@testable import MarblePipeline
@testable import MarbleRender
import Shaders
import Testing

@Suite("BenchGuard", .serialized)
struct BenchGuardTests {
    func outcome(_ ratios: [String: Double], allocations: [String: Double] = [:]) -> BenchGuard.Outcome {
        BenchGuard.Outcome(ratios: ratios.merging(["shader/solid": 1]) { a, _ in a }, allocations: allocations,
                           allocationsCounted: true, failures: [], notes: [])
    }

    @Test("within the margin passes; past it fails naming the kernel")
    func margin() {
        let base = Baseline(margin: 0.5, ratios: ["shader/bars": 4, "preset/spectrum": 10])
        let benchGuard = BenchGuard(baseline: base)
        #expect(benchGuard.check(outcome(["shader/bars": 5.9, "preset/spectrum": 10])).passed)
        let bad = benchGuard.check(outcome(["shader/bars": 6.1, "preset/spectrum": 10]))
        #expect(!bad.passed)
        #expect(bad.failures.count == 1)
        #expect(bad.failures.first?.contains("shader/bars") == true)
    }

    @Test("a memory-bound kernel may grow by copySlack frame copies, measured in the same run")
    func copySlack() {
        let base = Baseline(margin: 0.5, slack: 0.05, copySlack: 2, ratios: ["shader/stars": 0.07])
        var measured = outcome(["shader/stars": 0.27])
        measured.copyCost = 0.03           // memory as fast as where the baseline was measured: 0.07 + 0.06
        #expect(!BenchGuard(baseline: base).check(measured).passed)
        #expect(BenchGuard(baseline: base).check(measured).costFailures == ["shader/stars"])
        measured.copyCost = 0.2            // a machine whose memory is slow next to its cores: 0.07 + 0.4
        #expect(BenchGuard(baseline: base).check(measured).passed)
    }

    @Test("each round is divided by the reference timed just before it, and the median round counts")
    func pairedRounds() {
        // The machine steps between a fast and a slow state (1.0 and 1.6 ms for the reference): the kernel
        // was timed in the slow state three times, the reference caught the fast one once.
        let rounds = [BenchGuard.Timing(milliseconds: 3.2, unit: 1.6), BenchGuard.Timing(milliseconds: 3.2, unit: 1.0),
                      BenchGuard.Timing(milliseconds: 3.2, unit: 1.6)]
        #expect(BenchGuard.ratio(rounds) == 2)
        // One round whose kernel and reference were both fast counts the same.
        #expect(BenchGuard.ratio([BenchGuard.Timing(milliseconds: 2, unit: 1)] + rounds) == 2)
    }

    @Test("a cost over its limit is measured again, and a real regression fails both times")
    func confirmation() throws {
        let small = Baseline(width: 64, height: 36, threads: 1, frames: 3, rounds: 1, margin: 0.5, slack: 0, copySlack: 0)
        let measured = try BenchGuard(baseline: small).measure(filter: "bars")
        #expect(measured.copyCost > 0)
        var tight = small
        tight.ratios = measured.ratios.filter { $0.key != "shader/\(small.reference)" }.mapValues { $0 / 10 }
        var lines: [String] = []
        let outcome = try BenchGuard(baseline: tight).run(filter: "bars") { lines.append($0) }
        #expect(lines.contains { $0.hasPrefix("measuring again:") && $0.contains("shader/bars") })
        #expect(outcome.costFailures.contains("shader/bars"))
        #expect(!outcome.passed)
    }

    @Test("any allocation in the render path fails")
    func allocations() {
        let benchGuard = BenchGuard(baseline: Baseline(ratios: ["shader/bars": 4]))
        let bad = benchGuard.check(outcome(["shader/bars": 4], allocations: ["shader/bars": 0.5, "shader/solid": 0]))
        #expect(bad.failures == ["shader/bars: 0.5 allocations per frame in the render path (must be 0)"])
    }

    @Test("a baseline from the other build configuration fails")
    func buildMismatch() {
        let other = BuildInfo.configuration == "debug" ? "release" : "debug"
        let check = BenchGuard(baseline: Baseline(build: other, ratios: [:])).check(outcome([:]))
        #expect(!check.passed)
    }

    @Test("new kernels are notes, not failures")
    func newKernel() {
        let check = BenchGuard(baseline: Baseline(ratios: [:])).check(outcome(["shader/new": 3]))
        #expect(check.passed)
        #expect(check.notes.contains { $0.contains("shader/new") && $0.contains("no baseline") })
    }

    @Test("a real measurement passes a baseline 10x slower, and fails one 10x faster or an allocation")
    func realRun() throws {
        let small = Baseline(width: 64, height: 36, threads: 1, frames: 3, rounds: 1, margin: 0.5, slack: 0)
        let measured = try BenchGuard(baseline: small).measure()
        #expect(measured.ratios.keys.contains("shader/solid"))
        #expect(measured.ratios.keys.contains("shader/bars"))
        #expect(measured.ratios.keys.contains("preset/spectrum"))
        // Counted for every benchmark. Whether they are 0 is for `marble bench --guard` to say: it runs in a
        // release build and a process of its own, while here other suites allocate concurrently (the
        // counters are process-wide) and debug code allocates closure contexts.
        // (The reference kernel is the unit of every ratio, not a key of its own.)
        #expect(measured.allocations.count == measured.ratios.count)
        #expect(measured.ratios["shader/\(small.reference)"] == nil)
        var timesOnly = measured
        timesOnly.allocations = [:]
        let kernels = measured.ratios.filter { $0.key != "shader/\(small.reference)" }
        #expect(kernels.values.allSatisfy { $0 > 0 && $0.isFinite }, "\(kernels)")
        var slower = small
        slower.ratios = kernels.mapValues { $0 * 10 }
        let passed = BenchGuard(baseline: slower).check(timesOnly)
        #expect(passed.passed, "\(passed.failures)")
        var faster = small
        faster.ratios = kernels.mapValues { $0 / 10 }
        let tripped = BenchGuard(baseline: faster).check(timesOnly)
        // Shaders other suites register (ShaderRegistryTests, UniformRowTests) are measured too, and one
        // draws nothing at this size: only the built-in kernels and the presets must trip.
        let builtIn = Set(ShaderLibrary.builtIn.map { "shader/\($0.descriptor.name)" })
        let mustTrip = Set(kernels.keys.filter { !$0.hasPrefix("shader/") || builtIn.contains($0) })
        #expect(mustTrip.count >= 60 && mustTrip.isSubset(of: Set(tripped.costFailures)), "\(tripped.failures)")
        #expect(tripped.failures.contains { $0.hasPrefix("shader/bars") })
        #expect(tripped.failures.contains { $0.hasPrefix("preset/spectrum") })
        var allocating = timesOnly
        allocating.allocations = ["preset/spectrum": 0.5]
        let allocated = BenchGuard(baseline: slower).check(allocating)
        #expect(allocated.failures == ["preset/spectrum: 0.5 allocations per frame in the render path (must be 0)"])
    }

    @Test("a baseline survives a write and a load")
    func roundTrip() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("baseline-\(getpid()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let b = Baseline(ratios: ["shader/bars": 4.25])
        try b.write(to: path)
        #expect(try Baseline.load(path) == b)
        #expect(throws: MarbleError.self) { try Baseline.load(path + ".missing") }
    }
}
