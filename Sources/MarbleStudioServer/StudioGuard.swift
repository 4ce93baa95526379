#if Studio
import Foundation
import Hummingbird
import MarbleStudio

/// The rules every request passes before a route sees it (docs/STUDIO.md, "Security"):
/// - listening on loopback, the `Host` must be a loopback name, so a page elsewhere cannot reach the
///   studio by pointing a name of its own at 127.0.0.1 (DNS rebinding);
/// - listening anywhere else, the access token must come with the request: the `X-Marble-Token` header,
///   or `?token=` (the page's first load, its sockets, media and downloads), compared in constant time;
/// - a request that changes something (any method but GET and HEAD) and every WebSocket must come with
///   no `Origin` or the studio's own.
struct StudioGuard<Context: RequestContext>: RouterMiddleware {
    let configuration: StudioConfiguration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let host = request.head.authority ?? ""
        if configuration.isLoopback {
            guard StudioConfiguration.isLoopback(Self.name(ofHost: host)) else {
                return APIResponse.error(StudioFailure(.forbidden, "this studio answers only to requests for 127.0.0.1, localhost or ::1"))
            }
        } else {
            let header = request.headers.first { $0.name.canonicalName == "x-marble-token" }?.value
            let given = header ?? request.uri.queryParameters["token"].map(String.init) ?? ""
            guard Self.same(given, configuration.token) else {
                return APIResponse.error(StudioFailure(.unauthorized, "the access token is missing or wrong (open the URL marble studio printed)"))
            }
        }
        let changes = request.method != .get && request.method != .head
        let upgrade = request.headers[.upgrade]?.lowercased() == "websocket"
        if changes || upgrade, let origin = request.headers[.origin], origin != "http://\(host)" {
            return APIResponse.error(StudioFailure(.forbidden, "requests from another site (\(origin.prefix(80))) may not change anything here"))
        }
        return try await next(request, context)
    }

    /// `host` without its port (`[::1]:8140` → `::1`, `localhost:8140` → `localhost`).
    static func name(ofHost host: String) -> String {
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            return String(host[host.index(after: host.startIndex)..<close])
        }
        return String(host.split(separator: ":", maxSplits: 1).first ?? "")
    }

    /// Equal strings, in a time that does not depend on where they differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<min(x.count, y.count) { difference |= x[i] ^ y[i] }
        return difference == 0 && x.count == y.count
    }
}
#endif
