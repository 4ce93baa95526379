/// Why a code block did not compile: where (a UTF-8 offset into the source) and what, in one line.
package struct ExpressionError: Error, CustomStringConvertible, Sendable, Equatable {
    /// UTF-8 offset in the source where the problem is (the source's length for "unexpected end").
    package var offset: Int
    /// One line, e.g. `unknown function "sinn"` or `expected ")"`.
    package var message: String

    package init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    package var description: String { "\(message) (at offset \(offset))" }
}
