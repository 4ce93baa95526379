@testable import MilkDrop

/// A texture for the tests: every read gives `colour(u, v, w)` (w is nil for a 2-D read), so a test
/// sees exactly where the shader sampled.
final class FakeTexture: ShaderTexture {
    let width: Int, height: Int, depth: Int
    let colour: @Sendable (Float, Float, Float?) -> SIMD4<Float>

    init(width: Int = 8, height: Int = 4, depth: Int = 1,
         colour: @escaping @Sendable (Float, Float, Float?) -> SIMD4<Float> = { u, v, w in SIMD4(u, v, w ?? -1, 0.5) }) {
        self.width = width; self.height = height; self.depth = depth; self.colour = colour
    }

    func sample(mode: SamplerMode, count: Int, u: UnsafePointer<Float>, v: UnsafePointer<Float>, w: UnsafePointer<Float>?,
                r: UnsafeMutablePointer<Float>?, g: UnsafeMutablePointer<Float>?,
                b: UnsafeMutablePointer<Float>?, a: UnsafeMutablePointer<Float>?) {
        for i in 0..<count {
            let c = colour(u[i], v[i], w.map { $0[i] })
            r?[i] = c.x; g?[i] = c.y; b?[i] = c.z; a?[i] = c.w
        }
    }
}

/// Compiles and runs shaders through ``ShaderReference`` for one pixel.
enum ShaderRun {
    /// The pixel's inputs unless a test says otherwise.
    static let pixel: [ShaderPixelInput: Float] = [
        .uvX: 0.25, .uvY: 0.75, .uvOrigX: 0.125, .uvOrigY: 0.625, .rad: 0.5, .ang: 1.5, .hueR: 0.2, .hueG: 0.4, .hueB: 0.6,
    ]

    /// `ret` of `body` (the statements inside `shader_body { }`, after `declarations`).
    static func ret(_ body: String, declarations: String = "", kind: MilkShaderKind = .composite,
                    frame: ShaderFrameInput = ShaderFrameInput(), seed: UInt64 = 1,
                    inputs: [ShaderPixelInput: Float] = pixel,
                    textures: [String: FakeTexture] = [:]) throws -> SIMD3<Float> {
        let program = try ShaderCompiler.compile("\(declarations)\nshader_body\n{\n\(body)\n}", kind: kind)
        return run(program, frame: frame, seed: seed, inputs: inputs, textures: textures)
    }

    static func run(_ program: ShaderProgram, frame: ShaderFrameInput = ShaderFrameInput(), seed: UInt64 = 1,
                    inputs: [ShaderPixelInput: Float] = pixel, textures: [String: FakeTexture] = [:]) -> SIMD3<Float> {
        var uniforms = ShaderUniforms(seed: seed)
        uniforms.update(frame)
        let bound: [any ShaderTexture] = program.samplers.map { textures[$0.name] ?? FakeTexture() }
        let reference = ShaderReference(program: program, textures: bound)
        return reference.run(uniforms: uniforms.values) { inputs[$0] ?? 0 }
    }

    /// The value of a scalar expression (`ret.x`).
    static func value(_ expression: String, declarations: String = "", kind: MilkShaderKind = .composite,
                      frame: ShaderFrameInput = ShaderFrameInput()) throws -> Float {
        try ret("ret.x = \(expression);", declarations: declarations, kind: kind, frame: frame).x
    }
}

/// Close enough for single-precision arithmetic done in a different order.
func close(_ a: Float, _ b: Float, _ tolerance: Float = 1e-5) -> Bool { abs(a - b) <= tolerance * max(1, abs(b)) }
func close(_ a: SIMD3<Float>, _ b: SIMD3<Float>, _ tolerance: Float = 1e-5) -> Bool {
    close(a.x, b.x, tolerance) && close(a.y, b.y, tolerance) && close(a.z, b.z, tolerance)
}

/// The contract of `ShaderProgram.swift`, checked: every register in range, preloaded registers never
/// written by code, jumps inside the code, sampler slots and uniform offsets valid.
func contractViolations(_ p: ShaderProgram) -> [String] {
    var problems: [String] = []
    let count = p.registerCount
    func valid(_ r: Int32, _ what: String) { if r < 0 || r >= count { problems.append("\(what): register \(r) of \(count)") } }
    var preloaded = Set<Int32>()
    for c in p.constants { valid(c.register, "constant"); preloaded.insert(c.register) }
    for u in p.uniforms {
        valid(u.register, "uniform"); preloaded.insert(u.register)
        if u.offset < 0 || Int(u.offset) >= ShaderUniforms.count { problems.append("uniform offset \(u.offset)") }
    }
    for i in p.inputs { valid(i.register, "input"); preloaded.insert(i.register) }
    for t in p.textureSizes {
        valid(t.register, "texture size"); preloaded.insert(t.register)
        if t.slot < 0 || Int(t.slot) >= p.samplers.count { problems.append("texture size slot \(t.slot)") }
    }
    if preloaded.count != p.constants.count + p.uniforms.count + p.inputs.count + p.textureSizes.count {
        problems.append("two preloads share a register")
    }
    for (k, op) in p.code.enumerated() {
        for r in op.read { valid(r, "operation \(k) reads") }
        for r in op.written {
            valid(r, "operation \(k) writes")
            if preloaded.contains(r) { problems.append("operation \(k) writes preloaded register \(r)") }
        }
        switch op {
        case .jump(let to), .jumpIfNone(_, let to), .loopBack(_, let to):
            if to < 0 || Int(to) > p.code.count { problems.append("operation \(k) jumps to \(to)") }
        case .sample(let slot, _, _, _, _, _, _, _):
            if slot < 0 || Int(slot) >= p.samplers.count { problems.append("operation \(k) samples slot \(slot)") }
        default: break
        }
    }
    valid(p.output.r, "output"); valid(p.output.g, "output"); valid(p.output.b, "output")
    return problems
}
