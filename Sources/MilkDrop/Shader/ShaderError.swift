/// Which of a preset's two shaders a compile concerns.
package enum MilkShaderKind: String, Sendable, Equatable {
    /// `warp_N`: reads the previous frame through the warp mesh's coordinates, writes the feedback buffer.
    case warp
    /// `comp_N`: turns the feedback buffer into the picture shown.
    case composite
}

/// Why a shader did not compile: which shader, the line of its text (1-based), a one-line message and
/// a category for grouping a corpus report.
package struct ShaderError: Error, CustomStringConvertible, Sendable, Equatable {
    package enum Reason: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// Text that is not HLSL: a stray character, a missing `;`, an unbalanced brace.
        case syntax
        /// A name that is neither declared nor MilkDrop's (`unknown identifier "foo"`).
        case unknownIdentifier
        /// Operands or arguments whose types do not fit (`float2 * float3x3`, a wrong argument count).
        case typeMismatch
        /// HLSL the compiler does not support (the payload names it: `struct`, `array`, `ddx` ...).
        case unsupported(String)
        /// Past one of ``ShaderLimits`` (text, tokens, nesting, operations, registers, recursion).
        case tooLarge
        /// A problem in the preprocessor's directives.
        case preprocessor

        package var description: String {
            switch self {
            case .syntax: "syntax"
            case .unknownIdentifier: "unknown identifier"
            case .typeMismatch: "type mismatch"
            case .unsupported(let what): "unsupported feature \(what)"
            case .tooLarge: "too large or too deep"
            case .preprocessor: "preprocessor"
            }
        }
    }

    package var kind: MilkShaderKind
    /// 1-based line in the shader's text (0 when the problem has no line, e.g. the text is too large).
    package var line: Int
    package var message: String
    package var reason: Reason

    package init(kind: MilkShaderKind, line: Int, message: String, reason: Reason) {
        self.kind = kind; self.line = line; self.message = message; self.reason = reason
    }

    package var description: String { "\(kind.rawValue) shader line \(line): \(message)" }
}

/// An error found before the shader's kind is attached (the lexer, parser and lowering throw these;
/// ``ShaderCompiler`` turns them into ``ShaderError``).
struct ShaderFault: Error {
    var line: Int
    var message: String
    var reason: ShaderError.Reason

    init(_ line: Int, _ message: String, _ reason: ShaderError.Reason = .syntax) {
        self.line = line; self.message = message; self.reason = reason
    }
}
