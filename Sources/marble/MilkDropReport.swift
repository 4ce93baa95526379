import ArgumentParser
import Foundation
import MarbleKit
import Synchronization

extension EffectsCommand {
    /// `--milkdrop FOLDER`: the survey's report (or its counts as JSON), with a progress line on a terminal.
    func reportMilkDrop(_ path: String) throws(MarbleError) {
        guard (1...256).contains(threads) else { throw MarbleError(.option, "--threads \(threads): use 1 to 256") }
        let tty = isatty(STDERR_FILENO) == 1
        let shown = Mutex(0)
        guard ["on", "off"].contains(milkdropShaders) else {
            throw MarbleError(.option, "--milkdrop-shaders \(milkdropShaders): use on or off")
        }
        var folders: [String] = []
        if let milkdropTextures {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: milkdropTextures, isDirectory: &isFolder), isFolder.boolValue else {
                throw MarbleError(.option, "--milkdrop-textures \(milkdropTextures): not a folder")
            }
            folders = [milkdropTextures]
        }
        let survey = try MilkDropSurvey.run(path: path, frames: frames, threads: threads, shaders: milkdropShaders == "on",
                                            textureFolders: folders) { done, total in
            guard tty else { return }
            let now = done * 100 / max(1, total)
            let changed = shown.withLock { old in if now != old { old = now; return true }; return false }
            if changed { Console.writeErr("\r\(done)/\(total) presets") }
        }
        if tty { Console.writeErr("\r\u{1B}[K") }
        if json {
            let report = MilkDropSurveyJSON(survey)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            guard let data = try? encoder.encode(report) else { throw MarbleError(.output, "cannot encode the report") }
            Console.print(String(decoding: data, as: UTF8.self))
        } else {
            Console.print(survey.description)
        }
    }
}

/// `marble effects --milkdrop DIR --json`.
struct MilkDropSurveyJSON: Encodable {
    struct Failure: Encodable { var reason: String, count: Int, files: [String] }
    /// The most one preset's code of a kind ran in one frame, its budget, and the preset.
    struct Work: Encodable { var kind: String, instructions: Int, budget: Int, file: String? }
    var root: String, frames: Int, files: Int, loaded: Int, rendered: Int, blank: Int
    var withShaders: Int, renderedWithShaders: Int, nonFinite: Int
    var shadersCompiled: Int, shadersRendered: Int, shadersDiffer: Int, shadersWithStandIns: Int
    var failures: [Failure], shaderFailures: [Failure], blankFiles: [String]
    var peakWork: [Work]
    /// The costliest shaders in core nanoseconds a pixel, their budget and the preset.
    var peakShaderCost: Work

    init(_ s: MilkDropSurvey) {
        root = s.root; frames = s.frames; files = s.files; loaded = s.loaded; rendered = s.rendered; blank = s.blank
        withShaders = s.withShaders; renderedWithShaders = s.renderedWithShaders; nonFinite = s.nonFinite
        shadersCompiled = s.shadersCompiled; shadersRendered = s.shadersRendered; shadersDiffer = s.shadersDiffer
        shadersWithStandIns = s.shadersWithStandIns
        failures = s.failures.map { Failure(reason: $0.reason, count: $0.errors.count, files: $0.errors) }
        shaderFailures = s.shaderFailures.map { Failure(reason: $0.reason, count: $0.errors.count, files: $0.errors) }
        blankFiles = s.entries.compactMap { if case .blank = $0.outcome { $0.path } else { nil } }
        peakWork = s.peakWork.map {
            Work(kind: $0.kind, instructions: $0.instructions, budget: $0.budget, file: $0.path)
        }
        let shaders = s.peakShaderCost
        peakShaderCost = Work(kind: "shaders, ns a pixel", instructions: shaders.nanoseconds, budget: shaders.budget, file: shaders.path)
    }
}
