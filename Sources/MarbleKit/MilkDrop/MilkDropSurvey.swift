import Dispatch
import MarbleCore
import MarblePipeline
import MilkDrop
import Synchronization

/// What `marble effects --milkdrop DIR` reports: every `.milk` file under a folder parsed, compiled
/// and rendered for a number of frames with a made-up song (`SurveySignal` of the MilkDrop module), the outcomes counted
/// and the failures grouped by reason; for MilkDrop 2 presets, whether their HLSL shaders compile,
/// draw a picture, and change it (the preset drawn again without them).
package struct MilkDropSurvey: Sendable {
    /// One file's outcome.
    package struct Entry: Sendable {
        package var path: String
        package var outcome: MilkPresetCheck.Outcome
        package var shaders: MilkPresetCheck.ShaderOutcome
        /// The most each kind of its code spent in one frame.
        package var peakWork: MilkWorkAmounts
        /// Core nanoseconds a pixel of its compiled shaders costs.
        package var shaderCost: Float
    }

    /// The folder (or file) surveyed.
    package let root: String
    /// Frames rendered per preset, and their size.
    package let frames: Int, width: Int, height: Int
    /// One entry per file, in the catalog's order.
    package let entries: [Entry]
    /// Folders that could not be listed.
    package let problems: [String]

    /// Surveys `path` on `threads` threads; `progress(done, total)` is called from those threads.
    /// `shaders` off draws every preset MilkDrop 1.x style; `textureFolders` are searched for disk textures.
    package static func run(path: String, frames: Int = 60, width: Int = 128, height: Int = 72, threads: Int = 2,
                           shaders: Bool = true, textureFolders: [String] = [],
                           progress: @Sendable (Int, Int) -> Void = { _, _ in }) throws(MarbleError) -> MilkDropSurvey {
        guard (1...3600).contains(frames) else { throw MarbleError(.option, "--frames \(frames): use 1 to 3600") }
        let catalog = MilkPresetCatalog(path: path)
        if catalog.paths.isEmpty {
            if let problem = catalog.problems.first { throw MarbleError(.input, problem.description) }
            throw MarbleError(.input, "\(path): no .milk presets there")
        }
        let paths = catalog.paths
        let textures = DiskTextures(folders: textureFolders, loader: MilkTextureLoader())
        let results = Mutex<[Int: MilkPresetCheck.Result]>([:])
        let next = Atomic<Int>(0), done = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: max(1, threads)) { _ in
            while true {
                let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard i < paths.count else { return }
                let outcome = MilkPresetCheck.check(path: paths[i], width: width, height: height, frames: frames,
                                                    shaders: shaders, textures: textures)
                results.withLock { $0[i] = outcome }
                progress(done.wrappingAdd(1, ordering: .relaxed).newValue, paths.count)
            }
        }
        let outcomes = results.withLock { $0 }
        return MilkDropSurvey(root: path, frames: frames, width: width, height: height,
                              entries: paths.indices.map {
                                  Entry(path: paths[$0], outcome: outcomes[$0]!.outcome, shaders: outcomes[$0]!.shaders,
                                        peakWork: outcomes[$0]!.peakWork, shaderCost: outcomes[$0]!.shaderCost)
                              },
                              problems: catalog.problems.map(\.description))
    }

    package var files: Int { entries.count }
    /// Files that parsed and compiled (rendered or blank).
    package var loaded: Int { entries.count { if case .failed = $0.outcome { false } else { true } } }
    /// Files that drew a picture that is not blank.
    package var rendered: Int { entries.count { if case .rendered = $0.outcome { true } else { false } } }
    package var blank: Int { entries.count { if case .blank = $0.outcome { true } else { false } } }
    /// Loaded files with HLSL shaders, and how many of those drew a picture.
    package var withShaders: Int {
        entries.count {
            switch $0.outcome {
            case .rendered(let s, _), .blank(let s): s
            case .failed: false
            }
        }
    }
    package var renderedWithShaders: Int { entries.count { if case .rendered(true, _) = $0.outcome { true } else { false } } }
    /// Files whose shaders compiled (and run), whose shaders drew a picture that is not flat, and whose
    /// picture also differs from the same preset without its shaders.
    package var shadersCompiled: Int { entries.count { if case .compiled = $0.shaders { true } else { false } } }
    package var shadersRendered: Int {
        entries.count { if case .compiled = $0.shaders, case .rendered = $0.outcome { true } else { false } }
    }
    package var shadersDiffer: Int {
        entries.count { if case .compiled(true, _) = $0.shaders, case .rendered = $0.outcome { true } else { false } }
    }
    /// Files whose shaders compiled but read a disk texture that was missing (the stand-in drew instead).
    package var shadersWithStandIns: Int { entries.count { if case .compiled(_, let n) = $0.shaders { n > 0 } else { false } } }
    /// Shaders that did not compile, by reason (the preset was drawn MilkDrop 1.x style), with the messages.
    package var shaderFailures: [(reason: String, errors: [String])] {
        var groups: [String: [String]] = [:]
        for e in entries { if case .failed(let reason, let message) = e.shaders { groups[reason, default: []].append(message) } }
        return groups.keys.sorted().map { (reason: $0, errors: groups[$0]!) }
    }

    /// Rendered files whose equations produced NaN or infinity on some frame (contained).
    package var nonFinite: Int { entries.count { if case .rendered(_, let n) = $0.outcome { n > 0 } else { false } } }

    /// Per kind of code, the most one frame of one preset spent (per vertex: one vertex), and that
    /// preset (nil when no preset ran code of that kind): the figures the work budget is set from.
    package var peakWork: [(kind: String, instructions: Int, budget: Int, path: String?)] {
        MilkCodeKind.allCases.map { kind in
            let top = entries.max { $0.peakWork[kind] < $1.peakWork[kind] }
            let n = top?.peakWork[kind] ?? 0
            return (kind: kind.description, instructions: n, budget: MilkDropLimits.workBudget[kind], path: n > 0 ? top?.path : nil)
        }
    }

    /// The costliest shaders of the survey, in core nanoseconds a pixel, their budget and the preset (nil
    /// when no shader compiled): the figure ``MilkDropLimits/shaderNanosecondsPerPixel`` is set from.
    package var peakShaderCost: (nanoseconds: Int, budget: Int, path: String?) {
        let top = entries.max { $0.shaderCost < $1.shaderCost }
        let n = Int((top?.shaderCost ?? 0).rounded(.up))
        return (nanoseconds: n, budget: Int(MilkDropLimits.shaderNanosecondsPerPixel), path: n > 0 ? top?.path : nil)
    }

    /// Failures by reason (parse reasons, then compile errors), with the files.
    package var failures: [(reason: String, errors: [String])] {
        var groups: [MilkPresetError.Reason: [String]] = [:]
        for e in entries { if case .failed(let error) = e.outcome { groups[error.reason, default: []].append(error.description) } }
        return groups.keys.sorted().map { (reason: $0.rawValue, errors: groups[$0]!) }
    }
}

extension MilkDropSurvey: CustomStringConvertible {
    /// The report: counts, then each failure under its reason, then the blank presets.
    package var description: String {
        func percent(_ n: Int) -> String {
            let tenths = files == 0 ? 0 : Int((Double(n) * 1000 / Double(files)).rounded())
            return "\(tenths / 10).\(tenths % 10)"
        }
        var out = "\(root): \(files) preset\(files == 1 ? "" : "s"), \(frames) frames each at \(width)x\(height)\n"
        out += "  loaded (parsed and compiled): \(loaded) (\(percent(loaded)) %)\n"
        out += "  rendered a picture:           \(rendered) (\(percent(rendered)) %)\n"
        out += "  blank after \(frames) frames:      \(blank)\n"
        out += "  with HLSL warp/comp shaders:  \(withShaders); \(renderedWithShaders) of them rendered a picture\n"
        if withShaders > 0 {
            func share(_ n: Int) -> String {
                let tenths = Int((Double(n) * 1000 / Double(withShaders)).rounded())
                return "\(tenths / 10).\(tenths % 10)"
            }
            out += "    shaders compiled:           \(shadersCompiled) (\(share(shadersCompiled)) %)\n"
            out += "    rendered with them:         \(shadersRendered) (\(share(shadersRendered)) %), \(shadersDiffer) unlike the same preset without them\n"
            out += "    a disk texture missing:     \(shadersWithStandIns) (drawn with the stand-in texture)\n"
            for group in shaderFailures {
                out += "    not compiled, \(group.reason): \(group.errors.count)\n"
                for e in group.errors.prefix(5) { out += "      \(e)\n" }
                if group.errors.count > 5 { out += "      … \(group.errors.count - 5) more (--json lists them)\n" }
            }
        }
        out += "  NaN/infinity in equations:    \(nonFinite) rendered preset\(nonFinite == 1 ? "" : "s") (contained: defaults used)\n"
        out += "  most work in one frame, by kind of code (budget):\n"
        for peak in peakWork {
            out += "    \(peak.kind): \(peak.instructions) (\(peak.budget))\(peak.path.map { ", \($0)" } ?? "")\n"
        }
        let shaderPeak = peakShaderCost
        out += "    shaders, ns a pixel: \(shaderPeak.nanoseconds) (\(shaderPeak.budget))\(shaderPeak.path.map { ", \($0)" } ?? "")\n"
        let failed = failures
        out += "  failed: \(files - loaded)\(failed.isEmpty ? "" : ", by reason:")\n"
        for group in failed {
            out += "    \(group.reason): \(group.errors.count)\n"
            for e in group.errors { out += "      \(e)\n" }
        }
        for p in problems { out += "  not listed: \(p)\n" }
        let blanks = entries.filter { if case .blank = $0.outcome { true } else { false } }
        if !blanks.isEmpty {
            out += "  blank:\n"
            for b in blanks { out += "    \(b.path)\n" }
        }
        return out
    }
}
