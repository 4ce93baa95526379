/// The machine's register allocation: a compiled program names a register per value (hundreds in a
/// heavy shader), and at 64 lanes × 4 bytes each that overflows the first-level cache. Values whose
/// lives do not overlap share a register here (linear scan over live intervals in code order), so a
/// program runs in a register file of its *live* values, a few dozen rows.
///
/// Intervals are conservative: preloaded registers (constants, uniforms, inputs, sizes) live
/// throughout; `ret` lives to the end; a value that crosses a loop's boundary lives through the
/// whole loop; a value that may be read before it is written in a batch (see ``zeroed``) lives from
/// the start and is zeroed before each batch, as the reference starts each pixel from zeros.
struct RegisterAllocation {
    /// Program register → machine register (−1: never used).
    var physical: [Int32]
    /// Machine registers used.
    var count: Int32
    /// Program registers that may be read before they are written in a batch.
    var zeroed: Set<Int32>

    init(_ program: ShaderProgram) {
        let n = Int(program.registerCount), codeCount = program.code.count
        var start = [Int](repeating: Int.max, count: n), end = [Int](repeating: -1, count: n)
        func touch(_ r: Int32, _ at: Int) {
            let i = Int(r)
            start[i] = min(start[i], at); end[i] = max(end[i], at)
        }
        let pinned = ShaderMachine.preloaded(program)
        for r in pinned { touch(r, -1); touch(r, codeCount + 1) }
        for (at, op) in program.code.enumerated() {
            let (reads, writes) = ShaderMachine.operands(op)
            for r in reads + writes { touch(r, at) }
        }
        for r in [program.output.r, program.output.g, program.output.b] { touch(r, codeCount) }
        zeroed = Self.zeroed(program, start: start, end: end)
        for r in zeroed { touch(r, -1) }
        Self.extendThroughLoops(program, start: &start, end: &end)
        (physical, count) = Self.scan(start: start, end: end)
    }

    /// Registers read before any write in code order, and registers first written inside a block a
    /// forward jump may skip but read after it (on the skipping path they would be read unwritten).
    static func zeroed(_ program: ShaderProgram, start: [Int], end: [Int]) -> Set<Int32> {
        var result = Set(ShaderMachine.readBeforeWritten(program).map { Int32($0) })
        for (at, op) in program.code.enumerated() {
            let to: Int
            switch op {
            case let .jump(target), let .jumpIfNone(_, target): to = Int(target)
            default: continue
            }
            guard to > at + 1 else { continue }
            for r in start.indices where start[r] > at && start[r] < to && end[r] >= to { result.insert(Int32(r)) }
        }
        return result
    }

    /// A value live across a loop's boundary (in before it and used inside, or set inside and used
    /// after) keeps its register through the whole loop, nested loops included (to a fixed point).
    static func extendThroughLoops(_ program: ShaderProgram, start: inout [Int], end: inout [Int]) {
        var loops: [(from: Int, to: Int)] = []
        for (at, op) in program.code.enumerated() {
            switch op {
            case let .jump(target), let .jumpIfNone(_, target), let .loopBack(_, target):
                if Int(target) <= at { loops.append((Int(target), at)) }
            default: break
            }
        }
        guard !loops.isEmpty else { return }
        var changed = true
        while changed {
            changed = false
            for loop in loops {
                for r in start.indices where start[r] <= loop.to && end[r] >= loop.from {
                    let inside = start[r] >= loop.from && end[r] <= loop.to
                    if !inside && (start[r] > loop.from || end[r] < loop.to) {
                        start[r] = min(start[r], loop.from); end[r] = max(end[r], loop.to)
                        changed = true
                    }
                }
            }
        }
    }

    /// Linear scan: intervals by start; a register is free again after its value's last use (not at
    /// it, so renaming never makes an operation write a register it reads: its lane loop then runs
    /// vectorised, the program's own in-place updates going through scratch).
    static func scan(start: [Int], end: [Int]) -> ([Int32], Int32) {
        var physical = [Int32](repeating: -1, count: start.count)
        let order = start.indices.filter { end[$0] >= 0 }.sorted { (start[$0], $0) < (start[$1], $1) }
        var free: [Int32] = []        // kept sorted, highest first: the lowest register is reused first
        var active: [Int] = []        // program registers holding a machine register
        var count: Int32 = 0
        for r in order {
            active.removeAll { a in
                guard end[a] < start[r] else { return false }
                let p = physical[a]
                let i = free.firstIndex { $0 < p } ?? free.count
                free.insert(p, at: i)
                return true
            }
            if let p = free.popLast() {
                physical[r] = p
            } else {
                physical[r] = count
                count += 1
            }
            active.append(r)
        }
        return (physical, count)
    }

    /// `program` with its registers renamed.
    func rename(_ program: ShaderProgram) -> ShaderProgram {
        func p(_ r: Int32) -> Int32 { r >= 0 ? physical[Int(r)] : -1 }
        let code: [ShaderOperation] = program.code.map { op in
            switch op {
            case let .move(dst, a): .move(dst: p(dst), a: p(a))
            case let .unary(f, dst, a): .unary(f, dst: p(dst), a: p(a))
            case let .binary(f, dst, a, b): .binary(f, dst: p(dst), a: p(a), b: p(b))
            case let .ternary(f, dst, a, b, c): .ternary(f, dst: p(dst), a: p(a), b: p(b), c: p(c))
            case let .sample(slot, u, v, w, r, g, b, a):
                .sample(slot: slot, u: p(u), v: p(v), w: p(w), r: p(r), g: p(g), b: p(b), a: p(a))
            case let .jump(to): .jump(to: to)
            case let .jumpIfNone(mask, to): .jumpIfNone(mask: p(mask), to: to)
            case let .loopBack(mask, to): .loopBack(mask: p(mask), to: to)
            }
        }
        return ShaderProgram(
            registerCount: count,
            constants: program.constants.map { ShaderConstant(register: p($0.register), value: $0.value) },
            uniforms: program.uniforms.map { ShaderUniformLoad(register: p($0.register), offset: $0.offset) },
            inputs: program.inputs.map { ShaderInputLoad(register: p($0.register), input: $0.input) },
            samplers: program.samplers,
            textureSizes: program.textureSizes.map { ShaderTextureSizeLoad(register: p($0.register), slot: $0.slot, component: $0.component) },
            code: code, output: (p(program.output.r), p(program.output.g), p(program.output.b)))
    }
}

extension ShaderMachine {
    /// `program` without its moves, when it has no jumps (most shaders: `if`s are selects): a read
    /// of a move's destination reads its source instead, and the move is dropped; only when the
    /// source is overwritten while the copy may still be read is the move done, just before. With
    /// jumps the program is returned as it is (a copy's validity would depend on the path taken).
    static func withoutMoves(_ program: ShaderProgram) -> ShaderProgram {
        let hasJumps = program.code.contains { op in
            switch op {
            case .jump, .jumpIfNone, .loopBack: true
            default: false
            }
        }
        guard !hasJumps, program.code.contains(where: { if case .move = $0 { true } else { false } }) else { return program }
        var source: [Int32: Int32] = [:]          // copy → the register holding its value
        var copies: [Int32: Set<Int32>] = [:]     // and back
        func resolve(_ r: Int32) -> Int32 { r >= 0 ? source[r] ?? r : r }
        var code: [ShaderOperation] = []
        code.reserveCapacity(program.code.count)
        /// Before `w` is overwritten: copies of it get their own value, and `w` is no longer a copy.
        func overwriting(_ w: Int32) {
            for copy in (copies.removeValue(forKey: w) ?? []).sorted() {
                code.append(.move(dst: copy, a: w))
                source[copy] = nil
            }
            if let from = source.removeValue(forKey: w) { copies[from]?.remove(w) }
        }
        for op in program.code {
            switch op {
            case let .move(dst, a):
                let from = resolve(a)
                guard from != dst else { continue }
                overwriting(dst)
                source[dst] = from
                copies[from, default: []].insert(dst)
            case let .unary(f, dst, a):
                let a = resolve(a)
                overwriting(dst)
                code.append(.unary(f, dst: dst, a: a))
            case let .binary(f, dst, a, b):
                let (a, b) = (resolve(a), resolve(b))
                overwriting(dst)
                code.append(.binary(f, dst: dst, a: a, b: b))
            case let .ternary(f, dst, a, b, c):
                let (a, b, c) = (resolve(a), resolve(b), resolve(c))
                overwriting(dst)
                code.append(.ternary(f, dst: dst, a: a, b: b, c: c))
            case let .sample(slot, u, v, w, r, g, b, a):
                let (u, v, w) = (resolve(u), resolve(v), resolve(w))
                for out in [r, g, b, a] where out >= 0 { overwriting(out) }
                code.append(.sample(slot: slot, u: u, v: v, w: w, r: r, g: g, b: b, a: a))
            case .jump, .jumpIfNone, .loopBack:
                code.append(op)
            }
        }
        var result = program
        result.code = code
        result.output = (resolve(program.output.r), resolve(program.output.g), resolve(program.output.b))
        return result
    }
}
