import Foundation
import MarbleControl
import MarbleCore
import MarbleRender

/// Presets reload on save in `play` and `live`: the files of the presets a session can show are
/// watched (``FileWatcher``), and when one is saved, or SIGUSR1 asks for it (``reloadCurrent()``), it is
/// read and checked off the frame path. The verdict goes to the store
/// (``ControlEvent/presetFileSaved(name:error:)``): a good file is drawn again from the next frame,
/// keeping the analysis; a bad one keeps the last good look, and its error (file and line) shows in
/// the status line and goes to `report` (stderr when no terminal is drawn).
package final class PresetReload: Sendable {
    private let watcher: FileWatcher
    /// Preset (name or path) → its file, standardized as the watcher reports it.
    private let files: [String: String]
    private let store: SessionComponent
    private let report: @Sendable (String) -> Void

    /// Watches the files of `presets` (names or paths); `report` gets each reload's error.
    /// - Throws: `.device` when a folder cannot be watched.
    package init(presets: [String], store: SessionComponent, report: @escaping @Sendable (String) -> Void) throws(MarbleError) {
        var files: [String: String] = [:]
        for preset in presets {
            if let url = try? PresetLibrary.file(of: preset) { files[preset] = url.standardizedFileURL.path }
        }
        watcher = try FileWatcher(paths: Array(Set(files.values)))
        self.files = files
        self.store = store
        self.report = report
    }

    /// Starts watching.
    package func start() {
        watcher.start { [self] path in
            for (preset, file) in files where file == path { reload(preset) }
        }
    }

    /// Stops watching (idempotent).
    package func stop() { watcher.stop() }

    /// Reads the current preset's file again (SIGUSR1).
    func reloadCurrent() {
        if let preset = store.snapshot.preset { reload(preset) }
    }

    /// Reads and checks `preset`'s file, and tells the store.
    func reload(_ preset: String) {
        var error: String?
        do throws(MarbleError) {
            try PresetLibrary.load(preset).validate()
        } catch let e {
            error = e.message
            if store.snapshot.preset == preset { report("preset not reloaded, the last good one stays: \(e.message)") }
        }
        store.send(.controls(.presetFileSaved(name: preset, error: error)))
    }
}
