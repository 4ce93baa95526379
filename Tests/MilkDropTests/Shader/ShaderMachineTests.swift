import Glibc
@testable import MilkDrop
import Testing

/// Builds programs by hand: every call takes a fresh register.
struct ProgramBuilder {
    var registers: Int32 = 0
    var constants: [ShaderConstant] = [], uniforms: [ShaderUniformLoad] = [], inputs: [ShaderInputLoad] = []
    var samplers: [ShaderSamplerUse] = [], sizes: [ShaderTextureSizeLoad] = [], code: [ShaderOperation] = []

    mutating func register() -> Int32 { registers += 1; return registers - 1 }
    mutating func constant(_ value: Float) -> Int32 {
        let r = register(); constants.append(ShaderConstant(register: r, value: value)); return r
    }
    mutating func uniform(_ offset: Int32) -> Int32 {
        let r = register(); uniforms.append(ShaderUniformLoad(register: r, offset: offset)); return r
    }
    mutating func input(_ input: ShaderPixelInput) -> Int32 {
        let r = register(); inputs.append(ShaderInputLoad(register: r, input: input)); return r
    }
    mutating func size(slot: Int32, component: Int32) -> Int32 {
        let r = register(); sizes.append(ShaderTextureSizeLoad(register: r, slot: slot, component: component)); return r
    }
    mutating func unary(_ f: ShaderUnary, _ a: Int32) -> Int32 {
        let r = register(); code.append(.unary(f, dst: r, a: a)); return r
    }
    mutating func binary(_ f: ShaderBinary, _ a: Int32, _ b: Int32) -> Int32 {
        let r = register(); code.append(.binary(f, dst: r, a: a, b: b)); return r
    }
    mutating func ternary(_ f: ShaderTernary, _ a: Int32, _ b: Int32, _ c: Int32) -> Int32 {
        let r = register(); code.append(.ternary(f, dst: r, a: a, b: b, c: c)); return r
    }
    /// Index of the next operation.
    var here: Int32 { Int32(code.count) }

    func program(_ r: Int32, _ g: Int32, _ b: Int32) -> ShaderProgram {
        ShaderProgram(registerCount: registers, constants: constants, uniforms: uniforms, inputs: inputs,
                      samplers: samplers, textureSizes: sizes, code: code, output: (r, g, b))
    }
}

/// A texture that is a formula of the coordinates: r = u, g = v, b = w (0 for a 2-D read), a = u + v;
/// it writes every channel before it reads any coordinate, so a sample whose outputs overwrite its
/// coordinates only works through the machine's scratch. Records the largest `count` asked for.
final class FormulaTexture: ShaderTexture {
    let width: Int, height: Int, depth: Int
    private(set) var largestCount = 0
    init(width: Int = 4, height: Int = 2, depth: Int = 1) { self.width = width; self.height = height; self.depth = depth }

    static func color(u: Float, v: Float, w: Float) -> SIMD4<Float> { SIMD4(u, v, w, u + v) }

    func sample(mode: SamplerMode, count: Int, u: UnsafePointer<Float>, v: UnsafePointer<Float>, w: UnsafePointer<Float>?,
                r: UnsafeMutablePointer<Float>?, g: UnsafeMutablePointer<Float>?,
                b: UnsafeMutablePointer<Float>?, a: UnsafeMutablePointer<Float>?) {
        largestCount = max(largestCount, count)
        var colors = [SIMD4<Float>]()
        for k in 0..<count { colors.append(Self.color(u: u[k], v: v[k], w: w?[k] ?? 0)) }
        for k in 0..<count { r?[k] = -7; g?[k] = -7; b?[k] = -7; a?[k] = -7 }
        for k in 0..<count { r?[k] = colors[k].x; g?[k] = colors[k].y; b?[k] = colors[k].z; a?[k] = colors[k].w }
    }
}

/// Runs `program` on a machine for one batch of `count` lanes (inputs per lane from `input`), and
/// on the reference per lane.
func runBoth(_ program: ShaderProgram, count: Int, lanes: Int = ShaderMachine.defaultLanes, uniforms: [Float] = [],
             textures: [any ShaderTexture] = [], input: (ShaderPixelInput, Int) -> Float) throws -> (machine: [SIMD3<Float>], reference: [SIMD3<Float>]) {
    let machine = try ShaderMachine(program: program, lanes: lanes)
    try machine.bind(textures: textures)
    machine.setUniforms(uniforms)
    for load in program.inputs {
        let p = machine.register(load.register)
        for k in 0..<machine.lanes { p[k] = input(load.input, min(k, count - 1)) }
    }
    machine.run(count: count)
    let out = machine.output
    let lanesOut = (0..<count).map { SIMD3(out.r[$0], out.g[$0], out.b[$0]) }
    let reference = ShaderReference(program: program, textures: textures)
    let expected = (0..<count).map { k in reference.run(uniforms: uniforms) { input($0, k) } }
    return (lanesOut, expected)
}

/// Bit-equal, or both NaN.
func same(_ a: Float, _ b: Float) -> Bool { a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN) }

@Suite("The lane machine: every operation, jumps, loops and textures against ShaderReference")
struct ShaderMachineTests {
    static let exactUnary: [ShaderUnary] = [.negate, .abs, .sign, .floor, .ceil, .frac, .round, .trunc, .sqrt, .rsqrt,
                                            .reciprocal, .tan, .asin, .acos, .sinh, .cosh, .tanh, .saturate, .not, .bool]
    static let binaries: [ShaderBinary] = [.add, .subtract, .multiply, .divide, .fmod, .min, .max, .step, .less, .lessEqual,
                                           .greater, .greaterEqual, .equal, .notEqual, .and, .or]
    static let ternaries: [ShaderTernary] = [.multiplyAdd, .select, .lerp, .clamp, .smoothstep]
    /// Values that break careless arithmetic, then random ones.
    static let specials: [Float] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 1, -1, 0.49999997, -0.49999997, 8_388_607.5,
                                    8_388_609, -8_388_609, 1e30, -1e30, .infinity, -.infinity, .nan, .leastNormalMagnitude / 100, -.leastNormalMagnitude / 100, 3, -3, 0.25]

    static func values(_ count: Int, seed: UInt64, range: ClosedRange<Float> = -50...50) -> [Float] {
        var g = SplitMixForTests(seed: seed)
        return specials + (0..<max(0, count - specials.count)).map { _ in
            let x = Float.random(in: range, using: &g)
            return g.next() % 4 == 0 ? x.rounded() : x   // some whole numbers, for ties and equalities
        }
    }

    @Test("unary operations without transcendentals equal the reference bit for bit", arguments: exactUnary)
    func exactUnaryOperations(_ f: ShaderUnary) throws {
        var b = ProgramBuilder()
        let x = b.input(.uvX)
        let r = b.unary(f, x)
        let xs = Self.values(64, seed: 1)
        let (got, want) = try runBoth(b.program(r, r, r), count: xs.count) { _, k in xs[k] }
        for k in xs.indices { #expect(same(got[k].x, want[k].x), "\(f)(\(xs[k])): \(got[k].x) vs \(want[k].x)") }
    }

    @Test("binary and ternary operations equal the reference bit for bit")
    func exactBinaryAndTernary() throws {
        let xs = Self.values(64, seed: 2), ys = Self.values(64, seed: 3).reversed().map { $0 }, zs = Self.values(64, seed: 4, range: -2...2)
        for f in Self.binaries {
            var b = ProgramBuilder()
            let x = b.input(.uvX), y = b.input(.uvY)
            let r = b.binary(f, x, y)
            let (got, want) = try runBoth(b.program(r, r, r), count: 64) { i, k in i == .uvX ? xs[k] : ys[k] }
            for k in 0..<64 { #expect(same(got[k].x, want[k].x), "\(f)(\(xs[k]), \(ys[k])): \(got[k].x) vs \(want[k].x)") }
        }
        for f in Self.ternaries {
            var b = ProgramBuilder()
            let x = b.input(.uvX), y = b.input(.uvY), z = b.input(.rad)
            let r = b.ternary(f, x, y, z)
            let (got, want) = try runBoth(b.program(r, r, r), count: 64) { i, k in i == .uvX ? xs[k] : (i == .uvY ? ys[k] : zs[k]) }
            for k in 0..<64 { #expect(same(got[k].x, want[k].x), "\(f)(\(xs[k]), \(ys[k]), \(zs[k])): \(got[k].x) vs \(want[k].x)") }
        }
    }

    @Test("transcendentals stay within LaneMath's stated bounds of the reference")
    func transcendentals() throws {
        let cases: [(ShaderUnary, ClosedRange<Float>, Float, Bool)] = [
            (.sin, -8192...8192, 2e-7, false), (.cos, -8192...8192, 2e-7, false),
            (.exp2, -120...120, 3e-7, true), (.exp, -80...80, 8e-6, true),
            (.log2, 1e-6...1e6, 3e-7, false), (.log, 1e-6...1e6, 3e-7, false), (.log10, 1e-6...1e6, 3e-7, false),
            (.atan, -1e4...1e4, 5e-7, false),
        ]
        for (f, range, bound, relative) in cases {
            var b = ProgramBuilder()
            let x = b.input(.uvX)
            let r = b.unary(f, x)
            var g = SplitMixForTests(seed: 5)
            for _ in 0..<40 {
                let xs = (0..<64).map { _ in Float.random(in: range, using: &g) * (f == .log2 || f == .log || f == .log10 ? (g.next() % 2 == 0 ? 1 : -1) : 1) }
                let (got, want) = try runBoth(b.program(r, r, r), count: 64) { _, k in xs[k] }
                for k in 0..<64 {
                    // Relative for exp; else absolute below 1 and relative above (LaneMath's bounds).
                    let error = abs(got[k].x - want[k].x) / (relative ? max(abs(want[k].x), .leastNormalMagnitude) : max(1, abs(want[k].x)))
                    #expect(error <= bound, "\(f)(\(xs[k])): \(got[k].x) vs \(want[k].x)")
                }
            }
        }
    }

    @Test("random straight-line programs (copies, overwrites, in-place updates) equal the reference, in full and partial batches")
    func randomPrograms() throws {
        var g = SplitMixForTests(seed: 7)
        for trial in 0..<60 {
            var b = ProgramBuilder()
            var live = [b.input(.uvX), b.input(.uvY), b.input(.rad), b.constant(0.5), b.constant(-2), b.uniform(1)]
            let pinned = live.count
            for _ in 0..<30 {
                func pick() -> Int32 { live[Int(g.next() % UInt64(live.count))] }
                switch g.next() % 5 {
                case 0: live.append(b.unary(Self.exactUnary[Int(g.next() % UInt64(Self.exactUnary.count))], pick()))
                case 1: live.append(b.binary(Self.binaries[Int(g.next() % UInt64(Self.binaries.count))], pick(), pick()))
                case 2: live.append(b.ternary(Self.ternaries[Int(g.next() % UInt64(Self.ternaries.count))], pick(), pick(), pick()))
                case 3:
                    // A copy, kept or overwritten later.
                    let r = b.register()
                    b.code.append(.move(dst: r, a: pick()))
                    live.append(r)
                default:
                    // Overwrites a value computed earlier (in place when it reads it too).
                    guard live.count > pinned else { continue }
                    let r = live[pinned + Int(g.next() % UInt64(live.count - pinned))]
                    b.code.append(.binary(Self.binaries[Int(g.next() % UInt64(Self.binaries.count))], dst: r, a: pick(), b: r))
                }
            }
            let n = live.count
            let xs = Self.values(64, seed: UInt64(trial) &+ 100, range: -3...3)
            let count = trial % 3 == 0 ? 64 : 1 + trial % 61
            let (got, want) = try runBoth(b.program(live[n - 1], live[n - 2], live[n - 3]), count: count, uniforms: [9, 0.75]) { i, k in
                i == .uvX ? xs[k] : (i == .uvY ? xs[63 - k] : xs[(k * 7) % 64])
            }
            for k in 0..<count {
                #expect(same(got[k].x, want[k].x) && same(got[k].y, want[k].y) && same(got[k].z, want[k].z), "trial \(trial) lane \(k)")
            }
        }
    }

    @Test("registers are shared by values whose lives do not overlap; results stay the reference's")
    func registerAllocation() throws {
        var b = ProgramBuilder()
        let x = b.input(.uvX), y = b.input(.uvY)
        var last = x
        for _ in 0..<100 { last = b.binary(.add, b.binary(.multiply, last, y), x) }
        let program = b.program(last, last, last)
        let machine = try ShaderMachine(program: program)
        #expect(program.registerCount == 202 && machine.renamed.registerCount <= 5)
        let (got, want) = try runBoth(program, count: 40) { i, k in i == .uvX ? Float(k) * 0.01 : 0.5 }
        for k in 0..<40 { #expect(got[k] == want[k]) }
    }

    @Test("a value first set in a block a jump may skip reads 0 after it when skipped, never a stale or shared register")
    func skippedBlock() throws {
        var b = ProgramBuilder()
        let x = b.input(.uvX), half = b.constant(0.5), five = b.constant(5), three = b.constant(3)
        // t dies before the block: without care it could share the register of `v`.
        let t = b.binary(.multiply, x, three)
        let mask = b.binary(.greater, t, half)
        let v = b.register()
        let jump = b.here
        b.code.append(.jumpIfNone(mask: mask, to: -1))
        b.code.append(.move(dst: v, a: five))
        b.code[Int(jump)] = .jumpIfNone(mask: mask, to: b.here)
        let ret = b.binary(.add, v, x)
        let machine = try ShaderMachine(program: b.program(ret, ret, ret), lanes: 8)
        try machine.bind(textures: [])
        let p = machine.register(x)
        p.update(repeating: 0.9, count: 8)
        machine.run(count: 8)
        #expect(machine.output.r[0] == 5 + Float(0.9))
        p.update(repeating: 0.1, count: 8)
        machine.run(count: 8)
        #expect(machine.output.r[0] == 0.1)
        #expect(ShaderReference(program: b.program(ret, ret, ret)).run(uniforms: []) { _ in 0.1 }.x == 0.1)
    }

    @Test("moves of a jump-free program are dropped, made just before their source changes when still needed")
    func moves() throws {
        var b = ProgramBuilder()
        let x = b.input(.uvX), one = b.constant(1), two = b.constant(2)
        let t = b.binary(.add, x, one)
        let v = b.register(), w = b.register()
        b.code += [.move(dst: v, a: t), .move(dst: w, a: v),          // w and v copy t
                   .binary(.multiply, dst: t, a: t, b: two),          // t changes: v and w must keep the old t
                   .move(dst: t, a: t)]
        let sum = b.binary(.add, b.binary(.add, v, w), t)
        let program = b.program(sum, w, t)
        let stripped = ShaderMachine.withoutMoves(program)
        #expect(stripped.code.count == 6)   // add, the two copies made just before the multiply, multiply, 2 adds
        let (got, want) = try runBoth(program, count: 9) { _, k in Float(k) }
        for k in 0..<9 {
            #expect(got[k] == want[k])
            #expect(got[k] == SIMD3(Float(k + 1) * 4, Float(k + 1), Float(k + 1) * 2))
        }
        var free = ProgramBuilder()
        let y = free.input(.uvX)
        let c = free.register()
        free.code.append(.move(dst: c, a: y))
        let r = free.binary(.add, c, c)
        #expect(ShaderMachine.withoutMoves(free.program(r, c, r)).code == [.binary(.add, dst: r, a: y, b: y)])
    }

    @Test("jumpIfNone skips only when no valid lane is set; lanes past a partial batch do not count")
    func conditionalJump() throws {
        // ret = uvX > 0.5 ? 10 : 1, the 10 written in a block skipped when no lane needs it.
        var b = ProgramBuilder()
        let x = b.input(.uvX), half = b.constant(0.5), ten = b.constant(10), one = b.constant(1)
        let ret = b.register()
        b.code.append(.move(dst: ret, a: one))
        let mask = b.binary(.greater, x, half)
        let jump = b.here
        b.code.append(.jumpIfNone(mask: mask, to: -1))
        b.code.append(.ternary(.select, dst: ret, a: mask, b: ten, c: ret))
        b.code[Int(jump)] = .jumpIfNone(mask: mask, to: b.here)
        let program = b.program(ret, ret, ret)
        for (values, count) in [([Float](repeating: 0, count: 8), 8), ([0, 0.9, 0, 0, 0, 0, 0, 0], 8), ([0.1, 0.2, 0.9, 0.9], 2)] {
            let machine = try ShaderMachine(program: program, lanes: 8)
            try machine.bind(textures: [])
            let p = machine.register(x)
            for k in 0..<8 { p[k] = k < values.count ? values[k] : 0 }
            machine.run(count: count)
            for k in 0..<count { #expect(machine.output.r[k] == (values[k] > 0.5 ? 10 : 1)) }
            if count == 2 { #expect(machine.output.r[2] == 1, "the invalid lanes decided no jump: the block was skipped") }
        }
    }

    /// acc counts up to each lane's n: `do { on = i < n; acc = select(on, acc + 1, acc); i += 1 } while any(on)`.
    static func countingLoop() -> (ShaderProgram, Int32) {
        var b = ProgramBuilder()
        let n = b.input(.uvX), one = b.constant(1), zero = b.constant(0)
        let i = b.register(), acc = b.register(), on = b.register(), next = b.register(), more = b.register()
        b.code += [.move(dst: i, a: zero), .move(dst: acc, a: zero)]
        let top = b.here
        b.code += [.binary(.less, dst: on, a: i, b: n),
                   .binary(.add, dst: next, a: acc, b: one),
                   .ternary(.select, dst: acc, a: on, b: next, c: acc),
                   .binary(.add, dst: i, a: i, b: one),
                   .binary(.less, dst: more, a: i, b: n),
                   .loopBack(mask: more, to: top)]
        return (b.program(acc, i, acc), acc)
    }

    @Test("a masked loop with divergent lanes gives each lane its own count, as the reference")
    func divergentLoop() throws {
        let (program, _) = Self.countingLoop()
        let ns: [Float] = (0..<64).map { Float(($0 * 37) % 23) }
        for count in [64, 13, 1] {
            let (got, want) = try runBoth(program, count: count) { _, k in ns[k] }
            for k in 0..<count { #expect(got[k].x == want[k].x && got[k].x == ns[k]) }
        }
    }

    @Test("a loop that never ends stops after maxLoopIterations back jumps, like the reference")
    func loopBound() throws {
        let (program, _) = Self.countingLoop()
        let (got, want) = try runBoth(program, count: 3) { _, k in k == 1 ? 1e9 : 2 }
        #expect(got[1].y == Float(ShaderProgram.maxLoopIterations + 1) && got[1].y == want[1].y)
        #expect(got[0].x == 2 && got[2].x == 2)
    }

    @Test("samples go through the texture with the valid lane count; outputs may overwrite coordinates")
    func samples() throws {
        var b = ProgramBuilder()
        b.samplers = [ShaderSamplerUse(name: "main", mode: SamplerMode(bilinear: true, wraps: false), isVolume: false),
                      ShaderSamplerUse(name: "noisevol_hq", mode: SamplerMode(bilinear: false, wraps: true), isVolume: true)]
        let u = b.input(.uvX), v = b.input(.uvY), w = b.input(.rad)
        let r = b.register(), g = b.register(), a = b.register()
        let uu = b.register(), vv = b.register()
        b.code += [.move(dst: uu, a: u), .move(dst: vv, a: v),
                   .sample(slot: 0, u: uu, v: vv, w: -1, r: r, g: g, b: -1, a: a),
                   // The outputs overwrite u and v: sampled through scratch.
                   .sample(slot: 1, u: uu, v: vv, w: w, r: uu, g: -1, b: vv, a: -1)]
        let width = b.size(slot: 1, component: 0), inverseHeight = b.size(slot: 0, component: 3)
        let sum = b.binary(.add, r, b.binary(.multiply, a, width))
        let ret = b.binary(.add, b.binary(.add, uu, vv), inverseHeight)
        let program = b.program(sum, g, ret)
        let flat = FormulaTexture(width: 4, height: 2), volume = FormulaTexture(width: 8, height: 8, depth: 8)
        let (got, want) = try runBoth(program, count: 13, textures: [flat, volume]) { i, k in Float(k) * (i == .uvX ? 0.1 : (i == .uvY ? 0.2 : 0.3)) }
        for k in 0..<13 {
            let uk = Float(k) * 0.1, vk = Float(k) * 0.2, wk = Float(k) * 0.3
            #expect(got[k] == want[k])
            #expect(got[k].x == uk + (uk + vk) * 8 && got[k].y == vk && got[k].z == uk + wk + 0.5)
        }
        #expect(flat.largestCount == 13 && volume.largestCount == 13)
    }

    @Test("uniforms load per frame (past the block: 0); constants once; a register read before written starts at 0 each batch")
    func loads() throws {
        var b = ProgramBuilder()
        let u0 = b.uniform(0), u5 = b.uniform(5), c = b.constant(3)
        let junk = b.register()
        let sum = b.binary(.add, b.binary(.add, u0, u5), c)
        // Reads `junk` (never written before) and then writes it: the next batch must see 0 again.
        let out = b.binary(.add, sum, junk)
        b.code.append(.move(dst: junk, a: out))
        let machine = try ShaderMachine(program: b.program(out, junk, sum), lanes: 8)
        try machine.bind(textures: [])
        machine.setUniforms([2, 4])
        machine.run(count: 8)
        #expect(machine.output.r[3] == 5)
        machine.run(count: 8)
        #expect(machine.output.r[3] == 5)
        machine.setUniforms([-1])
        machine.run(count: 5)
        #expect(machine.output.r[4] == 2)
    }

    @Test("malformed programs and missing textures are clear errors, not crashes")
    func validation() throws {
        var b = ProgramBuilder()
        let x = b.input(.uvX), c = b.constant(1)
        let good = b.program(x, x, x)
        func fails(_ edit: (inout ShaderProgram) -> Void) -> ShaderMachineError? {
            var p = good
            edit(&p)
            do { _ = try ShaderMachine(program: p); return nil } catch { return error }
        }
        #expect(fails { $0.code = [.move(dst: 9, a: x)] } == .registerOutOfRange(9, operation: 0))
        #expect(fails { $0.code = [.jump(to: 5)] } == .jumpOutOfRange(5, operation: 0))
        #expect(fails { $0.code = [.move(dst: c, a: x)] } == .writesPreloaded(register: c, operation: 0))
        #expect(fails { $0.code = [.sample(slot: 0, u: x, v: x, w: -1, r: -1, g: -1, b: -1, a: -1)] } == .samplerOutOfRange(0, operation: 0))
        #expect(fails { $0.registerCount = 1 << 20 } == .tooBig(registers: 1 << 20, operations: 0))
        #expect(fails { $0.output = (x, 7, x) } != nil)
        #expect(fails { $0.textureSizes = [ShaderTextureSizeLoad(register: 1, slot: 0, component: 0)] } != nil)
        var sampled = good
        sampled.samplers = [ShaderSamplerUse(name: "main", mode: SamplerMode(bilinear: true, wraps: true), isVolume: false)]
        let machine = try ShaderMachine(program: sampled)
        #expect(throws: ShaderMachineError.missingTextures(needed: 1, given: 0)) { try machine.bind(textures: []) }
        #expect(throws: ShaderMachineError.emptyTexture(slot: 0)) { try machine.bind(textures: [FormulaTexture(width: 0)]) }
        #expect(ShaderMachineError.jumpOutOfRange(5, operation: 0).description.contains("jumps to 5"))
    }
}

/// A small deterministic generator for the tests (SplitMix64).
struct SplitMixForTests: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
