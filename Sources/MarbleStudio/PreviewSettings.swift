import MarbleCore
import MarbleKit
import MarbleMedia

/// The render settings a preview shows: the title, the background and how it fits (size, rate, format
/// and the encoder's settings do not change the look). Taken from the page's ``RenderSettings``, the
/// background song resolved inside the studio's folders.
package struct PreviewSettings: Sendable, Equatable {
    package var title: String?
    /// nil: none; `RenderOptions.coverBackground` for the song's own cover; else an absolute path.
    package var background: String?
    package var fit = Fit.cover

    package init() {}

    package init(_ settings: RenderSettings, studio: StudioState) throws(StudioFailure) {
        do { try settings.validate() } catch { throw StudioFailure(.badRequest, error.message) }
        title = settings.title.flatMap { $0.isEmpty ? nil : $0 }
        switch settings.background {
        case nil, .none?: background = nil
        case .cover?: background = RenderOptions.coverBackground
        case .file(let path, let folder)?: background = try studio.songPath(path, folder: folder)
        }
        fit = settings.fit.flatMap(Fit.init(rawValue:)) ?? .cover
    }

    /// Sets these on a render's options.
    package func apply(to options: inout RenderOptions) {
        options.title = title
        options.background = background
        options.fit = fit
    }
}
