import MilkDrop

/// Compiles `source` in a fresh memory (or `memory`), runs it once and gives the value of `(source)`.
func evaluate(_ source: String, in memory: ExpressionMemory? = nil) throws -> Double {
    let memory = memory ?? ExpressionMemory(globalBuffer: MegaBuffer())
    let program = try ExpressionProgram(compiling: "result__ = (\(source)\n)", memory: memory)
    program.run()
    return memory["result__"]
}

/// The error compiling `source` gives, nil when it compiles.
func compileError(_ source: String) -> ExpressionError? {
    do {
        _ = try ExpressionProgram(compiling: source, memory: ExpressionMemory(globalBuffer: MegaBuffer()))
        return nil
    } catch {
        return error
    }
}
