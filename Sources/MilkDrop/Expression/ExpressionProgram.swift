import Foundation

/// One compiled code block (a preset's per-frame code, its per-pixel code…), bound to the
/// `ExpressionMemory` whose variables it reads and writes.
///
/// Compiling parses the text once into a compact stack-machine program (see `ExpressionCompiler`);
/// `run()` then only walks that array over raw buffers sized at compile time: no strings, no
/// allocation (except ns-eel2's own lazy `megabuf` blocks on the first write into a block), no
/// reference counting, and it cannot throw or trap. A program is not reentrant: run it from one thread
/// at a time (its evaluation stack is its own).
///
/// Speed (release, one core of the CI-class machine): a per-pixel block of five statements with four
/// sin/cos calls compiles to 50 instructions and runs in about 110–150 ns, half of it in libm's sin/cos;
/// the interpreter itself costs about 1 ns per instruction.
///
/// Work: a run is charged in instructions without a count per instruction, so the budget costs the
/// hot loop nothing measurable. A run costs the block's static length up front (``instructionCount``,
/// known when it compiles: an upper bound on straight-line code, whichever branches it takes); each
/// loop back edge (`loopNext`, `whileNext`) charges the static length of the loop's body, which the
/// instruction finds from its own jump target; `memset` charges an eighth of its entries and `memcpy`
/// all of them (a fill runs at memory speed, a copy entry by entry). ``run(budget:)`` stops as soon
/// as the budget is spent, so a hostile loop costs at most one body's length past it.
package final class ExpressionProgram {
    /// The memory this program's variables live in (kept alive by the program).
    package let memory: ExpressionMemory

    private let code: UnsafeMutablePointer<ExpressionInstruction>
    private let codeCount: Int
    private let stack: UnsafeMutablePointer<Double>
    private let counters: UnsafeMutablePointer<Int>
    private let variables: UnsafeMutablePointer<Double>
    private let registers: UnsafeMutablePointer<Double>
    private let localBlocks: UnsafeMutablePointer<UnsafeMutablePointer<Double>?>
    private let globalBlocks: UnsafeMutablePointer<UnsafeMutablePointer<Double>?>
    private let randomState: UnsafeMutablePointer<UInt64>

    /// Compiles `source` against `memory`, interning every variable it names (so their slots exist
    /// before the first run). Throws the first syntax error, an unknown function or "too many variables".
    package init(compiling source: String, memory: ExpressionMemory) throws(ExpressionError) {
        self.memory = memory
        var parser = ExpressionParser(tokens: try ExpressionLexer.tokens(source), memory: memory)
        let tree = try parser.parseProgram()
        let compiled = ExpressionCompiler.compile(tree)
        codeCount = compiled.code.count
        code = .allocate(capacity: codeCount)
        code.initialize(from: compiled.code, count: codeCount)
        stack = .allocate(capacity: compiled.maximumDepth + 1)
        stack.initialize(repeating: 0, count: compiled.maximumDepth + 1)
        counters = .allocate(capacity: compiled.maximumLoops + 1)
        counters.initialize(repeating: 0, count: compiled.maximumLoops + 1)
        variables = memory.values
        registers = memory.globalBuffer.registers
        localBlocks = memory.buffer.blocks
        globalBlocks = memory.globalBuffer.blocks
        randomState = memory.randomState
    }

    deinit {
        code.deallocate()
        stack.deallocate()
        counters.deallocate()
    }

    /// True when the block has no statement (only blanks, `;` and comments): running it does nothing.
    package var isEmpty: Bool { codeCount == 1 }

    /// Number of instructions (a measure of the block's size).
    package var instructionCount: Int { codeCount - 1 }

    /// Runs the block `times` times in a row (e.g. a per-point block whose inputs the caller does not
    /// change between runs); same as calling `run()` that many times.
    package func run(times: Int) {
        for _ in 0..<max(0, times) { run() }
    }

    /// Evaluates the block once, with no bound on its work but the loops' own caps.
    package func run() {
        var unlimited = Int.max
        _ = run(budget: &unlimited)
    }

    /// Evaluates the block once within `budget` instructions (see the type's "Work"), taking what it
    /// used from `budget`. Returns false when the budget ran out: the run stopped there at once (what it
    /// wrote so far stays written, the same on every run) and `budget` is 0. A block longer than the
    /// budget does not start.
    // Long on purpose: the interpreter's one switch over opcodes; split, each instruction would pay a call.
    package func run(budget: inout Int) -> Bool {
        let code = self.code, stack = self.stack, vars = self.variables, counters = self.counters
        var pc = 0, sp = 0, loops = 0
        var left = budget &- codeCount
        guard left >= 0 else { budget = 0; return false }
        while true {
            let i = code[pc]
            pc += 1
            switch i.op {
            case .end:
                assert(sp == 0 && loops == 0, "compiled program left its stack unbalanced")
                budget = left
                return true
            case .pushConst: stack[sp] = i.k; sp += 1
            case .pushVar: stack[sp] = vars[Int(i.a)]; sp += 1
            case .pushRegister: stack[sp] = registers[Int(i.a)]; sp += 1
            case .storeVar: vars[Int(i.a)] = stack[sp - 1]
            case .storeVarPop: sp -= 1; vars[Int(i.a)] = stack[sp]
            case .storeRegister: registers[Int(i.a)] = stack[sp - 1]
            case .pop: sp -= 1

            case .negate: stack[sp - 1] = -stack[sp - 1]
            case .not: stack[sp - 1] = ExpressionMath.truth(stack[sp - 1]) ? 0 : 1
            case .toBool: stack[sp - 1] = ExpressionMath.truth(stack[sp - 1]) ? 1 : 0
            case .sin: stack[sp - 1] = Foundation.sin(stack[sp - 1])
            case .cos: stack[sp - 1] = Foundation.cos(stack[sp - 1])
            case .tan: stack[sp - 1] = Foundation.tan(stack[sp - 1])
            case .asin: stack[sp - 1] = Foundation.asin(stack[sp - 1])
            case .acos: stack[sp - 1] = Foundation.acos(stack[sp - 1])
            case .atan: stack[sp - 1] = Foundation.atan(stack[sp - 1])
            case .sqr: stack[sp - 1] *= stack[sp - 1]
            case .sqrt: stack[sp - 1] = ExpressionMath.sqrt(stack[sp - 1])
            case .invsqrt: stack[sp - 1] = ExpressionMath.invsqrt(stack[sp - 1])
            case .exp: stack[sp - 1] = Foundation.exp(stack[sp - 1])
            case .log: stack[sp - 1] = ExpressionMath.log(stack[sp - 1])
            case .log10: stack[sp - 1] = ExpressionMath.log10(stack[sp - 1])
            case .abs: stack[sp - 1] = Swift.abs(stack[sp - 1])
            case .sign: stack[sp - 1] = ExpressionMath.sign(stack[sp - 1])
            case .int: stack[sp - 1] = ExpressionMath.int(stack[sp - 1])
            case .floor: stack[sp - 1] = stack[sp - 1].rounded(.down)
            case .ceil: stack[sp - 1] = stack[sp - 1].rounded(.up)
            case .rand: stack[sp - 1] = ExpressionMath.random(stack[sp - 1], randomState)

            case .add: sp -= 1; stack[sp - 1] += stack[sp]
            case .subtract: sp -= 1; stack[sp - 1] -= stack[sp]
            case .multiply: sp -= 1; stack[sp - 1] *= stack[sp]
            case .divide: sp -= 1; stack[sp - 1] = ExpressionMath.divide(stack[sp - 1], stack[sp])
            case .modulo: sp -= 1; stack[sp - 1] = ExpressionMath.modulo(stack[sp - 1], stack[sp])
            case .power: sp -= 1; stack[sp - 1] = ExpressionMath.power(stack[sp - 1], stack[sp])
            case .equal: sp -= 1; stack[sp - 1] = ExpressionMath.equal(stack[sp - 1], stack[sp]) ? 1 : 0
            case .notEqual: sp -= 1; stack[sp - 1] = ExpressionMath.equal(stack[sp - 1], stack[sp]) ? 0 : 1
            case .less: sp -= 1; stack[sp - 1] = stack[sp - 1] < stack[sp] ? 1 : 0
            case .greater: sp -= 1; stack[sp - 1] = stack[sp - 1] > stack[sp] ? 1 : 0
            case .lessOrEqual: sp -= 1; stack[sp - 1] = stack[sp - 1] <= stack[sp] ? 1 : 0
            case .greaterOrEqual: sp -= 1; stack[sp - 1] = stack[sp - 1] >= stack[sp] ? 1 : 0
            case .bitAnd:
                sp -= 1
                stack[sp - 1] = Double(ExpressionMath.integer(stack[sp - 1]) & ExpressionMath.integer(stack[sp]))
            case .bitOr:
                sp -= 1
                stack[sp - 1] = Double(ExpressionMath.integer(stack[sp - 1]) | ExpressionMath.integer(stack[sp]))
            case .min: sp -= 1; stack[sp - 1] = Swift.min(stack[sp - 1], stack[sp])
            case .max: sp -= 1; stack[sp - 1] = Swift.max(stack[sp - 1], stack[sp])
            case .atan2: sp -= 1; stack[sp - 1] = Foundation.atan2(stack[sp - 1], stack[sp])
            case .sigmoid: sp -= 1; stack[sp - 1] = ExpressionMath.sigmoid(stack[sp - 1], stack[sp])

            case .addConst: stack[sp - 1] += i.k
            case .subtractConst: stack[sp - 1] -= i.k
            case .multiplyConst: stack[sp - 1] *= i.k
            case .divideConst: stack[sp - 1] /= i.k
            case .addVar: stack[sp - 1] += vars[Int(i.a)]
            case .subtractVar: stack[sp - 1] -= vars[Int(i.a)]
            case .multiplyVar: stack[sp - 1] *= vars[Int(i.a)]
            case .divideVar: stack[sp - 1] = ExpressionMath.divide(stack[sp - 1], vars[Int(i.a)])

            case .jump: pc = Int(i.a)
            case .jumpIfFalse:
                sp -= 1
                if !ExpressionMath.truth(stack[sp]) { pc = Int(i.a) }
            case .andLeft:
                if ExpressionMath.truth(stack[sp - 1]) { sp -= 1 } else { stack[sp - 1] = 0; pc = Int(i.a) }
            case .orLeft:
                if ExpressionMath.truth(stack[sp - 1]) { stack[sp - 1] = 1; pc = Int(i.a) } else { sp -= 1 }
            case .loopStart:
                let n = ExpressionMath.integer(stack[sp - 1])
                stack[sp - 1] = 0
                if n <= 0 {
                    pc = Int(i.a)
                } else {
                    counters[loops] = Int(Swift.min(n, Int64(MilkDropLimits.loopIterations)))
                    loops += 1
                }
            case .loopNext:
                counters[loops - 1] -= 1
                if counters[loops - 1] > 0 {
                    left &-= pc &- Int(i.a)          // the body again: from its start to here
                    if left < 0 { budget = 0; return false }
                    pc = Int(i.a)
                } else {
                    loops -= 1
                }
            case .whileStart:
                stack[sp] = 0
                sp += 1
                counters[loops] = MilkDropLimits.loopIterations
                loops += 1
            case .whileNext:
                counters[loops - 1] -= 1
                if ExpressionMath.truth(stack[sp - 1]) && counters[loops - 1] > 0 {
                    left &-= pc &- Int(i.a)
                    if left < 0 { budget = 0; return false }
                    pc = Int(i.a)
                } else {
                    loops -= 1
                }

            case .memLoad: stack[sp - 1] = MegaBuffer.read(localBlocks, stack[sp - 1])
            case .globalLoad: stack[sp - 1] = MegaBuffer.read(globalBlocks, stack[sp - 1])
            case .memStore:
                sp -= 1
                MegaBuffer.write(localBlocks, stack[sp - 1], stack[sp])
                stack[sp - 1] = stack[sp]
            case .globalStore:
                sp -= 1
                MegaBuffer.write(globalBlocks, stack[sp - 1], stack[sp])
                stack[sp - 1] = stack[sp]
            case .memUpdate, .globalUpdate:
                sp -= 1
                let blocks = i.op == .memUpdate ? localBlocks : globalBlocks
                let op = BinaryOperator(rawValue: UInt8(truncatingIfNeeded: i.a)) ?? .add
                let value = ExpressionMath.apply(op, MegaBuffer.read(blocks, stack[sp - 1]), stack[sp])
                MegaBuffer.write(blocks, stack[sp - 1], value)
                stack[sp - 1] = value
            case .memset:
                sp -= 2
                left &-= MegaBuffer.clampedCount(stack[sp + 1]) >> 3
                if left < 0 { budget = 0; return false }
                MegaBuffer.fill(localBlocks, from: stack[sp - 1], value: stack[sp], count: stack[sp + 1])
            case .memcpy:
                sp -= 2
                left &-= MegaBuffer.clampedCount(stack[sp + 1])
                if left < 0 { budget = 0; return false }
                MegaBuffer.copy(localBlocks, to: stack[sp - 1], from: stack[sp], count: stack[sp + 1])
            }
        }
    }
}
