/// A `.milk` preset made ready to run: its equations compiled once against their variables, its
/// settings read, its variables' slots looked up, so a frame does no string work.
///
/// MilkDrop's variable pools: the per-frame equations (and the init equations before them) share one
/// pool whose own variables persist from frame to frame; the per-vertex equations have another;
/// `q1`…`q32` carry values from the per-frame pool to the per-vertex one (and to the custom waves and
/// shapes). Every frame the per-frame variables restart from the file's values (``FrameVariables``).
package final class MilkPreset {
    /// The parsed file.
    package let file: MilkPresetFile
    /// The file's name without folder and extension, as lists show it.
    package let name: String
    /// True when the file has HLSL warp or composite shaders (MilkDrop 2).
    package var hasShaders: Bool { file.warpShader != nil || file.compositeShader != nil }
    /// What became of the preset's HLSL shaders.
    package let shaderStatus: ShaderStatus
    /// The compiled warp and composite shaders (nil: the fixed MilkDrop 1.x pass draws instead).
    package let warpProgram: ShaderProgram?, compositeProgram: ShaderProgram?

    /// What became of a preset's MilkDrop 2 shaders.
    package enum ShaderStatus: Sendable, Equatable {
        /// The file has none.
        case none
        /// Switched off (`--milkdrop-shaders off`): drawn MilkDrop 1.x style.
        case off
        /// Compiled: they run.
        case running
        /// One did not compile (`reason`: its category, for grouping; `message`: file, line, problem);
        /// that one is drawn by the fixed MilkDrop 1.x pass, a shader that compiled still runs.
        case failed(reason: String, message: String)
    }

    /// Settings the equations cannot change.
    let waveScale: Float, waveSmoothing: Float, modulateWaveAlpha: Bool, waveAlphaStart: Float, waveAlphaEnd: Float
    /// `fShader` (0…1): how much of MilkDrop's drifting corner tint the composite applies (none at 0).
    let tintAmount: Float
    let warpAnimationSpeed: Float, warpScale: Float

    let globalBuffer: MegaBuffer
    let frameMemory: ExpressionMemory, vertexMemory: ExpressionMemory
    private let initCode: ExpressionProgram, perFrame: ExpressionProgram
    let perVertex: ExpressionProgram
    /// The enabled custom waves and shapes, compiled (those not enabled are left out).
    let waves: [CustomWave], shapes: [CustomShape]
    private let starts: [Double]
    private let writableSlots: [Int], inputSlots: [Int], qSlots: [Int]
    private let vertexInputSlots: [Int], vertexQSlots: [Int], vertexMotionSlots: [Int]
    private let vertexX: Int, vertexY: Int, vertexRadius: Int, vertexAngle: Int
    private var qAfterInit = [Double](repeating: 0, count: FrameVariables.qCount)
    /// q1…q32 after this frame's per-frame equations (what waves and shapes start from).
    package private(set) var q = [Double](repeating: 0, count: FrameVariables.qCount)
    private var scratch = [Double](repeating: 0, count: FrameVariables.writable.count)
    var initialised = false
    let seed: UInt64
    /// Every memory of the preset (frame, vertex, each wave's and shape's), for going back a frame.
    var snapshots: [MemorySnapshot] = []
    /// Frames whose per-frame equations left NaN or infinity in a variable the renderer reads (the
    /// renderer used the default instead).
    package internal(set) var nonFiniteFrames = 0
    /// This frame's work under ``MilkDropLimits/workBudget`` (or the budget given at init).
    var work: MilkWork
    /// The first block that ran out of its work budget (reported once; the preset's code was stopped
    /// for that frame), and how many frames ran out.
    package private(set) var workOverrun: MilkCodeLabel?
    package private(set) var overBudgetFrames = 0
    /// The most each kind of code spent in one frame so far (measuring real presets against the budget).
    package var peakWork: MilkWorkAmounts { work.peak }
    /// Core nanoseconds a pixel of its compiled shaders costs, warp and composite together (0 without
    /// shaders): what ``MilkDropLimits/shaderNanosecondsPerPixel`` bounds.
    package let shaderCostPerPixel: Float
    private let initLabel: MilkCodeLabel, perFrameLabel: MilkCodeLabel, perVertexLabel: MilkCodeLabel

    /// Compiles `file`'s equations, and its HLSL shaders when `shaders` is on; `seed` makes `rand`
    /// repeatable. Throws with the file line of the first equation that does not compile (a shader
    /// that does not compile is not an error: see ``shaderStatus``). A block too long to run within
    /// `workBudget` (its static length times its runs a frame), or shaders costing more than
    /// `shaderBudget` nanoseconds a pixel, is refused (``MilkPresetError/Reason/overBudget``).
    package init(file: MilkPresetFile, seed: UInt64 = 0, shaders: Bool = true,
                 workBudget: MilkWorkAmounts = MilkDropLimits.workBudget,
                 shaderBudget: Float = MilkDropLimits.shaderNanosecondsPerPixel) throws(MilkPresetError) {
        self.file = file
        self.seed = seed
        work = MilkWork(budget: workBudget)
        initLabel = MilkCodeLabel("per_frame_init", file.perFrameInit, .initial)
        perFrameLabel = MilkCodeLabel("per_frame", file.perFrame, .perFrame)
        perVertexLabel = MilkCodeLabel("per_pixel", file.perPixel, .perVertex)
        (warpProgram, compositeProgram, shaderStatus) = Self.compileShaders(file, enabled: shaders)
        let base = file.path.split(separator: "/").last.map(String.init) ?? file.path
        name = base.hasSuffix(".milk") ? String(base.dropLast(5)) : base
        func setting(_ key: String, _ fallback: Float) -> Float { Self.setting(file, key, fallback) }
        waveScale = setting("fWaveScale", 1)
        waveSmoothing = max(0, min(0.9, setting("fWaveSmoothing", 0.75)))
        modulateWaveAlpha = setting("bModWaveAlphaByVolume", 0) != 0
        waveAlphaStart = setting("fModWaveAlphaStart", 0.75)
        waveAlphaEnd = setting("fModWaveAlphaEnd", 0.95)
        tintAmount = max(0, min(1, setting("fShader", 0)))
        warpAnimationSpeed = setting("fWarpAnimSpeed", 1)
        warpScale = setting("fWarpScale", 1)

        globalBuffer = MegaBuffer()
        frameMemory = ExpressionMemory(seed: seed, globalBuffer: globalBuffer)
        vertexMemory = ExpressionMemory(seed: seed &+ 1, globalBuffer: globalBuffer)
        let qNames = (1...FrameVariables.qCount).map { "q\($0)" }
        // Slots first, so the variables the renderer sets exist before the code that reads them.
        writableSlots = try Self.slots(file, FrameVariables.writable.map(\.name), frameMemory)
        inputSlots = try Self.slots(file, FrameVariables.inputs, frameMemory)
        qSlots = try Self.slots(file, qNames, frameMemory)
        vertexInputSlots = try Self.slots(file, FrameVariables.inputs, vertexMemory)
        vertexQSlots = try Self.slots(file, qNames, vertexMemory)
        vertexMotionSlots = try Self.slots(file, FrameVariables.vertexMotion, vertexMemory)
        let position = try Self.slots(file, ["x", "y", "rad", "ang"], vertexMemory)
        (vertexX, vertexY, vertexRadius, vertexAngle) = (position[0], position[1], position[2], position[3])
        starts = FrameVariables.writable.map { FrameVariables.start($0, in: file.values) }
        initCode = try Self.compile(file, file.perFrameInit, frameMemory, "per_frame_init")
        perFrame = try Self.compile(file, file.perFrame, frameMemory, "per_frame")
        perVertex = try Self.compile(file, file.perPixel, vertexMemory, "per_pixel")
        (waves, shapes) = try Self.customElements(file, globalBuffer: globalBuffer, seed: seed)
        snapshots = [MemorySnapshot(frameMemory), MemorySnapshot(vertexMemory)]
            + waves.flatMap { [MemorySnapshot($0.frameMemory), MemorySnapshot($0.pointMemory)] }
            + shapes.map { MemorySnapshot($0.memory) }
        shaderCostPerPixel = [warpProgram, compositeProgram].compactMap { $0 }.reduce(0) { $0 + ShaderCost.perPixel($1) }
        try checkSizes(workBudget)
        try checkShaderCost(shaderBudget)
    }

    /// Refuses the preset when its shaders would cost a pixel more than `budget` nanoseconds
    /// (``MilkDropLimits/shaderNanosecondsPerPixel``), naming the first line of the costlier one.
    private func checkShaderCost(_ budget: Float) throws(MilkPresetError) {
        guard shaderCostPerPixel > budget else { return }
        let warp = warpProgram.map(ShaderCost.perPixel) ?? 0, composite = compositeProgram.map(ShaderCost.perPixel) ?? 0
        let (which, block) = warp >= composite ? ("warp", file.warpShader) : ("composite", file.compositeShader)
        throw MilkPresetError(path: file.path, line: block?.line(atOffset: 0),
                              message: "the shaders would cost \(Int(shaderCostPerPixel)) ns a pixel (the \(which) shader \(Int(max(warp, composite)))), past the budget of \(Int(budget))",
                              reason: .overBudget)
    }

    /// Refuses the preset when one block's code, run as often as a frame runs it, is already over its
    /// kind's budget (100,000 instructions of per-pixel code): it would never finish a frame.
    private func checkSizes(_ budget: MilkWorkAmounts) throws(MilkPresetError) {
        var blocks: [(MilkCodeLabel, ExpressionProgram?, Int)] = [
            (initLabel, initCode, 1), (perFrameLabel, perFrame, 1), (perVertexLabel, perVertex, 1),
        ]
        for w in waves {
            blocks += [(w.initLabel, w.initCode, 1), (w.perFrameLabel, w.perFrame, 1),
                       (w.perPointLabel, w.perPoint, MilkDropLimits.wavePoints)]
        }
        for s in shapes {
            blocks += [(s.initLabel, s.initCode, 1), (s.perFrameLabel, s.perFrame, s.instanceCount)]
        }
        for (label, program, runs) in blocks {
            guard let program, let why = MilkCodeLabel.refusal(label, size: program.instructionCount + 1, runs: runs,
                                                               budget: budget) else { continue }
            throw MilkPresetError(path: file.path, line: label.line, message: why, reason: .overBudget)
        }
    }

    /// The first overrun as a survey or playlist reports it: the file, the block's line, which block.
    package var overrunError: MilkPresetError? {
        workOverrun.map {
            MilkPresetError(path: file.path, line: $0.line,
                            message: "\($0.block) ran out of the work budget (\($0.kind.allowance(work.budget[$0.kind])))",
                            reason: .overBudget)
        }
    }

    /// Ends a frame's work: an overrun is counted, and the first one kept for the report.
    func finishWork() {
        guard let overrun = work.overrun else { return }
        overBudgetFrames += 1
        if workOverrun == nil { workOverrun = overrun }
    }

    /// The number `key` of `file`, or `fallback` when it is missing or not finite; clamped to ±10⁶.
    private static func setting(_ file: MilkPresetFile, _ key: String, _ fallback: Float) -> Float {
        guard let v = file.number(key), v.isFinite else { return fallback }
        return Float(max(-1e6, min(1e6, v)))
    }

    /// `block` compiled on `memory`; an error names the section (`what`) and its line in `file`.
    private static func compile(_ file: MilkPresetFile, _ block: CodeBlock, _ memory: ExpressionMemory,
                                _ what: String) throws(MilkPresetError) -> ExpressionProgram {
        do {
            return try ExpressionProgram(compiling: block.text, memory: memory)
        } catch {
            throw MilkPresetError(path: file.path, line: block.line(atOffset: error.offset), message: "\(what): \(error.message)",
                                  reason: .doesNotCompile)
        }
    }

    /// The slots of the variables `names` in `memory` (created when new).
    private static func slots(_ file: MilkPresetFile, _ names: [String], _ memory: ExpressionMemory) throws(MilkPresetError) -> [Int] {
        var out: [Int] = []
        for n in names {
            do { out.append(try memory.slot(n)) } catch {
                throw MilkPresetError(path: file.path, line: nil, message: error.message, reason: .doesNotCompile)
            }
        }
        return out
    }

    /// The file's enabled custom waves and shapes, compiled (each with a seed of its own).
    private static func customElements(_ file: MilkPresetFile, globalBuffer: MegaBuffer,
                                       seed: UInt64) throws(MilkPresetError) -> ([CustomWave], [CustomShape]) {
        do {
            var waves: [CustomWave] = [], shapes: [CustomShape] = []
            for (i, code) in file.waves.enumerated() {
                let wave = try CustomWave(code: code, index: i, globalBuffer: globalBuffer, seed: seed &+ 10 &+ UInt64(i))
                if wave.settings.enabled { waves.append(wave) }
            }
            for (i, code) in file.shapes.enumerated() {
                let shape = try CustomShape(code: code, index: i, globalBuffer: globalBuffer, seed: seed &+ 20 &+ UInt64(i))
                if shape.settings.enabled { shapes.append(shape) }
            }
            return (waves, shapes)
        } catch {
            throw MilkPresetError(path: file.path, line: error.line > 0 ? error.line : nil,
                                  message: "\(error.block): \(error.error.message)", reason: .doesNotCompile)
        }
    }

    /// The file's warp and composite shaders compiled (when `enabled`), and what became of them.
    private static func compileShaders(_ file: MilkPresetFile, enabled: Bool)
        -> (ShaderProgram?, ShaderProgram?, ShaderStatus) {
        guard file.hasShaders else { return (nil, nil, .none) }
        guard enabled else { return (nil, nil, .off) }
        var failure: ShaderError?
        func compile(_ block: CodeBlock?, _ kind: MilkShaderKind) -> ShaderProgram? {
            guard let block else { return nil }
            do {
                return try ShaderCompiler.compile(block, kind: kind)
            } catch {
                if failure == nil { failure = error }
                return nil
            }
        }
        let warp = compile(file.warpShader, .warp), composite = compile(file.compositeShader, .composite)
        guard let failure else { return (warp, composite, .running) }
        return (warp, composite, .failed(reason: failure.reason.description, message: "\(file.path): \(failure.description)"))
    }

    /// The read-only inputs of one frame, in ``FrameVariables/inputs`` order.
    package struct Inputs: Sendable {
        package var time = 0.0, fps = 60.0, frame = 0.0, progress = 0.0
        package var bass = 1.0, mid = 1.0, treb = 1.0, bassAtt = 1.0, midAtt = 1.0, trebAtt = 1.0
        package var meshX = 48.0, meshY = 36.0, pixelsX = 1.0, pixelsY = 1.0, aspectX = 1.0, aspectY = 1.0
        package init() {}
        func value(_ i: Int) -> Double {
            switch i {
            case 0: time; case 1: fps; case 2: frame; case 3: progress; case 4: bass; case 5: mid; case 6: treb
            case 7: bassAtt; case 8: midAtt; case 9: trebAtt; case 10: meshX; case 11: meshY
            case 12: pixelsX; case 13: pixelsY; case 14: aspectX; default: aspectY
            }
        }
    }

    /// Runs one frame's equations (the init equations first, on the first frame) and returns the
    /// per-frame values; ``q`` holds q1…q32 afterwards. Starts the frame's work budget: code that runs
    /// out of it stops there, and the rest of the preset's code does not run this frame.
    package func runFrame(_ inputs: Inputs) -> FrameValues {
        work.startFrame()
        for (i, s) in inputSlots.enumerated() { frameMemory[s] = inputs.value(i) }
        if !initialised {
            initialised = true
            for (i, s) in writableSlots.enumerated() { frameMemory[s] = starts[i] }
            _ = work.run(initCode, initLabel)
            for (i, s) in qSlots.enumerated() { qAfterInit[i] = frameMemory[s] }
        }
        for (i, s) in writableSlots.enumerated() { frameMemory[s] = starts[i] }
        for (i, s) in qSlots.enumerated() { frameMemory[s] = qAfterInit[i] }
        _ = work.run(perFrame, perFrameLabel)
        for (i, s) in qSlots.enumerated() { q[i] = frameMemory[s] }
        var finite = true
        for (i, s) in writableSlots.enumerated() {
            scratch[i] = frameMemory[s]
            if !scratch[i].isFinite { finite = false }
        }
        if !finite { nonFiniteFrames += 1 }
        return scratch.withUnsafeBufferPointer { FrameValues($0.baseAddress!) }
    }

    /// Warps every vertex of `mesh` for this frame: through the per-vertex equations when the preset
    /// has them (each vertex starting from the per-frame values), else all alike. Once the code ran out of
    /// its budget, the vertices left get the per-frame values.
    package func warp(_ mesh: WarpMesh, _ values: FrameValues, _ inputs: Inputs) {
        let wobble = WarpMesh.Wobble(time: inputs.time, animationSpeed: warpAnimationSpeed, scale: warpScale)
        let motion = values.motion
        guard !perVertex.isEmpty else {
            mesh.warpAll(motion, wobble)
            return
        }
        for (i, s) in vertexInputSlots.enumerated() { vertexMemory[s] = inputs.value(i) }
        for (i, s) in vertexQSlots.enumerated() { vertexMemory[s] = q[i] }
        let m = vertexMotionSlots, label = perVertexLabel
        // The meter in a local for the loop: no access check on the class's property per vertex.
        var work = self.work
        defer { self.work = work }
        for k in 0..<mesh.vertexCount {
            vertexMemory[vertexX] = Double(mesh.positionX[k] * 0.5 * mesh.aspectX + 0.5)
            vertexMemory[vertexY] = Double(mesh.positionY[k] * 0.5 * mesh.aspectY + 0.5)
            vertexMemory[vertexRadius] = Double(mesh.radius[k])
            vertexMemory[vertexAngle] = Double(mesh.angle[k])
            vertexMemory[m[0]] = Double(motion.zoom); vertexMemory[m[1]] = Double(motion.zoomExponent)
            vertexMemory[m[2]] = Double(motion.rotation); vertexMemory[m[3]] = Double(motion.warp)
            vertexMemory[m[4]] = Double(motion.centerX); vertexMemory[m[5]] = Double(motion.centerY)
            vertexMemory[m[6]] = Double(motion.dx); vertexMemory[m[7]] = Double(motion.dy)
            vertexMemory[m[8]] = Double(motion.stretchX); vertexMemory[m[9]] = Double(motion.stretchY)
            _ = work.run(perVertex, label)
            var v = WarpMesh.Motion()
            v.zoom = finite(vertexMemory[m[0]], motion.zoom); v.zoomExponent = finite(vertexMemory[m[1]], motion.zoomExponent)
            v.rotation = finite(vertexMemory[m[2]], motion.rotation); v.warp = finite(vertexMemory[m[3]], motion.warp)
            v.centerX = finite(vertexMemory[m[4]], motion.centerX); v.centerY = finite(vertexMemory[m[5]], motion.centerY)
            v.dx = finite(vertexMemory[m[6]], motion.dx); v.dy = finite(vertexMemory[m[7]], motion.dy)
            v.stretchX = finite(vertexMemory[m[8]], motion.stretchX); v.stretchY = finite(vertexMemory[m[9]], motion.stretchY)
            mesh.warp(vertex: k, v, wobble)
        }
    }

    @inline(__always)
    private func finite(_ x: Double, _ fallback: Float) -> Float {
        x.isFinite ? Float(max(-1e9, min(1e9, x))) : fallback
    }
}
