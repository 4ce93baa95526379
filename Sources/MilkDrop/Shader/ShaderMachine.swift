/// Runs a ``ShaderProgram`` over a batch of up to ``lanes`` pixels at once: every register is a row of
/// `lanes` floats, and every operation is one tight loop over them (see `ShaderMachine+Operations`),
/// so the cost of decoding an operation is paid once per batch, not per pixel.
///
/// Before it runs, a program loses its moves (jump-free programs) and its registers are renamed so
/// that values whose lives do not overlap share one (`ShaderMachine+Registers`): the register file
/// holds the live values only. Operations stay one loop per lane row, so the machine is bound by
/// memory traffic on its rows: about 0.1 ns per pixel for an addition, 1.3 for a sine (SSE2).
///
/// One machine per worker thread: its register file (machine registers × `lanes` floats, 64-byte
/// aligned) and loop counters are allocated once, at ``init(program:lanes:)``; constants are filled
/// then, uniforms by ``setUniforms(_:)`` once per frame, texture sizes by ``bind(textures:)``. A batch
/// is: the caller fills the input registers (``inputRegister(_:)``), calls ``run(count:)``, reads the
/// ``output`` registers. Nothing is allocated per batch or per frame.
///
/// Results equal ``ShaderReference``'s bit for bit for every operation but the transcendentals,
/// which are `LaneMath`'s vectorisable approximations (bounds in its doc comment), and the
/// rarely used tan, asin, acos, sinh, cosh and tanh, which call Glibc lane by lane (exact).
/// Jumps are taken from the batch's valid lanes only: ``jumpIfNone`` skips when no valid lane is
/// set, a loop goes round while any valid lane is (at most ``ShaderProgram/maxLoopIterations`` times
/// per batch, like the reference per pixel: the bound only matters for a runaway loop).
package final class ShaderMachine {
    /// The batch size, chosen by measurement (release build, CPU time of one thread at 1280x720,
    /// a 51-operation warp shader / a 247-operation composite): 64 lanes 13.1 / 60.4 ms, 128 lanes
    /// 11.3 / 49.5 ms, 256 lanes 10.2 / 44.6 ms. Decoding an operation costs about as much as a loop
    /// over 64 lanes of an addition; at 256 lanes the heavy shader's 61 live registers (61 KiB) still
    /// sit in the first two cache levels. The price: a loop runs until its slowest of 256 pixels ends.
    package static let defaultLanes = 256
    /// Most registers a program may use (a real shader needs a few hundred): bounds the register file
    /// before it is allocated.
    package static let maxRegisters = 1 << 14
    /// Most operations in a program.
    package static let maxOperations = 1 << 16

    package let program: ShaderProgram
    /// `program` without its moves (``withoutMoves(_:)``) and with its registers renamed by
    /// ``RegisterAllocation``: what the machine runs.
    let renamed: ShaderProgram
    /// Program register → machine register.
    let physical: [Int32]
    /// Lanes per register (a multiple of 8).
    package let lanes: Int
    /// The register file, `registerCount × lanes` floats.
    let file: UnsafeMutablePointer<Float>
    let code: UnsafeMutablePointer<LaneInstruction>
    let codeCount: Int
    /// The sample operations' operands, indexed by their instruction's `dst`.
    let samples: [LaneSample]
    /// Per instruction, how often its `loopBack` was taken in this batch.
    let loopCounts: UnsafeMutablePointer<Int32>
    let loopSites: [Int]
    /// Registers the code may read before it writes them in a batch: zeroed before each batch, so a
    /// batch never sees the previous one's values (the reference starts every pixel from zeros).
    let zeroEachBatch: [Int]
    /// Four registers of scratch for a sample whose outputs overwrite its coordinates.
    let scratch: UnsafeMutablePointer<Float>
    /// Bound by ``bind(textures:)``, in slot order.
    @exclusivity(unchecked) private(set) var textures: ContiguousArray<any ShaderTexture> = []

    /// A machine for `program`, batches of `lanes` (rounded up to a multiple of 8). Throws when the
    /// program is malformed (a register, jump or slot out of range, or too big): compiled code is
    /// checked here once so that the lane loops need no checks.
    package init(program: ShaderProgram, lanes: Int = ShaderMachine.defaultLanes) throws(ShaderMachineError) {
        try Self.validate(program)
        self.program = program
        let direct = Self.withoutMoves(program)
        let allocation = RegisterAllocation(direct)
        let renamed = allocation.rename(direct)
        self.renamed = renamed
        physical = allocation.physical
        let laneCount = max(8, (lanes + 7) & ~7)
        self.lanes = laneCount
        let registers = Int(renamed.registerCount)
        let bytes = max(1, registers) * self.lanes * MemoryLayout<Float>.stride
        file = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64).bindMemory(to: Float.self, capacity: bytes / 4)
        file.initialize(repeating: 0, count: bytes / 4)
        scratch = UnsafeMutableRawPointer.allocate(byteCount: 4 * self.lanes * 4, alignment: 64)
            .bindMemory(to: Float.self, capacity: 4 * self.lanes)
        scratch.initialize(repeating: 0, count: 4 * self.lanes)
        codeCount = renamed.code.count
        code = .allocate(capacity: max(1, codeCount))
        loopCounts = .allocate(capacity: max(1, codeCount))
        loopCounts.initialize(repeating: 0, count: max(1, codeCount))
        var samples: [LaneSample] = []
        var sites: [Int] = []
        let uniformRows = Set(renamed.constants.map(\.register) + renamed.uniforms.map(\.register)
                              + renamed.textureSizes.map(\.register))
        for (index, operation) in renamed.code.enumerated() {
            let instruction = LaneInstruction(operation, lanes: laneCount, samplers: renamed.samplers, uniform: uniformRows,
                                              samples: &samples)
            (code + index).initialize(to: instruction)
            if case .loopBack = operation { sites.append(index) }
        }
        self.samples = samples
        loopSites = sites
        zeroEachBatch = allocation.zeroed.map { Int(allocation.physical[Int($0)]) * laneCount }.sorted()
        for c in renamed.constants { fill(row: c.register, with: c.value) }
    }

    deinit {
        file.deallocate()
        scratch.deallocate()
        code.deinitialize(count: codeCount)
        code.deallocate()
        loopCounts.deallocate()
    }

    /// The lanes of the program's register `register` (one the program uses).
    package func register(_ register: Int32) -> UnsafeMutablePointer<Float> {
        row(physical[Int(register)])
    }

    /// The lanes of machine register `index`.
    @inline(__always) func row(_ index: Int32) -> UnsafeMutablePointer<Float> {
        file + Int(index) &* lanes
    }

    /// The register loaded with `input`, or nil when the program does not read it. When the
    /// program loads one input into several registers, ``run(count:)`` copies the first to the others.
    package func inputRegister(_ input: ShaderPixelInput) -> UnsafeMutablePointer<Float>? {
        for load in renamed.inputs where load.input == input { return row(load.register) }
        return nil
    }

    /// Whether the program reads `input`.
    package func reads(_ input: ShaderPixelInput) -> Bool { program.inputs.contains { $0.input == input } }

    /// `ret`'s red, green and blue lanes after ``run(count:)``.
    package var output: (r: UnsafeMutablePointer<Float>, g: UnsafeMutablePointer<Float>, b: UnsafeMutablePointer<Float>) {
        (row(renamed.output.r), row(renamed.output.g), row(renamed.output.b))
    }

    /// Loads the frame's uniforms from `block` (an offset past its end reads 0, as in the reference).
    package func setUniforms(_ block: [Float]) {
        for u in renamed.uniforms {
            let offset = Int(u.offset)
            fill(row: u.register, with: offset >= 0 && offset < block.count ? block[offset] : 0)
        }
    }

    /// Binds the program's textures in slot order and loads their sizes. Throws when fewer textures
    /// than the program's samplers are given, or one is empty.
    package func bind(textures: [any ShaderTexture]) throws(ShaderMachineError) {
        guard textures.count >= program.samplers.count else {
            throw .missingTextures(needed: program.samplers.count, given: textures.count)
        }
        for (slot, texture) in textures.prefix(program.samplers.count).enumerated()
        where texture.width < 1 || texture.height < 1 || texture.depth < 1 {
            throw .emptyTexture(slot: slot)
        }
        self.textures = ContiguousArray(textures.prefix(program.samplers.count))
        for t in renamed.textureSizes {
            let texture = self.textures[Int(t.slot)]
            let w = Float(texture.width), h = Float(texture.height)
            let sizes: [Float] = [w, h, 1 / w, 1 / h]
            fill(row: t.register, with: sizes[Int(t.component)])
        }
    }

    private func fill(row index: Int32, with value: Float) {
        row(index).update(repeating: value, count: lanes)
    }

    /// Runs the program over the batch: lanes `0..<count` are pixels (1…``lanes``); lanes past
    /// `count` are computed too, up to the next multiple of 8, but decide no jump and are sampled with
    /// no texture.
    package func run(count: Int) {
        precondition(count > 0 && count <= lanes, "a batch is 1…lanes pixels")
        precondition(textures.count == program.samplers.count, "bind(textures:) first")
        let n = (count + 7) & ~7
        for offset in zeroEachBatch { (file + offset).update(repeating: 0, count: n) }
        for site in loopSites { loopCounts[site] = 0 }
        copyDuplicateInputs(n)
        var pc = 0
        while pc < codeCount {
            let i = code[pc]
            pc &+= 1
            switch i.kind {
            case .jump:
                pc = i.a
            case .jumpIfNone:
                if !any(file + i.b, count) { pc = i.a }
            case .loopBack:
                if loopCounts[pc &- 1] < ShaderProgram.maxLoopIterations && any(file + i.b, count) {
                    loopCounts[pc &- 1] &+= 1
                    pc = i.a
                }
            case .sample:
                sample(samples[i.dst], count: count, n: n)
            default:
                execute(i, n)
            }
        }
    }

    /// True when any of the first `count` lanes is not 0.
    @inline(__always) private func any(_ mask: UnsafeMutablePointer<Float>, _ count: Int) -> Bool {
        for k in 0..<count where mask[k] != 0 { return true }
        return false
    }

    private func copyDuplicateInputs(_ n: Int) {
        let inputs = renamed.inputs
        guard inputs.count > 1 else { return }
        for (k, load) in inputs.enumerated() {
            if let first = inputs[..<k].first(where: { $0.input == load.input }), first.register != load.register {
                row(load.register).update(from: row(first.register), count: n)
            }
        }
    }

    private func sample(_ s: LaneSample, count: Int, n: Int) {
        let texture = textures[s.slot]
        let u = UnsafePointer(file + s.u), v = UnsafePointer(file + s.v)
        let w = s.w >= 0 ? UnsafePointer(file + s.w) : nil
        if s.overwritesCoordinates {
            // Into scratch first, then out: the texture may read a coordinate after writing a channel.
            texture.sample(mode: s.mode, count: count, u: u, v: v, w: w,
                           r: s.r >= 0 ? scratch : nil, g: s.g >= 0 ? scratch + lanes : nil,
                           b: s.b >= 0 ? scratch + 2 * lanes : nil, a: s.a >= 0 ? scratch + 3 * lanes : nil)
            if s.r >= 0 { (file + s.r).update(from: scratch, count: count) }
            if s.g >= 0 { (file + s.g).update(from: scratch + lanes, count: count) }
            if s.b >= 0 { (file + s.b).update(from: scratch + 2 * lanes, count: count) }
            if s.a >= 0 { (file + s.a).update(from: scratch + 3 * lanes, count: count) }
        } else {
            texture.sample(mode: s.mode, count: count, u: u, v: v, w: w,
                           r: s.r >= 0 ? file + s.r : nil, g: s.g >= 0 ? file + s.g : nil,
                           b: s.b >= 0 ? file + s.b : nil, a: s.a >= 0 ? file + s.a : nil)
        }
    }
}

/// Why a program cannot run.
package enum ShaderMachineError: Error, Equatable, CustomStringConvertible {
    case tooBig(registers: Int, operations: Int)
    case registerOutOfRange(Int32, operation: Int)
    case jumpOutOfRange(Int32, operation: Int)
    case samplerOutOfRange(Int32, operation: Int)
    case writesPreloaded(register: Int32, operation: Int)
    case badLoad(register: Int32)
    case missingTextures(needed: Int, given: Int)
    case emptyTexture(slot: Int)

    package var description: String {
        switch self {
        case let .tooBig(registers, operations):
            "shader too big: \(registers) registers, \(operations) operations (at most \(ShaderMachine.maxRegisters), \(ShaderMachine.maxOperations))"
        case let .registerOutOfRange(r, op): "shader operation \(op) uses register \(r), out of range"
        case let .jumpOutOfRange(to, op): "shader operation \(op) jumps to \(to), out of range"
        case let .samplerOutOfRange(slot, op): "shader operation \(op) samples slot \(slot), which has no sampler"
        case let .writesPreloaded(r, op): "shader operation \(op) writes register \(r), which holds a constant, uniform, input or size"
        case let .badLoad(r): "shader loads register \(r), out of range or with a bad texture size"
        case let .missingTextures(needed, given): "shader needs \(needed) textures, \(given) bound"
        case let .emptyTexture(slot): "shader texture in slot \(slot) is empty"
        }
    }
}
