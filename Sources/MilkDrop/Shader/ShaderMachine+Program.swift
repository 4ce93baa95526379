/// A program's operations as the machine keeps them: one flat kind (a jump table instead of nested
/// enums) and register *offsets* into the register file (register × lanes), checked once.
enum LaneOpcode: UInt8 {
    case move
    case negate, abs, sign, floor, ceil, frac, round, trunc
    case sqrt, rsqrt, reciprocal, exp, exp2, log, log2, log10
    case sin, cos, tan, asin, acos, atan, sinh, cosh, tanh
    case saturate, not, bool
    case add, subtract, multiply, divide, fmod, min, max, pow, atan2, step
    case less, lessEqual, greater, greaterEqual, equal, notEqual, and, or
    case multiplyAdd, select, lerp, clamp, smoothstep
    case sample, jump, jumpIfNone, loopBack
}

/// One decoded operation: `dst`, `a`, `b`, `c` are register offsets; a jump keeps its target in `a`
/// and its mask in `b`; a sample keeps the index of its ``LaneSample`` in `dst`.
struct LaneInstruction {
    var kind: LaneOpcode
    var dst = 0, a = 0, b = 0, c = 0
    /// `dst` is also an operand: the lane loop writes scratch (a loop whose output aliases an input
    /// is not vectorised), then copies.
    var inPlace = false
    /// Which operands hold the same value in every lane (a constant, uniform or texture size): bit 0
    /// for `a`, 1 for `b`, 2 for `c`. Their loops read it once instead of a row (a third fewer loads).
    var uniform: UInt8 = 0

    init(kind: LaneOpcode, dst: Int = 0, a: Int = 0, b: Int = 0, c: Int = 0) {
        self.kind = kind; self.dst = dst; self.a = a; self.b = b; self.c = c
    }

    /// Decodes a (validated) operation.
    init(_ operation: ShaderOperation, lanes: Int, samplers: [ShaderSamplerUse], uniform rows: Set<Int32>,
         samples: inout [LaneSample]) {
        func at(_ r: Int32) -> Int { r >= 0 ? Int(r) * lanes : -1 }
        func bits(_ a: Int32, _ b: Int32 = -1, _ c: Int32 = -1) -> UInt8 {
            (rows.contains(a) ? 1 : 0) | (rows.contains(b) ? 2 : 0) | (rows.contains(c) ? 4 : 0)
        }
        switch operation {
        case let .move(dst, a): self.init(kind: .move, dst: at(dst), a: at(a))
        case let .unary(f, dst, a):
            self.init(kind: Self.kind(f), dst: at(dst), a: at(a))
            inPlace = dst == a
        case let .binary(f, dst, a, b):
            self.init(kind: Self.kind(f), dst: at(dst), a: at(a), b: at(b))
            inPlace = dst == a || dst == b
            uniform = bits(a, b)
        case let .ternary(f, dst, a, b, c):
            self.init(kind: Self.kind(f), dst: at(dst), a: at(a), b: at(b), c: at(c))
            inPlace = dst == a || dst == b || dst == c
            uniform = bits(a, b, c)
        case let .sample(slot, u, v, w, r, g, b, a):
            let inputs = Set([u, v, w].filter { $0 >= 0 })
            let overwrites = [r, g, b, a].contains { $0 >= 0 && inputs.contains($0) }
            samples.append(LaneSample(slot: Int(slot), mode: samplers[Int(slot)].mode, u: at(u), v: at(v), w: at(w),
                                      r: at(r), g: at(g), b: at(b), a: at(a), overwritesCoordinates: overwrites))
            self.init(kind: .sample, dst: samples.count - 1)
        case let .jump(to): self.init(kind: .jump, a: Int(to))
        case let .jumpIfNone(mask, to): self.init(kind: .jumpIfNone, a: Int(to), b: at(mask))
        case let .loopBack(mask, to): self.init(kind: .loopBack, a: Int(to), b: at(mask))
        }
    }

    static func kind(_ f: ShaderUnary) -> LaneOpcode {
        switch f {
        case .negate: .negate
        case .abs: .abs
        case .sign: .sign
        case .floor: .floor
        case .ceil: .ceil
        case .frac: .frac
        case .round: .round
        case .trunc: .trunc
        case .sqrt: .sqrt
        case .rsqrt: .rsqrt
        case .reciprocal: .reciprocal
        case .exp: .exp
        case .exp2: .exp2
        case .log: .log
        case .log2: .log2
        case .log10: .log10
        case .sin: .sin
        case .cos: .cos
        case .tan: .tan
        case .asin: .asin
        case .acos: .acos
        case .atan: .atan
        case .sinh: .sinh
        case .cosh: .cosh
        case .tanh: .tanh
        case .saturate: .saturate
        case .not: .not
        case .bool: .bool
        }
    }

    static func kind(_ f: ShaderBinary) -> LaneOpcode {
        switch f {
        case .add: .add
        case .subtract: .subtract
        case .multiply: .multiply
        case .divide: .divide
        case .fmod: .fmod
        case .min: .min
        case .max: .max
        case .pow: .pow
        case .atan2: .atan2
        case .step: .step
        case .less: .less
        case .lessEqual: .lessEqual
        case .greater: .greater
        case .greaterEqual: .greaterEqual
        case .equal: .equal
        case .notEqual: .notEqual
        case .and: .and
        case .or: .or
        }
    }

    static func kind(_ f: ShaderTernary) -> LaneOpcode {
        switch f {
        case .multiplyAdd: .multiplyAdd
        case .select: .select
        case .lerp: .lerp
        case .clamp: .clamp
        case .smoothstep: .smoothstep
        }
    }
}

/// A sample operation's operands (register offsets, −1 for none) and its sampler's mode.
struct LaneSample {
    var slot: Int
    var mode: SamplerMode
    var u: Int, v: Int, w: Int
    var r: Int, g: Int, b: Int, a: Int
    /// A channel goes into a coordinate's register: sampled through scratch.
    var overwritesCoordinates: Bool
}

extension ShaderMachine {
    /// The registers an operation reads and writes (a register of −1 is none).
    static func operands(_ op: ShaderOperation) -> (reads: [Int32], writes: [Int32]) {
        switch op {
        case let .move(dst, a): ([a], [dst])
        case let .unary(_, dst, a): ([a], [dst])
        case let .binary(_, dst, a, b): ([a, b], [dst])
        case let .ternary(_, dst, a, b, c): ([a, b, c], [dst])
        case let .sample(_, u, v, w, r, g, b, a): ([u, v] + (w >= 0 ? [w] : []), [r, g, b, a].filter { $0 >= 0 })
        case .jump: ([], [])
        case let .jumpIfNone(mask, _): ([mask], [])
        case let .loopBack(mask, _): ([mask], [])
        }
    }

    /// Registers loaded before the code runs (constants, uniforms, inputs, texture sizes).
    static func preloaded(_ program: ShaderProgram) -> Set<Int32> {
        Set(program.constants.map(\.register) + program.uniforms.map(\.register)
            + program.inputs.map(\.register) + program.textureSizes.map(\.register))
    }

    /// Checks every index of `program` against its sizes, so the lane loops can trust them.
    static func validate(_ program: ShaderProgram) throws(ShaderMachineError) {
        let registers = program.registerCount, count = program.code.count
        guard registers >= 0, registers <= maxRegisters, count <= maxOperations else {
            throw .tooBig(registers: Int(registers), operations: count)
        }
        let range = 0..<registers
        for r in program.constants.map(\.register) + program.uniforms.map(\.register) + program.inputs.map(\.register)
        where !range.contains(r) { throw .badLoad(register: r) }
        for t in program.textureSizes
        where !range.contains(t.register) || !(0..<Int32(program.samplers.count)).contains(t.slot) || !(0...3).contains(t.component) {
            throw .badLoad(register: t.register)
        }
        for r in [program.output.r, program.output.g, program.output.b] where !range.contains(r) {
            throw .registerOutOfRange(r, operation: count)
        }
        let fixed = preloaded(program)
        for (index, op) in program.code.enumerated() {
            let (reads, writes) = operands(op)
            for r in reads + writes where !range.contains(r) { throw .registerOutOfRange(r, operation: index) }
            for r in writes where fixed.contains(r) { throw .writesPreloaded(register: r, operation: index) }
            switch op {
            case let .jump(to), let .jumpIfNone(_, to), let .loopBack(_, to):
                guard to >= 0 && Int(to) <= count else { throw .jumpOutOfRange(to, operation: index) }
            case let .sample(slot, _, _, _, _, _, _, _):
                guard slot >= 0 && Int(slot) < program.samplers.count else { throw .samplerOutOfRange(slot, operation: index) }
            default: break
            }
        }
    }

    /// Registers some operation reads with no write to them earlier in the code (in array order) and
    /// not preloaded: a batch could otherwise see what the previous batch left there.
    static func readBeforeWritten(_ program: ShaderProgram) -> [Int] {
        var written = preloaded(program)
        var early = Set<Int32>()
        for op in program.code {
            let (reads, writes) = operands(op)
            for r in reads where !written.contains(r) { early.insert(r) }
            written.formUnion(writes)
        }
        for r in [program.output.r, program.output.g, program.output.b] where !written.contains(r) { early.insert(r) }
        return early.map { Int($0) }.sorted()
    }
}
