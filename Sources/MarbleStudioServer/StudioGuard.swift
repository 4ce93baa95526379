#if Studio
import Hummingbird
import MarbleStudio

/// ``StudioAccess``'s rules in front of every route and socket.
struct StudioGuard<Context: RequestContext>: RouterMiddleware {
    let access: StudioAccess

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let header = request.headers.first { $0.name.canonicalName == "x-marble-token" }?.value
        let query = request.uri.queryParameters["token"].map(String.init)
        let cookie = request.headers[.cookie].flatMap { StudioAccess.cookie(named: StudioAccess.cookieName, in: $0) }
        let refusal = access.refusal(method: request.method.rawValue, host: request.head.authority ?? "",
                                     token: header ?? query ?? cookie,
                                     origin: request.headers[.origin],
                                     upgrade: request.headers[.upgrade]?.lowercased() == "websocket")
        if let refusal { return APIResponse.error(refusal) }
        do {
            var response = try await next(request, context)
            // The page opened with ?token=: the browser keeps it as a same-site cookie, so the page's own
            // files, pictures, media and sockets carry it too.
            if !access.configuration.isLoopback, query != nil {
                response.headers[.setCookie] = "\(StudioAccess.cookieName)=\(access.configuration.token); Path=/; HttpOnly; SameSite=Strict"
            }
            return response
        } catch let error as HTTPError {
            // What the router itself refuses (no such route, a method it does not take), as JSON too.
            let kind = StudioFailure.Kind(rawValue: Int(error.status.code)) ?? .badRequest
            let text = error.status == .notFound ? "no such page or API route: \(request.uri.path.prefix(100))" : error.status.reasonPhrase
            return APIResponse.error(StudioFailure(kind, text))
        }
    }
}
#endif
