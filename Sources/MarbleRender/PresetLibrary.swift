import Foundation
import MarbleCore

/// Finds presets: a path to a `.yaml` file, or the name of a bundled one in `Samples/Presets/`.
///
/// The bundled folder is found through `$MARBLE_PRESETS`, else by walking up from the executable (an
/// in-repo build lives in `.build/<config>/`), else from the working directory.
public enum PresetLibrary {
    /// The preset used when none is given.
    public static let defaultName = "spectrum"

    /// The bundled presets' folder: `$MARBLE_PRESETS` when set, else the first `Samples/Presets` found going up (at most 8 levels) from the executable's folder or the current directory; nil when there is none.
    public static var folder: URL? {
        if let env = ProcessInfo.processInfo.environment["MARBLE_PRESETS"], !env.isEmpty {
            return URL(fileURLWithPath: env)
        }
        // An installed binary (Scripts/install.sh, the .deb): PREFIX/bin/marble reads PREFIX/share/marble/Presets.
        if let installed = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("share/marble/Presets"),
           FileManager.default.fileExists(atPath: installed.path) {
            return installed
        }
        let starts = [URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
                        .deletingLastPathComponent(),
                      Bundle.main.executableURL?.deletingLastPathComponent(),
                      URL(fileURLWithPath: FileManager.default.currentDirectoryPath)].compactMap { $0 }
        for start in starts {
            var dir = start.standardizedFileURL
            for _ in 0..<8 {
                let candidate = dir.appendingPathComponent("Samples/Presets")
                if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
        }
        return nil
    }

    /// Names of the bundled presets, sorted.
    public static func names() -> [String] {
        guard let folder, let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return files.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// Loads a preset by file path or bundled name.
    public static func load(_ nameOrPath: String) throws(MarbleError) -> Preset {
        let looksLikePath = isPath(nameOrPath)
        let url = try file(of: nameOrPath)
        guard looksLikePath || FileManager.default.fileExists(atPath: url.path) else {
            throw MarbleError(.preset, "unknown preset \"\(nameOrPath)\" (available: \(names().joined(separator: ", ")))")
        }
        let data = try FileBounds.read(url.path, limit: FileBounds.presetBytes, what: "preset", kind: .preset)
        guard let text = String(data: data, encoding: .utf8) else {
            throw MarbleError(.preset, "\(url.path): not UTF-8 text")
        }
        var preset = try Preset.parse(text, source: looksLikePath ? nameOrPath : "Samples/Presets/\(nameOrPath).yaml")
        preset.resolveMilkDropFiles(relativeTo: url.deletingLastPathComponent().path)
        return preset
    }

    /// Whether `nameOrPath` names a file (it has a `/` or ends in `.yaml`/`.yml`) rather than a bundled preset.
    package static func isPath(_ nameOrPath: String) -> Bool {
        nameOrPath.contains("/") || nameOrPath.hasSuffix(".yaml") || nameOrPath.hasSuffix(".yml")
    }

    /// The file a preset is read from: the path itself, or the bundled preset's file (which may not
    /// exist when the name is unknown).
    /// - Throws: `.preset` when a bundled name is asked for and the bundled folder is not found.
    package static func file(of nameOrPath: String) throws(MarbleError) -> URL {
        if isPath(nameOrPath) { return URL(fileURLWithPath: nameOrPath) }
        guard let folder else {
            throw MarbleError(.preset, "preset \"\(nameOrPath)\": the bundled presets folder (Samples/Presets, or share/marble/Presets in an install) was not found; set MARBLE_PRESETS")
        }
        return folder.appendingPathComponent(nameOrPath + ".yaml")
    }

    /// The presets a real-time session's keys cycle through: the bundled ones, after `preset` when it
    /// is a file of the user's (which must load).
    /// - Throws: `.preset` for a file that does not load, or a name that is not bundled.
    package static func cycle(including preset: String?) throws(MarbleError) -> [String] {
        let bundled = names()
        guard let preset else { return bundled }
        if isPath(preset) {
            try load(preset).validate()
            return [preset] + bundled
        }
        guard bundled.contains(preset) else {
            throw MarbleError(.preset, "unknown preset \"\(preset)\" (available: \(bundled.joined(separator: ", ")))")
        }
        return bundled
    }
}
