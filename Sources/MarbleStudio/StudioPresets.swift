import Foundation
import MarbleCore
import MarbleRender

/// The presets the page offers: the bundled ones (``PresetLibrary``), then those saved in
/// `OUTPUT/presets/NAME.yaml`: listed, loaded by name, saved.
package struct StudioPresets: Sendable {
    /// One entry of `GET /api/presets`.
    package struct Entry: Sendable, Equatable, Codable {
        package var name: String
        /// Saved by the studio (else bundled).
        package var saved: Bool
    }

    /// Where saved presets are: `OUTPUT/presets`.
    package let folder: String

    package init(folders: StudioFolders) { folder = folders.presets }

    /// The longest name a saved preset may have.
    package static let maximumName = 64

    /// The bundled presets, then the saved ones (files `NAME.yaml` with a valid name), each by name.
    package func list() -> [Entry] {
        let bundled = PresetLibrary.names()
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let saved = files.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }
            .filter { Self.isValidName($0) && !bundled.contains($0) }.sorted()
        return bundled.map { Entry(name: $0, saved: false) } + saved.map { Entry(name: $0, saved: true) }
    }

    /// The preset `name` (bundled or saved) and its file's text.
    /// - Throws: `.badRequest` for a malformed name or a saved file that does not load (the loader's
    ///   message), `.notFound` when there is no such preset.
    package func load(_ name: String) throws(StudioFailure) -> (preset: Preset, yaml: String) {
        guard Self.isValidName(name) else { throw StudioFailure(.badRequest, Self.nameRule(name)) }
        let path: String
        if PresetLibrary.names().contains(name) {
            do throws(MarbleError) { path = try PresetLibrary.file(of: name).path } catch { throw StudioFailure(.notFound, error.message) }
        } else {
            path = file(name)
            guard StudioPath.kind(of: path) == S_IFREG else { throw StudioFailure(.notFound, "no preset named \"\(name)\"") }
        }
        do throws(MarbleError) {
            let data = try FileBounds.read(path, limit: FileBounds.presetBytes, what: "preset", kind: .preset)
            guard let text = String(data: data, encoding: .utf8) else { throw MarbleError(.preset, "\(path): not UTF-8 text") }
            return (try PresetLibrary.load(path), text)
        } catch {
            throw StudioFailure(.badRequest, error.message)
        }
    }

    /// Saves `preset` as `OUTPUT/presets/NAME.yaml` (its name set to `name`), written whole under a
    /// temporary name first. Without `replace`, the file is linked into place (`link(2)`), which fails
    /// when the name exists, even when another save takes it meanwhile. A look from the page passes
    /// ``StudioFolders/checkLookPaths(_:)`` first: its file parameters are then absolute, so the file
    /// means the same wherever it is read.
    /// - Returns: the file's path and text (which `PresetLibrary.load` reads back as the preset).
    /// - Throws: `.badRequest` for a malformed or bundled name or a preset that does not validate,
    ///   `.conflict` when the file exists and `replace` is false, `.internalError` when writing fails.
    package func save(name: String, preset: Preset, replace: Bool) throws(StudioFailure) -> (path: String, yaml: String) {
        guard Self.isValidName(name) else { throw StudioFailure(.badRequest, Self.nameRule(name)) }
        guard !PresetLibrary.names().contains(name) else {
            throw StudioFailure(.badRequest, "name: \"\(name)\" is a bundled preset's; choose another name")
        }
        let path = file(name)
        var named = preset
        named.name = name
        let text: String
        do throws(MarbleError) {
            try named.validate()
            text = try StudioLook.yaml(of: named)
            _ = try Preset.parse(text, source: path)  // what is written must read back
        } catch {
            throw StudioFailure(.badRequest, error.message)
        }
        if !replace, StudioPath.kind(of: path) != 0 { throw Self.exists(name) }
        try Self.write(Data(text.utf8), to: path, replace: replace, name: name)
        return (path, text)
    }

    /// `OUTPUT/presets/NAME.yaml`.
    private func file(_ name: String) -> String { folder + "/" + name + ".yaml" }

    /// Whether `name` has 1…64 of `A–Z a–z 0–9 - _`.
    package static func isValidName(_ name: String) -> Bool {
        (1...maximumName).contains(name.utf8.count) && name.utf8.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
        }
    }

    private static func nameRule(_ name: String) -> String {
        return "name: \"\(StudioPath.shown(name))\" must be 1–\(maximumName) of the characters A–Z a–z 0–9 - _"
    }

    private static func exists(_ name: String) -> StudioFailure {
        StudioFailure(.conflict, "a saved preset named \"\(name)\" exists already; save with replace to overwrite it")
    }

    /// Writes `data` beside `path` under a temporary name (see ``OutputFile/temporaryPath(for:)``),
    /// then renames it over `path` (`replace`) or links it to `path` (fails if it exists).
    private static func write(_ data: Data, to path: String, replace: Bool, name: String) throws(StudioFailure) {
        OutputFile.removeStaleTemporaries(for: path)
        let temporary = OutputFile.temporaryPath(for: path)
        OutputFile.registerTemporary(temporary)
        defer {
            unlink(temporary)
            OutputFile.unregisterTemporary(temporary)
        }
        do {
            try data.write(to: URL(fileURLWithPath: temporary), options: .withoutOverwriting)
        } catch {
            throw StudioFailure(.internalError, "\(path): cannot write (\(StudioPath.reason(error)))")
        }
        let placed = replace ? rename(temporary, path) : link(temporary, path)
        guard placed == 0 else {
            if errno == EEXIST { throw exists(name) }
            throw StudioFailure(.internalError, "\(path): cannot put the file in place (\(String(cString: strerror(errno))))")
        }
    }
}
