/// A MilkDrop 2 pixel shader (`warp_` or `comp_`), compiled once per preset into straight-line scalar
/// operations over *lanes*: every register holds one `Float` per pixel of a batch (a run of pixels of
/// one row), so one dispatch of an operation works on many pixels at once. Vectors and matrices are
/// scalarised by the compiler (a `float3` is three registers), `if`/`?:` become `select`s under masks,
/// and loops whose condition differs between pixels run under a mask with a jump back while any lane
/// is still active (bounded: see ``ShaderProgram/maxLoopIterations``).
///
/// This file is the contract between the compiler (`ShaderCompiler`, which produces programs) and the
/// machine (`ShaderMachine`, which runs them over row strips); neither adds an operation the other does
/// not know.
package struct ShaderProgram: Sendable, Equatable {
    /// Registers the program uses (each `lanes` floats in the machine).
    package var registerCount: Int32
    /// Registers holding a constant, set once when the machine is prepared (never written by `code`).
    package var constants: [ShaderConstant]
    /// Registers holding a uniform (the same for every pixel of a frame), set once per frame from the
    /// uniform block (never written by `code`).
    package var uniforms: [ShaderUniformLoad]
    /// Registers holding per-pixel inputs, set per batch by the machine (never written by `code`).
    package var inputs: [ShaderInputLoad]
    /// The textures the shader samples, in slot order (`ShaderOperation.sample`'s `slot`).
    package var samplers: [ShaderSamplerUse]
    /// Registers holding `texsize_NAME` of a sampled texture (set once the textures are bound).
    package var textureSizes: [ShaderTextureSizeLoad]
    /// The operations, run in order for every batch (jumps only within this array).
    package var code: [ShaderOperation]
    /// Where the result is: `ret`'s red, green and blue registers.
    package var output: (r: Int32, g: Int32, b: Int32)

    package init(registerCount: Int32, constants: [ShaderConstant], uniforms: [ShaderUniformLoad],
                 inputs: [ShaderInputLoad], samplers: [ShaderSamplerUse], textureSizes: [ShaderTextureSizeLoad] = [],
                 code: [ShaderOperation], output: (r: Int32, g: Int32, b: Int32)) {
        self.registerCount = registerCount; self.constants = constants; self.uniforms = uniforms
        self.inputs = inputs; self.samplers = samplers; self.textureSizes = textureSizes
        self.code = code; self.output = output
    }

    package static func == (a: ShaderProgram, b: ShaderProgram) -> Bool {
        a.registerCount == b.registerCount && a.constants == b.constants && a.uniforms == b.uniforms
            && a.inputs == b.inputs && a.samplers == b.samplers && a.textureSizes == b.textureSizes && a.code == b.code
            && a.output.r == b.output.r && a.output.g == b.output.g && a.output.b == b.output.b
    }

    /// How many times each operation of `code` can run for one pixel at most: once, times
    /// ``maxLoopIterations`` for every loop (a `loopBack` and the operations it jumps back over) around it.
    package var executionBounds: [Int] {
        let cap = 1 << 40
        var bounds = [Int](repeating: 1, count: code.count)
        for (i, op) in code.enumerated() {
            guard case .loopBack(_, let to) = op, to >= 0, Int(to) <= i else { continue }
            for k in Int(to)...i { bounds[k] = min(cap, bounds[k] &* Self.maxLoopIterations) }
        }
        return bounds
    }

    /// The most operations one pixel can execute: what a frame costs at worst, so the compiler can
    /// refuse a program that would stall every frame.
    package var executedOperationsBound: Int { executionBounds.reduce(0) { min(1 << 40, $0 &+ $1) } }

    /// A loop whose lanes disagree runs at most this many times per batch, whatever its bound says
    /// (MilkDrop's shaders are compiled for pixel-shader model 3, whose loops are bounded by 255).
    package static let maxLoopIterations = 1024
}

package struct ShaderConstant: Sendable, Equatable {
    package var register: Int32
    package var value: Float
    package init(register: Int32, value: Float) { self.register = register; self.value = value }
}

/// A register loaded from the frame's uniform block (`ShaderUniforms`) at `offset`.
package struct ShaderUniformLoad: Sendable, Equatable {
    package var register: Int32
    package var offset: Int32
    package init(register: Int32, offset: Int32) { self.register = register; self.offset = offset }
}

/// A register holding a size of sampler `slot`'s texture: `component` 0…3 is width, height, 1/width,
/// 1/height in texels (MilkDrop's `texsize_NAME`, a float4).
package struct ShaderTextureSizeLoad: Sendable, Equatable {
    package var register: Int32
    package var slot: Int32
    package var component: Int32
    package init(register: Int32, slot: Int32, component: Int32) {
        self.register = register; self.slot = slot; self.component = component
    }
}

/// A register loaded per batch with a value of each pixel.
package struct ShaderInputLoad: Sendable, Equatable {
    package var register: Int32
    package var input: ShaderPixelInput
    package init(register: Int32, input: ShaderPixelInput) { self.register = register; self.input = input }
}

/// What MilkDrop hands each pixel of a warp or composite shader.
package enum ShaderPixelInput: Sendable, Equatable {
    /// `uv`: where the pixel reads (warp: the mesh's warped coordinate; composite: the pixel's own), 0…1,
    /// v down.
    case uvX, uvY
    /// `uv_orig`: the pixel's own coordinate, 0…1, v down.
    case uvOrigX, uvOrigY
    /// `rad` (0 at the centre, 1 at the corners... as MilkDrop's mesh computes it) and `ang`.
    case rad, ang
    /// The composite's `hue_shader` (MilkDrop's drifting per-corner tint), interpolated.
    case hueR, hueG, hueB
}

/// How a texture is read: bilinear or nearest, wrapped or clamped at the edges (MilkDrop's `fw_`,
/// `fc_`, `pw_`, `pc_` prefixes; the plain name is the texture's default).
package struct SamplerMode: Sendable, Hashable {
    package var bilinear: Bool
    package var wraps: Bool
    package init(bilinear: Bool, wraps: Bool) { self.bilinear = bilinear; self.wraps = wraps }
}

/// A texture the shader reads: `main`, `blur1`…`blur3`, `noise_lq`, `noisevol_hq`, or a disk texture's
/// name as the preset spells it (`worms`, `rand03`, `rand03_smalltiled`...), read 2-D or 3-D.
package struct ShaderSamplerUse: Sendable, Hashable {
    package var name: String
    package var mode: SamplerMode
    package var isVolume: Bool
    package init(name: String, mode: SamplerMode, isVolume: Bool) {
        self.name = name; self.mode = mode; self.isVolume = isVolume
    }
}

/// One operation over all lanes. Registers are `Int32` indices; a boolean is 1 or 0 in a float
/// register (a condition is true where its register is not 0).
package enum ShaderOperation: Sendable, Equatable {
    case move(dst: Int32, a: Int32)
    case unary(ShaderUnary, dst: Int32, a: Int32)
    case binary(ShaderBinary, dst: Int32, a: Int32, b: Int32)
    case ternary(ShaderTernary, dst: Int32, a: Int32, b: Int32, c: Int32)
    /// Reads texture `slot` at (u, v) — and w for a volume (else -1) — into four registers (a register
    /// of -1 is not written). `lod` (tex2Dlod) is ignored: the textures have no mip levels.
    case sample(slot: Int32, u: Int32, v: Int32, w: Int32, r: Int32, g: Int32, b: Int32, a: Int32)
    /// Continues at `to` (an index into `code`).
    case jump(to: Int32)
    /// Continues at `to` when no lane of `mask` is true, else at the next operation.
    case jumpIfNone(mask: Int32, to: Int32)
    /// Continues at `to` when any lane of `mask` is true and this jump has been taken fewer than
    /// ``ShaderProgram/maxLoopIterations`` times in this batch (a loop's back edge), else at the next one.
    case loopBack(mask: Int32, to: Int32)
}

/// `dst = f(a)`, DX9's arithmetic: `sqrt`, `rsqrt` and the logarithms of a negative act on its
/// absolute value; a NaN result is left to the output, which turns it into 0.
package enum ShaderUnary: Sendable, Equatable {
    case negate, abs, sign, floor, ceil, frac, round, trunc
    case sqrt, rsqrt, reciprocal, exp, exp2, log, log2, log10
    case sin, cos, tan, asin, acos, atan, sinh, cosh, tanh
    case saturate
    /// 1 where a is 0, else 0 (`!`).
    case not
    /// 1 where a is not 0, else 0 (a value used as `bool`).
    case bool
}

/// `dst = f(a, b)`. Comparisons and logic give 1 or 0.
package enum ShaderBinary: Sendable, Equatable {
    case add, subtract, multiply, divide
    /// HLSL's `fmod` and `%`: `a - b * trunc(a / b)` (the sign of `a`).
    case fmod
    case min, max
    /// DX9's `pow`: `exp2(b * log2(|a|))`.
    case pow
    case atan2
    /// `step(a, b)`: 1 where b >= a.
    case step
    case less, lessEqual, greater, greaterEqual, equal, notEqual
    case and, or
}

/// `dst = f(a, b, c)`.
package enum ShaderTernary: Sendable, Equatable {
    /// a * b + c
    case multiplyAdd
    /// `select`: b where a is not 0, else c.
    case select
    /// `lerp(a, b, c)`: a + (b - a) * c.
    case lerp
    /// `clamp(a, b, c)`: min(max(a, b), c).
    case clamp
    /// `smoothstep(a, b, c)`: t = saturate((c - a) / (b - a)), t * t * (3 - 2 t).
    case smoothstep
}
