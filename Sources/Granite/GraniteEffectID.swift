/// Names an in-flight effect so that it can be cancelled (or replaced: `cancelInFlight`).
///
/// Several effects may share one id; cancelling the id cancels all of them, and the store drops any
/// event they send after the cancellation (so a stale result never lands).
public struct GraniteEffectID: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let name: String

    public init(_ name: String) { self.name = name }
    public init(stringLiteral value: String) { self.name = value }

    public var description: String { name }
}
