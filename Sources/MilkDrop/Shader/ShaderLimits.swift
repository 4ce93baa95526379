/// Bounds that keep a hostile or broken shader from taking the machine, checked by the compiler
/// before anything they bound is allocated or walked. MilkDrop's own shaders stay far below them
/// (Debian's largest is about 12 kB of text, 1,000 operations once compiled).
package enum ShaderLimits {
    /// Bytes of shader text (MilkDrop's own buffer holds 128,000 with its header).
    package static let sourceBytes = 128_000
    /// Tokens after macro expansion.
    package static let tokens = 100_000
    /// Nesting of parentheses, operators, blocks and statements the parser follows before it gives up
    /// (the parser recurses once per level: this bounds its stack).
    package static let nesting = 200
    /// Macro expansions in one shader, and how deep one macro may expand inside another.
    package static let macroExpansions = 20_000, macroDepth = 32
    /// Nested inlined user-function calls (recursion is an error before this).
    package static let callDepth = 16
    /// Operations emitted before optimisation, including unrolled loop bodies and inlined functions.
    package static let operations = 200_000
    /// Operations one pixel may execute once loops run (``ShaderProgram/executedOperationsBound``):
    /// pixel shader model 3.0's own limit of executed instructions. Past it a program is refused: it
    /// would hold up every frame for seconds (Debian's heaviest shader executes about 750).
    package static let executedOperations = 65_535
    /// Registers of the finished program.
    package static let registers = 4_096
    /// Statements and expressions the lowering walks in all (unrolled loops and inlined functions walk
    /// their bodies again): bounds the compile time of loops in loops and calls of calls.
    package static let loweringSteps = 1_000_000
    /// Elements of one array (pixel shader model 3.0 has 224 constant registers of four floats).
    package static let arrayElements = 256
    /// Iterations a loop with constant bounds is unrolled into; longer loops run masked, bounded at run
    /// time by ``ShaderProgram/maxLoopIterations``.
    package static let unrolledIterations = 64
}
