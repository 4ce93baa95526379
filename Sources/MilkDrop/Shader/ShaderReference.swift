import Glibc

/// The portable reference for ``ShaderProgram``: runs a program for one pixel at a time with plain
/// scalar code, each operation as its doc comment in `ShaderProgram.swift` defines it. Slow and
/// obvious on purpose: the compiler's tests compute with it, and the lane machine is tested equal to it.
package struct ShaderReference {
    package let program: ShaderProgram
    /// The textures bound to the program's sampler slots, in slot order.
    package var textures: [any ShaderTexture]

    package init(program: ShaderProgram, textures: [any ShaderTexture] = []) {
        self.program = program
        self.textures = textures
    }

    /// The program's `ret` for one pixel: `uniforms` is the frame's uniform block, `input` the pixel's
    /// inputs. Colours are returned as the program leaves them (no clamping: the output stage does that).
    package func run(uniforms: [Float], input: (ShaderPixelInput) -> Float) -> SIMD3<Float> {
        var r = [Float](repeating: 0, count: Int(program.registerCount))
        for c in program.constants { r[Int(c.register)] = c.value }
        for u in program.uniforms { r[Int(u.register)] = Int(u.offset) < uniforms.count ? uniforms[Int(u.offset)] : 0 }
        for t in program.textureSizes {
            let texture = textures[Int(t.slot)]
            let size = [Float(texture.width), Float(texture.height), 1 / Float(texture.width), 1 / Float(texture.height)]
            r[Int(t.register)] = size[Int(t.component)]
        }
        for i in program.inputs { r[Int(i.register)] = input(i.input) }
        var pc = 0
        var taken = [Int: Int]()
        while pc < program.code.count {
            let op = program.code[pc]
            pc += 1
            switch op {
            case let .move(dst, a): r[Int(dst)] = r[Int(a)]
            case let .unary(f, dst, a): r[Int(dst)] = Self.unary(f, r[Int(a)])
            case let .binary(f, dst, a, b): r[Int(dst)] = Self.binary(f, r[Int(a)], r[Int(b)])
            case let .ternary(f, dst, a, b, c): r[Int(dst)] = Self.ternary(f, r[Int(a)], r[Int(b)], r[Int(c)])
            case let .sample(slot, u, v, w, rr, gg, bb, aa):
                var uu = r[Int(u)], vv = r[Int(v)], ww: Float = w >= 0 ? r[Int(w)] : 0
                var out: (Float, Float, Float, Float) = (0, 0, 0, 0)
                withUnsafePointer(to: &uu) { up in withUnsafePointer(to: &vv) { vp in withUnsafePointer(to: &ww) { wp in
                    withUnsafeMutablePointer(to: &out.0) { rp in withUnsafeMutablePointer(to: &out.1) { gp in
                    withUnsafeMutablePointer(to: &out.2) { bp in withUnsafeMutablePointer(to: &out.3) { ap in
                        textures[Int(slot)].sample(mode: program.samplers[Int(slot)].mode, count: 1, u: up, v: vp,
                                                   w: w >= 0 ? wp : nil, r: rp, g: gp, b: bp, a: ap)
                    } } } }
                } } }
                if rr >= 0 { r[Int(rr)] = out.0 }
                if gg >= 0 { r[Int(gg)] = out.1 }
                if bb >= 0 { r[Int(bb)] = out.2 }
                if aa >= 0 { r[Int(aa)] = out.3 }
            case let .jump(to): pc = Int(to)
            case let .jumpIfNone(mask, to): if r[Int(mask)] == 0 { pc = Int(to) }
            case let .loopBack(mask, to):
                let count = taken[pc - 1, default: 0]
                if r[Int(mask)] != 0 && count < ShaderProgram.maxLoopIterations {
                    taken[pc - 1] = count + 1
                    pc = Int(to)
                }
            }
        }
        return SIMD3(r[Int(program.output.r)], r[Int(program.output.g)], r[Int(program.output.b)])
    }

    /// One unary operation, DX9's way.
    package static func unary(_ f: ShaderUnary, _ a: Float) -> Float {
        switch f {
        case .negate: return -a
        case .abs: return Swift.abs(a)
        case .sign: return a > 0 ? 1 : (a < 0 ? -1 : 0)
        case .floor: return floorf(a)
        case .ceil: return ceilf(a)
        case .frac: return a - floorf(a)
        case .round: return rintf(a)
        case .trunc: return truncf(a)
        case .sqrt: return sqrtf(Swift.abs(a))
        case .rsqrt: return 1 / sqrtf(Swift.abs(a))
        case .reciprocal: return 1 / a
        case .exp: return expf(a)
        case .exp2: return exp2f(a)
        case .log: return logf(Swift.abs(a))
        case .log2: return log2f(Swift.abs(a))
        case .log10: return log10f(Swift.abs(a))
        case .sin: return sinf(a)
        case .cos: return cosf(a)
        case .tan: return tanf(a)
        case .asin: return asinf(a)
        case .acos: return acosf(a)
        case .atan: return atanf(a)
        case .sinh: return sinhf(a)
        case .cosh: return coshf(a)
        case .tanh: return tanhf(a)
        case .saturate: return Swift.min(1, Swift.max(0, a))
        case .not: return a == 0 ? 1 : 0
        case .bool: return a != 0 ? 1 : 0
        }
    }

    /// One binary operation, DX9's way.
    package static func binary(_ f: ShaderBinary, _ a: Float, _ b: Float) -> Float {
        switch f {
        case .add: return a + b
        case .subtract: return a - b
        case .multiply: return a * b
        case .divide: return a / b
        case .fmod: return a - b * truncf(a / b)
        case .min: return Swift.min(a, b)
        case .max: return Swift.max(a, b)
        case .pow: return exp2f(b * log2f(Swift.abs(a)))
        case .atan2: return atan2f(a, b)
        case .step: return b >= a ? 1 : 0
        case .less: return a < b ? 1 : 0
        case .lessEqual: return a <= b ? 1 : 0
        case .greater: return a > b ? 1 : 0
        case .greaterEqual: return a >= b ? 1 : 0
        case .equal: return a == b ? 1 : 0
        case .notEqual: return a != b ? 1 : 0
        case .and: return a != 0 && b != 0 ? 1 : 0
        case .or: return a != 0 || b != 0 ? 1 : 0
        }
    }

    /// One ternary operation.
    package static func ternary(_ f: ShaderTernary, _ a: Float, _ b: Float, _ c: Float) -> Float {
        switch f {
        case .multiplyAdd: return a * b + c
        case .select: return a != 0 ? b : c
        case .lerp: return a + (b - a) * c
        case .clamp: return Swift.min(Swift.max(a, b), c)
        case .smoothstep:
            let t = Swift.min(1, Swift.max(0, (c - a) / (b - a)))
            return t * t * (3 - 2 * t)
        }
    }
}
