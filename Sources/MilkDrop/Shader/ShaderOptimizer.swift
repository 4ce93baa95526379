/// From the lowering's operations over virtual registers to a finished ``ShaderProgram``: removes
/// what does not reach the output, fuses `a * b + c` into `multiplyAdd`, and maps the virtual
/// registers onto as few real ones as their lifetimes allow (the machine's time grows with operations
/// × registers touched).
enum ShaderOptimizer {
    static func program(code: [ShaderOperation], sources: [ShaderValueSource], output: [Int32],
                        samplers: [ShaderSamplerUse]) throws(ShaderFault) -> ShaderProgram {
        var code = code
        var keep = liveOperations(code, registers: sources.count, output: output)
        fuseMultiplyAdds(&code, keep: &keep, registers: sources.count, output: output)
        code = compact(code, keep: keep, output: output)
        return try allocate(code, sources: sources, output: output, samplers: samplers)
    }

    // MARK: dead code

    /// Which operations contribute to the output or control flow; unused sample channels become -1.
    private static func liveOperations(_ code: [ShaderOperation], registers: Int, output: [Int32]) -> [Bool] {
        var definitions = [[Int]](repeating: [], count: registers)
        for (i, op) in code.enumerated() { for d in op.written { definitions[Int(d)].append(i) } }
        var needed = [Bool](repeating: false, count: registers)
        var keep = [Bool](repeating: false, count: code.count)
        var work: [Int32] = []
        func need(_ r: Int32) { if r >= 0 && !needed[Int(r)] { needed[Int(r)] = true; work.append(r) } }
        output.forEach(need)
        for (i, op) in code.enumerated() where op.isControl { keep[i] = true; op.read.forEach(need) }
        while let r = work.popLast() {
            for i in definitions[Int(r)] where !keep[i] {
                keep[i] = true
                code[i].read.forEach(need)
            }
        }
        return keep
    }

    // MARK: fusion

    private static func fuseMultiplyAdds(_ code: inout [ShaderOperation], keep: inout [Bool], registers: Int, output: [Int32]) {
        var uses = [Int](repeating: 0, count: registers), definitions = [Int](repeating: 0, count: registers)
        var definer = [Int](repeating: -1, count: registers)
        for (i, op) in code.enumerated() where keep[i] {
            for r in op.read { uses[Int(r)] += 1 }
            for d in op.written { definitions[Int(d)] += 1; definer[Int(d)] = i }
        }
        for r in output { uses[Int(r)] += 2 }
        func product(_ r: Int32) -> (Int, Int32, Int32)? {
            let i = definer[Int(r)]
            guard i >= 0, keep[i], uses[Int(r)] == 1, definitions[Int(r)] == 1,
                  case .binary(.multiply, _, let a, let b) = code[i],
                  definitions[Int(a)] <= 1, definitions[Int(b)] <= 1 else { return nil }
            return (i, a, b)
        }
        for (i, op) in code.enumerated() where keep[i] {
            guard case .binary(.add, let dst, let x, let y) = op else { continue }
            if let (m, a, b) = product(x) {
                code[i] = .ternary(.multiplyAdd, dst: dst, a: a, b: b, c: y); keep[m] = false
            } else if let (m, a, b) = product(y) {
                code[i] = .ternary(.multiplyAdd, dst: dst, a: a, b: b, c: x); keep[m] = false
            }
        }
    }

    /// The kept operations, jumps retargeted, unwanted sample channels set to -1.
    private static func compact(_ code: [ShaderOperation], keep: [Bool], output: [Int32]) -> [ShaderOperation] {
        var newIndex = [Int32](repeating: 0, count: code.count + 1)
        var n: Int32 = 0
        for i in code.indices {
            newIndex[i] = n
            if keep[i] { n += 1 }
        }
        newIndex[code.count] = n
        var read = Set<Int32>(output)
        for (i, op) in code.enumerated() where keep[i] { read.formUnion(op.read) }
        var out: [ShaderOperation] = []
        out.reserveCapacity(Int(n))
        for (i, op) in code.enumerated() where keep[i] {
            switch op {
            case .jump(let to): out.append(.jump(to: newIndex[Int(to)]))
            case .jumpIfNone(let mask, let to): out.append(.jumpIfNone(mask: mask, to: newIndex[Int(to)]))
            case .loopBack(let mask, let to): out.append(.loopBack(mask: mask, to: newIndex[Int(to)]))
            case .sample(let slot, let u, let v, let w, let r, let g, let b, let a):
                func wanted(_ x: Int32) -> Int32 { read.contains(x) ? x : -1 }
                out.append(.sample(slot: slot, u: u, v: v, w: w, r: wanted(r), g: wanted(g), b: wanted(b), a: wanted(a)))
            default: out.append(op)
            }
        }
        return out
    }
}

extension ShaderOperation {
    /// The registers the operation reads.
    var read: [Int32] {
        switch self {
        case .move(_, let a), .unary(_, _, let a): [a]
        case .binary(_, _, let a, let b): [a, b]
        case .ternary(_, _, let a, let b, let c): [a, b, c]
        case .sample(_, let u, let v, let w, _, _, _, _): w >= 0 ? [u, v, w] : [u, v]
        case .jump: []
        case .jumpIfNone(let mask, _), .loopBack(let mask, _): [mask]
        }
    }

    /// The registers the operation writes.
    var written: [Int32] {
        switch self {
        case .move(let d, _), .unary(_, let d, _), .binary(_, let d, _, _), .ternary(_, let d, _, _, _): [d]
        case .sample(_, _, _, _, let r, let g, let b, let a): [r, g, b, a].filter { $0 >= 0 }
        case .jump, .jumpIfNone, .loopBack: []
        }
    }

    var isControl: Bool {
        switch self {
        case .jump, .jumpIfNone, .loopBack: true
        default: false
        }
    }
}
