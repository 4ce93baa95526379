/// Compiles a MilkDrop 2 pixel shader (a preset's `warp_N` or `comp_N` text, backticks removed and
/// lines joined with `"\n"` as ``MilkPresetFile`` keeps it) into a ``ShaderProgram``.
///
/// The stages, each in its own file: ``ShaderLexer`` (text → tokens) → ``ShaderPreprocessor`` (the
/// header's and the preset's macros, `#if`) → ``ShaderParser`` (tokens → ``ShaderSource``, nesting
/// bounded) → ``ShaderLowering`` (inlining, scalarising, predication, loops; folding as it emits) →
/// ``ShaderOptimizer`` (dead code, `multiplyAdd`, registers). Every size a shader can ask for is
/// bounded by ``ShaderLimits``; a shader that does not compile is a ``ShaderError`` naming its line.
package enum ShaderCompiler {
    package static func compile(_ text: String, kind: MilkShaderKind) throws(ShaderError) -> ShaderProgram {
        do throws(ShaderFault) {
            guard text.utf8.count <= ShaderLimits.sourceBytes else {
                throw ShaderFault(0, "more than \(ShaderLimits.sourceBytes) bytes of shader text", .tooLarge)
            }
            let tokens = try ShaderLexer.tokens(throughLastBrace(text))
            guard tokens.count <= ShaderLimits.tokens else {
                throw ShaderFault(tokens[ShaderLimits.tokens].line, "more than \(ShaderLimits.tokens) tokens", .tooLarge)
            }
            var preprocessor = ShaderPreprocessor(predefined: ShaderHeader.macros)
            var parser = ShaderParser(tokens: try preprocessor.run(tokens))
            let source = try parser.parseSource()
            var lowering = ShaderLowering(kind: kind)
            let output = try lowering.lower(source)
            let program = try ShaderOptimizer.program(code: lowering.emitter.code, sources: lowering.emitter.sources,
                                                      output: output, samplers: lowering.samplers)
            guard program.executedOperationsBound <= ShaderLimits.executedOperations else {
                throw ShaderFault(0, "more than \(ShaderLimits.executedOperations) operations a pixel once its loops run", .tooLarge)
            }
            return program
        } catch {
            throw ShaderError(kind: kind, line: error.line, message: error.message, reason: error.reason)
        }
    }

    /// The text up to and including its last `}`. MilkDrop 2 ends the body at the text's final `}` (it
    /// writes its own last line and brace there) and so drops whatever follows it: an author's note
    /// such as "written by martin / END" after the body compiles in MilkDrop, and here. Cutting at the
    /// end keeps every line number. Text without a `}` is kept whole (the parser names what is missing).
    static func throughLastBrace(_ text: String) -> String {
        let bytes = text.utf8
        guard let brace = bytes.lastIndex(of: UInt8(ascii: "}")) else { return text }
        return String(text[...brace])
    }

    /// Compiles a preset's shader block, the error's line being the `.milk` file's.
    package static func compile(_ block: CodeBlock, kind: MilkShaderKind) throws(ShaderError) -> ShaderProgram {
        do {
            return try compile(block.text, kind: kind)
        } catch {
            var located = error
            if error.line > 0 { located.line = block.line(atOffset: lineOffset(block.text, line: error.line)) }
            throw located
        }
    }

    /// The UTF-8 offset where 1-based `line` of `text` starts.
    private static func lineOffset(_ text: String, line: Int) -> Int {
        var current = 1, offset = 0
        for byte in text.utf8 {
            if current >= line { break }
            if byte == 0x0A { current += 1 }
            offset += 1
        }
        return offset
    }
}
