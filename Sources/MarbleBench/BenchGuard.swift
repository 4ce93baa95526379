import Foundation
import Shaders
import MarbleCore
import MarbleRender

/// The regression guard CI runs (`marble bench --guard`): cheap, and blind to how fast the machine is.
///
/// 1. Allocations: the render path (each kernel's prepare + render; each preset's frame drawn and
///    converted by the renderer `marble render` uses, ``PresetBench``) must make no malloc per frame in
///    steady state. Needs the allocation counter (libMarbleAllocationCounter.so).
/// 2. Cost: each kernel's and preset's median frame time divided by the reference kernel's (`ReferenceKernel`), timed
///    just before it (the median of a few rounds), must not exceed the baseline's ratio × (1 + margin)
///    (or ratio + `slack` reference units, or ratio + `copySlack` frame copies measured in the same run,
///    whichever is larger: near-trivial and memory-bound kernels swing with the machine's memory).
///    A cost over its limit is measured once more before it counts: a regression fails both times,
///    a neighbour's burst rarely hits the same kernel twice.
///    On one thread the times are the thread's CPU time, so a neighbour stealing the core does not
///    count; cache and memory-bandwidth contention still does, hence the margin.
package struct BenchGuard {
    package let baseline: Baseline

    package init(baseline: Baseline) { self.baseline = baseline }

    /// What one guard run saw.
    package struct Outcome: Sendable {
        /// Median-frame ratios to the reference, by "kind/name".
        package var ratios: [String: Double]
        /// Render-path mallocs per frame, by "kind/name" (empty when not counted).
        package var allocations: [String: Double]
        package var allocationsCounted: Bool
        package var failures: [String]
        package var notes: [String]
        /// A frame copy at the baseline's size, in reference units (0 when not measured).
        package var copyCost: Double = 0
        /// The "kind/name" keys among `failures` that failed on cost.
        package var costFailures: [String] = []
        package var passed: Bool { failures.isEmpty }
    }

    /// Measures, judges, and measures again what failed on cost: a cost counts as regressed only when
    /// both measurements are over the limit (each key keeps its better ratio).
    package func run(filter: String? = nil, progress: (String) -> Void = { _ in }) throws(MarbleError) -> Outcome {
        let first = try measure(filter: filter, progress: progress)
        let judged = check(first)
        let suspects = Set(judged.costFailures)
        guard !suspects.isEmpty else { return judged }
        progress("measuring again: \(suspects.sorted().joined(separator: ", "))")
        let second = try measure(filter: filter, only: suspects, progress: progress)
        var combined = first
        for key in suspects { if let r = second.ratios[key] { combined.ratios[key] = min(first.ratios[key] ?? r, r) } }
        combined.copyCost = max(first.copyCost, second.copyCost)
        return check(combined)
    }

    /// Measures the ratios (and allocations) at the baseline's size and thread count; `only` limits it
    /// to those "kind/name" keys (the frame copy is always measured, the reference before each of them).
    package func measure(filter: String? = nil, only: Set<String>? = nil,
                        progress: (String) -> Void = { _ in }) throws(MarbleError) -> Outcome {
        var c = BenchConfiguration()
        c.sizes = [BenchConfiguration.Size(baseline.width, baseline.height)]
        c.threads = [baseline.threads]
        c.frames = baseline.frames
        c.warmup = 5
        c.clock = baseline.threads == 1 ? .threadCPU : .wall
        c.filter = filter
        let size = c.sizes[0]
        let signal = BenchSignal(seconds: Double(c.warmup + c.frames) / c.fps.doubleValue + 1)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marble-guard-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let song = folder.appendingPathComponent("song.wav").path
        try signal.write(to: song)
        let features = try signal.features(fps: c.fps, frames: c.warmup + c.frames)
        let picture = ShaderBench.picture(size: size, features: features[min(features.count - 1, 60)], fps: c.fps)
        let referenceIsShader = baseline.reference != ReferenceKernel.name
        let reference = ShaderLibrary.shader(named: baseline.reference)
        guard !referenceIsShader || reference != nil else {
            throw MarbleError(.option, "baseline reference kernel \"\(baseline.reference)\" does not exist")
        }
        let wanted = { (key: String) in only?.contains(key) ?? true }
        let shaders = ShaderLibrary.all.filter {
            c.matches($0.descriptor.name) && wanted("shader/\($0.descriptor.name)") && !(referenceIsShader && $0 == reference)
        }
        let presets = try PresetLibrary.names().filter { c.matches($0) && wanted("preset/\($0)") }.map { name throws(MarbleError) in
            try PresetLibrary.load(name)
        }
        // The unit, timed just before each measurement it divides: this machine's speed moves in steps
        // that last seconds (the same reference took 1.8 or 2.9 ms, a vCPU beside an idle or a busy
        // neighbour), so a reference timed once per round made every ratio of a run 1.6x too high or low.
        let unit = { () throws(MarbleError) -> Double in
            guard let reference, referenceIsShader else { return ReferenceKernel.milliseconds(samples: 10, clock: c.clock) }
            return try ShaderBench(type: reference, size: size, threads: baseline.threads)
                .run(features: features, configuration: c, picture: picture).total.p50
        }
        var rounds: [String: [Timing]] = [:]
        var copies: [Double] = []
        var allocations: [String: Double] = [:]
        for round in 1...max(1, baseline.rounds) {
            progress("round \(round) of \(baseline.rounds)")
            let copyUnit = try unit()
            copies.append(ReferenceKernel.copyMilliseconds(width: size.width, height: size.height, samples: max(5, c.frames),
                                                           clock: c.clock) / max(copyUnit, 1e-6))
            for type in shaders {
                let u = try unit()
                let r = try ShaderBench(type: type, size: size, threads: baseline.threads)
                    .run(features: features, configuration: c, picture: picture)
                rounds["shader/\(r.name)", default: []].append(Timing(milliseconds: r.total.p50, unit: u))
                if let a = r.allocationsPerFrame { allocations["shader/\(r.name)"] = max(allocations["shader/\(r.name)"] ?? 0, a) }
            }
            for preset in presets {
                let u = try unit()
                let r = try PresetBench(preset: preset, size: size, threads: baseline.threads).run(song: song, configuration: c)
                rounds["preset/\(r.name)", default: []].append(Timing(milliseconds: r.total.p50, unit: u))
                if let a = r.allocationsPerFrame { allocations["preset/\(r.name)"] = max(allocations["preset/\(r.name)"] ?? 0, a) }
            }
        }
        let ratios = rounds.mapValues(Self.ratio)
        return Outcome(ratios: ratios, allocations: allocations, allocationsCounted: AllocationCounter.isCounting,
                       failures: [], notes: [], copyCost: copies.isEmpty ? 0 : FFmpegComparison.median(copies))
    }

    /// One round's frame time of a kernel and the reference's, timed just before it.
    package struct Timing: Sendable, Equatable {
        package var milliseconds: Double
        package var unit: Double
        package init(milliseconds: Double, unit: Double) { self.milliseconds = milliseconds; self.unit = unit }
    }

    /// A key's cost in reference units: the median over rounds of each round's time over its own unit. A step
    /// of the machine's speed between a unit and its kernel moves one round, not the result (dividing the
    /// fastest time by the fastest unit, timed apart, did).
    package static func ratio(_ rounds: [Timing]) -> Double {
        FFmpegComparison.median(rounds.map { $0.milliseconds / max($0.unit, 1e-6) })
    }

    /// Judges a measurement against the baseline.
    package func check(_ measured: Outcome) -> Outcome {
        var outcome = measured
        if baseline.build != BuildInfo.configuration {
            outcome.failures.append("the baseline was measured in a \(baseline.build) build, this is a \(BuildInfo.configuration) build: ratios are not comparable (build with `swift build -c \(baseline.build)`)")
        }
        if !measured.allocationsCounted {
            outcome.failures.append("allocations could not be counted (libMarbleAllocationCounter.so was not preloaded)")
        }
        for (key, count) in measured.allocations.sorted(by: { $0.key < $1.key }) where count > 0 {
            outcome.failures.append(String(format: "%@: %.1f allocations per frame in the render path (must be 0)", key, count))
        }
        for (key, ratio) in measured.ratios.sorted(by: { $0.key < $1.key }) where key != "shader/\(baseline.reference)" {
            guard let base = baseline.ratios[key] else {
                outcome.notes.append(String(format: "%@: %.2fx %@, no baseline yet (run `marble bench --write-baseline`)", key, ratio, baseline.reference))
                continue
            }
            let limit = max(base * (1 + baseline.margin), base + baseline.slack, base + baseline.copySlack * measured.copyCost)
            if ratio > limit {
                outcome.costFailures.append(key)
                outcome.failures.append(String(format: "%@: costs %.2fx %@ per frame, baseline %.2fx, limit %.2fx",
                                               key, ratio, baseline.reference, base, limit))
            } else {
                outcome.notes.append(String(format: "%@: %.2fx %@ (baseline %.2fx, limit %.2fx)", key, ratio, baseline.reference, base, limit))
            }
        }
        for key in baseline.ratios.keys.sorted() where measured.ratios[key] == nil {
            outcome.notes.append("\(key): in the baseline but not measured (removed or filtered out)")
        }
        return outcome
    }

    /// A new baseline from a measurement, keeping this one's settings.
    package func updated(with measured: Outcome) -> Baseline {
        var b = baseline
        b.build = BuildInfo.configuration
        b.machine = MachineInfo.current().summary
        b.ratios = measured.ratios.filter { $0.key != "shader/\(baseline.reference)" }
            .mapValues { ($0 * 100).rounded() / 100 }
        return b
    }
}
