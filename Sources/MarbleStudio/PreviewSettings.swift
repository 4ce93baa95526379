import MarbleCore
import MarbleKit
import MarbleMedia

/// The render settings a preview shows: the title, the background and how it fits (the rest of a
/// render's settings, size, rate, format, do not change the look). Read from the SETTINGS object of
/// docs/STUDIO.md; fields a preview ignores are left to the render.
package struct PreviewSettings: Sendable, Equatable {
    package var title: String?
    /// nil: none; `RenderOptions.coverBackground` for the song's own cover; else an absolute path.
    package var background: String?
    package var fit = Fit.cover

    package init() {}

    /// Reads `value` (a JSON object), resolving a background song through `studio`'s folders.
    package init(_ value: Any, studio: StudioState) throws(StudioFailure) {
        guard let object = value as? [String: Any] else { throw StudioFailure(.badRequest, "settings: expected an object") }
        if let title = object["title"] {
            guard let text = title as? String, text.utf8.count <= 1000 else { throw StudioFailure(.badRequest, "settings.title: expected text of at most 1000 bytes") }
            self.title = text.isEmpty ? nil : text
        }
        switch object["background"] {
        case nil, "none" as String: background = nil
        case "cover" as String: background = RenderOptions.coverBackground
        case let song as [String: Any]:
            guard let path = song["song"] as? String else { throw StudioFailure(.badRequest, "settings.background.song: missing") }
            background = try studio.songPath(path, folder: try StudioJSON.integer(song, "folder", default: 0))
        default: throw StudioFailure(.badRequest, "settings.background: expected \"none\", \"cover\" or {\"song\": PATH, \"folder\": N}")
        }
        if let fit = object["fit"] {
            guard let text = fit as? String, let value = Fit(rawValue: text) else {
                throw StudioFailure(.badRequest, "settings.fit: expected \"contain\" or \"cover\"")
            }
            self.fit = value
        }
    }

    /// Sets these on a render's options.
    package func apply(to options: inout RenderOptions) {
        options.title = title
        options.background = background
        options.fit = fit
    }
}
