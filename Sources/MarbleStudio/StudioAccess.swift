import Foundation

/// Who may use the studio (docs/STUDIO.md, "Security"), decided from a request's facts so that the
/// rules are tested without a server:
/// - listening on loopback, the `Host` must be a loopback name, so a page elsewhere cannot reach the
///   studio by pointing a name of its own at 127.0.0.1 (DNS rebinding);
/// - listening anywhere else, the access token must come with the request (the `X-Marble-Token` header,
///   or `?token=` for the page's first load, its sockets, media and downloads), compared in constant time;
/// - a request that changes something (any method but GET and HEAD) and every WebSocket must come with
///   no `Origin` or the studio's own.
package struct StudioAccess: Sendable {
    package let configuration: StudioConfiguration

    package init(configuration: StudioConfiguration) {
        self.configuration = configuration
    }

    /// Nil when the request may go on, else why not. `host` is the request's `Host` (with its port),
    /// `token` the one it carries (header or query), `origin` its `Origin` header.
    package func refusal(method: String, host: String, token: String?, origin: String?, upgrade: Bool) -> StudioFailure? {
        if configuration.isLoopback {
            guard StudioConfiguration.isLoopback(Self.name(ofHost: host)) else {
                return StudioFailure(.forbidden, "this studio answers only to requests for 127.0.0.1, localhost or ::1")
            }
        } else if !Self.same(token ?? "", configuration.token) {
            return StudioFailure(.unauthorized, "the access token is missing or wrong (open the URL marble studio printed)")
        }
        let changes = method != "GET" && method != "HEAD"
        if changes || upgrade, let origin, origin != "http://\(host)" {
            return StudioFailure(.forbidden, "requests from another site (\(origin.prefix(80))) may not change anything here")
        }
        return nil
    }

    /// The cookie a page opened with `?token=` keeps the token in.
    package static let cookieName = "marble_token"

    /// The value of cookie `name` in a `Cookie` header (`a=1; marble_token=…`), nil when absent.
    package static func cookie(named name: String, in header: String) -> String? {
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                return String(parts[1].trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }

    /// `host` without its port (`[::1]:8140` → `::1`, `localhost:8140` → `localhost`).
    package static func name(ofHost host: String) -> String {
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            return String(host[host.index(after: host.startIndex)..<close])
        }
        return String(host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// Equal strings, in a time that does not depend on where they differ.
    package static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference: UInt8 = x.count == y.count ? 0 : 1
        for i in 0..<min(x.count, y.count) { difference |= x[i] ^ y[i] }
        return difference == 0
    }

    /// One range of `bytes=A-B`, `bytes=A-` or `bytes=-N` within a file of `size` bytes; nil when the
    /// header is not one such range (several ranges are refused too: the page never asks for them).
    package static func byteRange(_ header: String, size: Int) -> ClosedRange<Int>? {
        guard header.hasPrefix("bytes="), !header.contains(","), size > 0 else { return nil }
        let spec = header.dropFirst("bytes=".count).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2, spec.allSatisfy({ $0.count <= 18 && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
        switch (Int(spec[0]), Int(spec[1])) {
        case (let start?, let end?) where start <= end && start < size: return start...min(end, size - 1)
        case (let start?, nil) where spec[1].isEmpty && start < size: return start...(size - 1)
        case (nil, let suffix?) where spec[0].isEmpty && suffix > 0: return max(0, size - suffix)...(size - 1)
        default: return nil
        }
    }
}
