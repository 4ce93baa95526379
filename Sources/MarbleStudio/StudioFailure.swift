/// Why a studio request was refused: an HTTP status's meaning and one sentence for the page
/// (`{"error": "…"}`; docs/STUDIO.md, "Errors").
package struct StudioFailure: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Int, Sendable {
        case badRequest = 400, unauthorized = 401, forbidden = 403, notFound = 404, conflict = 409
        case tooLarge = 413, tooMany = 429, internalError = 500
    }

    package var kind: Kind
    package var message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The HTTP status code.
    package var status: Int { kind.rawValue }

    package var description: String { message }
}

/// Bounds on what a page may send.
package enum StudioLimits {
    /// A request body or socket message (uploads aside): 1 MB.
    package static let maxBody = 1 << 20
}
