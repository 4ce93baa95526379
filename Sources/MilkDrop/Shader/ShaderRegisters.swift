/// Register allocation: every computed virtual register lives from its first write to its last read
/// (to the end for the output; across a whole loop when it is carried round it or read inside it but
/// written before), and real registers are handed out in code order, reused as soon as a value dies
/// (an operation may write over an operand it reads last, except a texture read). Preloaded values —
/// constants, uniforms, inputs, texture sizes — get registers of their own, never written by code.
extension ShaderOptimizer {
    static func allocate(_ code: [ShaderOperation], sources: [ShaderValueSource], output: [Int32],
                         samplers: [ShaderSamplerUse]) throws(ShaderFault) -> ShaderProgram {
        let count = sources.count
        var start = [Int](repeating: Int.max, count: count), end = [Int](repeating: -1, count: count)
        var definitions = [Int](repeating: 0, count: count)
        var used = [Bool](repeating: false, count: count)
        for (i, op) in code.enumerated() {
            for d in op.written {
                start[Int(d)] = min(start[Int(d)], i); definitions[Int(d)] += 1; used[Int(d)] = true
            }
            for r in op.read { end[Int(r)] = max(end[Int(r)], i); used[Int(r)] = true }
        }
        for r in output { end[Int(r)] = code.count; used[Int(r)] = true }
        // Values live across a loop's back edge live through the whole loop.
        var loops: [(top: Int, bottom: Int)] = []
        for (i, op) in code.enumerated() { if case .loopBack(_, let to) = op { loops.append((Int(to), i)) } }
        var changed = !loops.isEmpty
        while changed {
            changed = false
            for loop in loops {
                for i in loop.top...loop.bottom {
                    for r in code[i].read where (start[Int(r)] < loop.top || definitions[Int(r)] > 1) && end[Int(r)] < loop.bottom {
                        end[Int(r)] = loop.bottom; changed = true
                    }
                }
            }
        }

        // Preloaded registers first, in the order met.
        var physical = [Int32](repeating: -1, count: count)
        var next: Int32 = 0
        var constants: [ShaderConstant] = [], uniforms: [ShaderUniformLoad] = [], inputs: [ShaderInputLoad] = []
        var sizes: [(register: Int32, texture: String, component: Int32)] = []
        for v in 0..<count where used[v] {
            switch sources[v] {
            case .computed: continue
            case .constant(let value): constants.append(ShaderConstant(register: next, value: value))
            case .uniform(let offset): uniforms.append(ShaderUniformLoad(register: next, offset: offset))
            case .input(let input): inputs.append(ShaderInputLoad(register: next, input: input))
            case .textureSize(let texture, let component): sizes.append((next, texture, component))
            }
            physical[v] = next
            next += 1
        }

        // Computed registers: a linear scan in code order.
        var free: [Int32] = []
        var active: [(end: Int, register: Int32)] = []
        var highest = next
        var byStart: [[Int32]] = Array(repeating: [], count: code.count)
        for v in 0..<count where used[v] && sources[v] == .computed && start[v] < code.count { byStart[start[v]].append(Int32(v)) }
        for (i, op) in code.enumerated() {
            let isSample: Bool = if case .sample = op { true } else { false }
            var k = 0
            while k < active.count {
                if active[k].end < i || (active[k].end == i && !isSample) {
                    free.append(active[k].register)
                    active.swapAt(k, active.count - 1)
                    active.removeLast()
                } else { k += 1 }
            }
            for v in byStart[i] {
                let r: Int32
                if let reused = free.popLast() { r = reused } else { r = highest; highest += 1 }
                physical[Int(v)] = r
                // A value written but never read still needs its register for this operation.
                active.append((max(end[Int(v)], i), r))
            }
        }
        guard Int(highest) <= ShaderLimits.registers else {
            throw ShaderFault(0, "needs \(highest) registers, more than \(ShaderLimits.registers)", .tooLarge)
        }

        func map(_ r: Int32) -> Int32 { r < 0 ? -1 : physical[Int(r)] }
        var program: [ShaderOperation] = []
        program.reserveCapacity(code.count)
        var slotUsed = [Bool](repeating: false, count: samplers.count)
        for op in code { if case .sample(let slot, _, _, _, _, _, _, _) = op { slotUsed[Int(slot)] = true } }
        var finalSamplers: [ShaderSamplerUse] = []
        var slotMap = [Int32](repeating: -1, count: samplers.count)
        for (k, s) in samplers.enumerated() where slotUsed[k] { slotMap[k] = Int32(finalSamplers.count); finalSamplers.append(s) }
        for op in code {
            switch op {
            case .move(let d, let a): program.append(.move(dst: map(d), a: map(a)))
            case .unary(let f, let d, let a): program.append(.unary(f, dst: map(d), a: map(a)))
            case .binary(let f, let d, let a, let b): program.append(.binary(f, dst: map(d), a: map(a), b: map(b)))
            case .ternary(let f, let d, let a, let b, let c): program.append(.ternary(f, dst: map(d), a: map(a), b: map(b), c: map(c)))
            case .sample(let slot, let u, let v, let w, let r, let g, let b, let a):
                program.append(.sample(slot: slotMap[Int(slot)], u: map(u), v: map(v), w: map(w), r: map(r), g: map(g), b: map(b), a: map(a)))
            case .jump(let to): program.append(.jump(to: to))
            case .jumpIfNone(let mask, let to): program.append(.jumpIfNone(mask: map(mask), to: to))
            case .loopBack(let mask, let to): program.append(.loopBack(mask: map(mask), to: to))
            }
        }
        var textureSizes: [ShaderTextureSizeLoad] = []
        for size in sizes {
            var slot = finalSamplers.firstIndex { $0.name == size.texture }
            if slot == nil {
                let mode = ShaderHeader.sampler("sampler_" + size.texture)?.mode ?? SamplerMode(bilinear: true, wraps: true)
                finalSamplers.append(ShaderSamplerUse(name: size.texture, mode: mode, isVolume: ShaderHeader.volumeTextures.contains(size.texture)))
                slot = finalSamplers.count - 1
            }
            textureSizes.append(ShaderTextureSizeLoad(register: size.register, slot: Int32(slot!), component: size.component))
        }
        return ShaderProgram(registerCount: highest, constants: constants, uniforms: uniforms, inputs: inputs,
                             samplers: finalSamplers, textureSizes: textureSizes, code: program,
                             output: (map(output[0]), map(output[1]), map(output[2])))
    }
}
