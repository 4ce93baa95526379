/// Names an in-flight effect so that it can be cancelled (or replaced: `cancelInFlight`).
///
/// Several effects may share one id; cancelling the id cancels all of them, and the store drops any
/// event they send after the cancellation (so a stale result never lands).
public struct GraniteEffectID: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The id's text; two ids with the same name are the same id.
    public let name: String

    /// An id named `name` (a string literal works too: `let id: GraniteEffectID = "load"`).
    public init(_ name: String) { self.name = name }
    /// An id named by a string literal.
    public init(stringLiteral value: String) { self.name = value }

    /// The id's name.
    public var description: String { name }
}
