#if Studio
import Foundation
import Hummingbird

/// The page: plain HTML, CSS and JavaScript built into the binary (Page/, embedded by SwiftPM), or read
/// from `folder` on every request when `MARBLE_STUDIO_PAGE` names one (to work on the page without a
/// rebuild).
struct StudioPage {
    let folder: String?

    /// The page's files: URL path, file name, content type.
    private static let files: [(path: String, name: String, type: String)] = [
        ("/", "index.html", "text/html; charset=utf-8"),
        ("/studio.js", "studio.js", "text/javascript; charset=utf-8"),
        ("/studio.css", "studio.css", "text/css; charset=utf-8"),
        ("/favicon.svg", "favicon.svg", "image/svg+xml"),
        ("/favicon.ico", "favicon.svg", "image/svg+xml"),
    ]

    private static func embedded(_ name: String) -> [UInt8] {
        switch name {
        case "index.html": PackageResources.index_html
        case "studio.js": PackageResources.studio_js
        case "studio.css": PackageResources.studio_css
        default: PackageResources.favicon_svg
        }
    }

    /// Only the studio's own files, scripts and sockets; no framing by other sites.
    private static let policy = "default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; connect-src 'self' ws: wss:; style-src 'self'; script-src 'self'; frame-ancestors 'none'"

    func add(to router: Router<StudioContext>) {
        for file in Self.files {
            router.get(RouterPath(file.path)) { _, _ -> Response in
                let bytes = folder.flatMap { FileManager.default.contents(atPath: $0 + "/" + file.name).map(Array.init) }
                    ?? Self.embedded(file.name)
                return Response(status: .ok,
                                headers: [.contentType: file.type, .cacheControl: "no-cache", .xContentTypeOptions: "nosniff",
                                          .contentSecurityPolicy: Self.policy],
                                body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
            }
        }
    }
}
#endif
