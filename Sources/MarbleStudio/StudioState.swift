import Foundation
import MarbleCore
import MarbleRender

/// What a running studio holds, shared by every request and socket: its configuration, the folders it
/// may read, the analyses of the songs opened, the saved presets and the render queue.
package final class StudioState: Sendable {
    /// The picture path a preview's render options name: never written (a preview draws in memory), it
    /// only has to pass a render's output checks.
    package static let previewPicture = FileManager.default.temporaryDirectory.appendingPathComponent("marble-studio-preview.png").path

    package let configuration: StudioConfiguration
    /// The only folders it reads and writes.
    package let folders: StudioFolders
    package let presets: StudioPresets
    package let milkDrop: MilkDropShelf
    package let analyses = AnalysisCache()
    package let events = StudioEvents()
    package let connections = StudioConnections()
    package let renders: RenderQueue

    /// - Throws: `.option` for a folder that is not one (or an output folder that cannot be made).
    package init(_ configuration: StudioConfiguration) throws(MarbleError) {
        try configuration.validate()
        self.configuration = configuration
        folders = try StudioFolders(songs: configuration.folders, milkDrop: configuration.milkdrop, output: configuration.output)
        presets = StudioPresets(folders: folders)
        milkDrop = MilkDropShelf(folder: folders.milkDrop)
        let events = events
        renders = RenderQueue(outputFolder: folders.output, concurrency: configuration.jobs) { events.publish($0) }
    }

    /// The RENDER's command and the render itself, for `song` (in `folder`) with the preset `name`
    /// (bundled, or saved in the output folder) and `settings`.
    package func submitRender(song relative: String, folder: Int, preset name: String,
                              settings: RenderSettings) throws(StudioFailure) -> RenderStatus {
        let files = try renderFiles(song: relative, folder: folder, preset: name, settings: settings)
        do {
            return try renders.submit(song: (files.song, relative), preset: (name, files.preset), settings: settings,
                                      backgroundFile: files.background)
        } catch {
            throw StudioFailure(error.kind == .transient ? .tooMany : error.kind == .output ? .internalError : .badRequest, error.message)
        }
    }

    /// The `marble render` command (or, in pieces, the commands) that gives the bytes of the render
    /// ``submitRender(song:folder:preset:settings:)`` would start now.
    package func command(song relative: String, folder: Int, preset name: String,
                         settings: RenderSettings) throws(StudioFailure) -> String {
        let files = try renderFiles(song: relative, folder: folder, preset: name, settings: settings)
        do {
            return try renders.command(song: (files.song, relative), preset: (name, files.preset), settings: settings,
                                       backgroundFile: files.background)
        } catch {
            throw StudioFailure(.badRequest, error.message)
        }
    }

    /// The files a render of `song` (in `folder`) with the preset `name` and `settings` reads, resolved
    /// inside the studio's folders.
    private func renderFiles(song relative: String, folder: Int, preset name: String,
                             settings: RenderSettings) throws(StudioFailure) -> (song: String, preset: String, background: String?) {
        (try songPath(relative, folder: folder), try presetPath(name), try backgroundPath(of: settings))
    }

    private func backgroundPath(of settings: RenderSettings) throws(StudioFailure) -> String? {
        guard case .file(let path, let folder)? = settings.background else { return nil }
        return try songPath(path, folder: folder)
    }

    /// What `--preset` takes for the preset called `name`: a bundled name, or a saved file's path.
    package func presetPath(_ name: String) throws(StudioFailure) -> String {
        if PresetLibrary.names().contains(name) { return name }
        guard StudioPresets.isValidName(name) else { throw StudioFailure(.badRequest, "preset: \(name.prefix(80)) is not a preset name (1–64 of A–Z a–z 0–9 - _)") }
        let path = folders.presets + "/\(name).yaml"
        guard FileManager.default.fileExists(atPath: path) else { throw StudioFailure(.notFound, "preset: no preset \(name) (save the look first)") }
        return path
    }

    /// Cancels the renders still running or waiting (their files removed), ends the pages' event
    /// streams and closes every socket; returns how many renders there were.
    package func shutdown() async -> Int {
        let running = renders.list().filter { !$0.state.hasEnded }.count
        renders.shutdown()
        events.finish()
        await connections.closeAll()
        return running
    }

    /// SETTINGS read from the page's JSON, checked as the command line's options.
    package func settings(fromJSONValue value: Any) throws(StudioFailure) -> RenderSettings {
        let text = try StudioJSON.text(of: value)
        let settings: RenderSettings
        do { settings = try JSONDecoder().decode(RenderSettings.self, from: Data(text.utf8)) } catch let e as MarbleError {
            throw StudioFailure(.badRequest, e.message)
        } catch {
            throw StudioFailure(.badRequest, "settings: expected an object")
        }
        do { try settings.validate() } catch { throw StudioFailure(.badRequest, error.message) }
        return settings
    }

    /// The real path of `relative` inside song folder `folder`, refused outside it.
    package func songPath(_ relative: String, folder: Int) throws(StudioFailure) -> String {
        try folders.resolve(relative: relative, folder: folder)
    }

    /// A LOOK (a preset as JSON) read by the preset files' own loader, its file parameters kept inside
    /// the studio's folders.
    package func look(fromJSONValue value: Any) throws(StudioFailure) -> Preset {
        let preset: Preset
        do { preset = try StudioLook.parse(jsonObject: value, source: "look") } catch { throw StudioFailure(.badRequest, error.message) }
        return try folders.checkLookPaths(preset)
    }
}
