/// Why a code block did not compile: where (a UTF-8 offset into the source) and what, in one line.
public struct ExpressionError: Error, CustomStringConvertible, Sendable, Equatable {
    /// UTF-8 offset in the source where the problem is (the source's length for "unexpected end").
    public var offset: Int
    /// One line, e.g. `unknown function "sinn"` or `expected ")"`.
    public var message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { "\(message) (at offset \(offset))" }
}
