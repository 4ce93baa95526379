/// Register allocation: every computed virtual register lives from its first write to its last read
/// (to the end for the output; across a whole loop when it is carried round it or read inside it but
/// written before), and real registers are handed out in code order, reused as soon as a value dies
/// (an operation may write over an operand it reads last, except a texture read). Preloaded values —
/// constants, uniforms, inputs, texture sizes — get registers of their own, never written by code.
extension ShaderOptimizer {
    static func allocate(_ code: [ShaderOperation], sources: [ShaderValueSource], output: [Int32],
                         samplers: [ShaderSamplerUse]) throws(ShaderFault) -> ShaderProgram {
        let lives = liveRanges(code, count: sources.count, output: output)
        var physical = [Int32](repeating: -1, count: sources.count)
        let preloaded = preload(sources, used: lives.used, physical: &physical)
        let highest = try linearScan(code, sources: sources, lives: lives, first: preloaded.next, physical: &physical)
        func map(_ r: Int32) -> Int32 { r < 0 ? -1 : physical[Int(r)] }
        var (program, finalSamplers) = renumber(code, samplers: samplers, map: map)
        let textureSizes = textureSizeLoads(preloaded.sizes, samplers: &finalSamplers)
        return ShaderProgram(registerCount: highest, constants: preloaded.constants, uniforms: preloaded.uniforms,
                             inputs: preloaded.inputs, samplers: finalSamplers, textureSizes: textureSizes, code: program,
                             output: (map(output[0]), map(output[1]), map(output[2])))
    }

    /// Where each virtual register's life starts (its first write) and ends (its last read), how often
    /// it is written, and whether anything uses it.
    private struct LiveRanges {
        var start: [Int], end: [Int], definitions: [Int], used: [Bool]
    }

    /// The live ranges of the `count` virtual registers of `code`, `output` living to the end, and
    /// values live across a loop's back edge living through the whole loop.
    private static func liveRanges(_ code: [ShaderOperation], count: Int, output: [Int32]) -> LiveRanges {
        var lives = LiveRanges(start: [Int](repeating: Int.max, count: count), end: [Int](repeating: -1, count: count),
                               definitions: [Int](repeating: 0, count: count), used: [Bool](repeating: false, count: count))
        for (i, op) in code.enumerated() {
            for d in op.written {
                lives.start[Int(d)] = min(lives.start[Int(d)], i); lives.definitions[Int(d)] += 1; lives.used[Int(d)] = true
            }
            for r in op.read { lives.end[Int(r)] = max(lives.end[Int(r)], i); lives.used[Int(r)] = true }
        }
        for r in output { lives.end[Int(r)] = code.count; lives.used[Int(r)] = true }
        var loops: [(top: Int, bottom: Int)] = []
        for (i, op) in code.enumerated() { if case .loopBack(_, let to) = op { loops.append((Int(to), i)) } }
        var changed = !loops.isEmpty
        while changed {
            changed = false
            for loop in loops {
                for i in loop.top...loop.bottom {
                    for r in code[i].read
                    where (lives.start[Int(r)] < loop.top || lives.definitions[Int(r)] > 1) && lives.end[Int(r)] < loop.bottom {
                        lives.end[Int(r)] = loop.bottom; changed = true
                    }
                }
            }
        }
        return lives
    }

    /// The preloaded values (constants, uniforms, inputs, texture sizes) and the first register after them.
    private struct Preloads {
        var constants: [ShaderConstant] = [], uniforms: [ShaderUniformLoad] = [], inputs: [ShaderInputLoad] = []
        var sizes: [(register: Int32, texture: String, component: Int32)] = []
        var next: Int32 = 0
    }

    /// Gives the preloaded registers in use registers of their own, in the order met.
    private static func preload(_ sources: [ShaderValueSource], used: [Bool], physical: inout [Int32]) -> Preloads {
        var p = Preloads()
        for v in 0..<sources.count where used[v] {
            switch sources[v] {
            case .computed: continue
            case .constant(let value): p.constants.append(ShaderConstant(register: p.next, value: value))
            case .uniform(let offset): p.uniforms.append(ShaderUniformLoad(register: p.next, offset: offset))
            case .input(let input): p.inputs.append(ShaderInputLoad(register: p.next, input: input))
            case .textureSize(let texture, let component): p.sizes.append((p.next, texture, component))
            }
            physical[v] = p.next
            p.next += 1
        }
        return p
    }

    /// Gives the computed registers real ones from `first` on, a linear scan in code order reusing a
    /// register once its value dies; the register count. Throws when it is over ``ShaderLimits/registers``.
    private static func linearScan(_ code: [ShaderOperation], sources: [ShaderValueSource], lives: LiveRanges, first: Int32,
                                   physical: inout [Int32]) throws(ShaderFault) -> Int32 {
        var free: [Int32] = []
        var active: [(end: Int, register: Int32)] = []
        var highest = first
        var byStart: [[Int32]] = Array(repeating: [], count: code.count)
        for v in 0..<sources.count where lives.used[v] && sources[v] == .computed && lives.start[v] < code.count {
            byStart[lives.start[v]].append(Int32(v))
        }
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
                active.append((max(lives.end[Int(v)], i), r))
            }
        }
        guard Int(highest) <= ShaderLimits.registers else {
            throw ShaderFault(0, "needs \(highest) registers, more than \(ShaderLimits.registers)", .tooLarge)
        }
        return highest
    }

    /// `code` on real registers (`map`), and the samplers it reads, renumbered without the unused ones.
    private static func renumber(_ code: [ShaderOperation], samplers: [ShaderSamplerUse],
                                 map: (Int32) -> Int32) -> ([ShaderOperation], [ShaderSamplerUse]) {
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
        return (program, finalSamplers)
    }

    /// The texture-size loads, each on the slot of its texture (a sampler added when the code reads none).
    private static func textureSizeLoads(_ sizes: [(register: Int32, texture: String, component: Int32)],
                                         samplers: inout [ShaderSamplerUse]) -> [ShaderTextureSizeLoad] {
        var textureSizes: [ShaderTextureSizeLoad] = []
        for size in sizes {
            var slot = samplers.firstIndex { $0.name == size.texture }
            if slot == nil {
                let mode = ShaderHeader.sampler("sampler_" + size.texture)?.mode ?? SamplerMode(bilinear: true, wraps: true)
                samplers.append(ShaderSamplerUse(name: size.texture, mode: mode, isVolume: ShaderHeader.volumeTextures.contains(size.texture)))
                slot = samplers.count - 1
            }
            textureSizes.append(ShaderTextureSizeLoad(register: size.register, slot: Int32(slot!), component: size.component))
        }
        return textureSizes
    }
}
