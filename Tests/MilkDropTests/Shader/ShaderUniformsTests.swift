import Glibc
@testable import MilkDrop
import Testing

/// The uniform block: its layout, the values of a known frame as the shaders see them through
/// MilkDrop's names, and the rotations.
@Suite("Shader uniforms")
struct ShaderUniformsTests {
    static var frame: ShaderFrameInput {
        var f = ShaderFrameInput()
        f.time = 2; f.fps = 60; f.frame = 120; f.progress = 0.5
        f.bass = 1.5; f.mid = 0.5; f.treb = 0.25; f.vol = 0.75
        f.bassAtt = 1.25; f.midAtt = 0.875; f.trebAtt = 0.625; f.volAtt = 0.375
        for i in 0..<32 { f.q[i] = Float(i + 1) * 10 }
        f.width = 200; f.height = 100
        f.blurMin = SIMD3(0, 0.1, 0.2); f.blurMax = SIMD3(1, 0.9, 0.8)
        return f
    }

    @Test("the layout: _c0…_c13, q1…q32, rand_frame, rand_preset, then 24 float4x3 rotations")
    func layout() {
        #expect(ShaderUniforms.count == 384)
        #expect(ShaderHeader.uniform("_c0")?.offset == 0)
        #expect(ShaderHeader.uniform("_c13")?.offset == 52)
        #expect(ShaderHeader.uniform("_qa")?.offset == 56)
        #expect(ShaderHeader.uniform("_qh")?.offset == 84)
        #expect(ShaderHeader.uniform("rand_frame")?.offset == 88)
        #expect(ShaderHeader.uniform("rand_preset")?.offset == 92)
        #expect(ShaderHeader.uniform("rot_s1")?.offset == 96)
        #expect(ShaderHeader.uniform("rot_d1")?.offset == 144)
        #expect(ShaderHeader.uniform("rot_rand4")?.offset == 372)
        #expect(ShaderHeader.uniform("rot_uf2")?.type == .matrix(.float, 4, 3))
        #expect(ShaderUniforms.rotationNames.count == 24)
    }

    @Test("a known frame through MilkDrop's names")
    func names() throws {
        let f = Self.frame
        func ret(_ body: String) throws -> SIMD3<Float> { try ShaderRun.ret(body, frame: f) }
        #expect(try ret("ret = float3(time, fps, frame);") == SIMD3(2, 60, 120))
        #expect(try ret("ret = float3(progress, bass, mid);") == SIMD3(0.5, 1.5, 0.5))
        #expect(try ret("ret = float3(treb, vol, bass_att);") == SIMD3(0.25, 0.75, 1.25))
        #expect(try ret("ret = float3(mid_att, treb_att, vol_att);") == SIMD3(0.875, 0.625, 0.375))
        #expect(try ret("ret = float3(q1, q5, q32);") == SIMD3(10, 50, 320))
        #expect(try ret("ret = float3(_qb.y, _qh.x, q17);") == SIMD3(60, 290, 170))
        #expect(try ret("ret = aspect.xyw;") == SIMD3(1, 0.5, 2))
        var tall = f
        tall.width = 100; tall.height = 400
        #expect(try ShaderRun.ret("ret = aspect.xyz;", frame: tall) == SIMD3(0.25, 1, 4))
        tall.aspect = SIMD2(0.5, 0.8)
        #expect(try ShaderRun.ret("ret = aspect.xyw;", frame: tall) == SIMD3(0.5, 0.8, 1.25))
        #expect(try ret("ret = texsize.xyz;") == SIMD3(200, 100, 0.005))
        #expect(close(try ret("ret = float3(mip_x, mip_y, mip_avg);"), SIMD3(repeating: log2f(200))))
        let roam = try ret("ret = float3(roam_cos.x, roam_sin.w, slow_roam_cos.z);")
        let a: Float = 0.5 + 0.5 * cosf(2 * 0.329 + 1.2)
        let b: Float = 0.5 + 0.5 * sinf(2 * 20.051 + 5.4)
        let c: Float = 0.5 + 0.5 * cosf(2 * 0.0133 + 4.5)
        #expect(close(roam, SIMD3(a, b, c)))
        #expect(close(try ret("ret.x = slow_roam_sin.y;").x, 0.5 + 0.5 * sinf(2 * 0.0085 + 5.3)))
        #expect(close(try ret("ret = float3(blur1_min, blur1_max, blur2_min);"), SIMD3(0, 1, 0.1)))
        #expect(close(try ret("ret = float3(blur2_max, blur3_min, blur3_max);"), SIMD3(0.9, 0.2, 0.8)))
        #expect(try ret("ret = _c1.xyz;") == SIMD3(0, 0, 0))
    }

    @Test("the blur ranges shaders decode with are the ones the pyramid encodes with (MilkDrop's safe ranges)")
    func blurRange() throws {
        var frame = Self.frame
        frame.blurMin = SIMD3(0.5, 0, 0.2); frame.blurMax = SIMD3(0.52, 1, 0.25)
        let range = BlurRange(min: frame.blurMin, max: frame.blurMax)
        // blur1 narrower than 0.1: MilkDrop moves both ends to its centre − 0.05; the later levels follow it.
        #expect(close(range.min.x, 0.46) && close(range.max.x, 0.46))
        var uniforms = ShaderUniforms(seed: 1)
        uniforms.update(frame)
        let b = uniforms.values
        for level in 0..<3 {
            let (scale, bias) = range.decode(level: level)
            let stored = level == 0 ? (b[20], b[21]) : level == 1 ? (b[22], b[23]) : (b[24], b[25])
            #expect(close(stored.0, scale) && close(stored.1, bias), "level \(level + 1)")
        }
    }

    @Test("rotations: the 3×3 part is orthonormal, the translation (rotated) within √3; the same seed and frame give the same block")
    func rotations() {
        var uniforms = ShaderUniforms(seed: 42)
        uniforms.update(Self.frame)
        let block = uniforms.values
        for (k, name) in ShaderUniforms.rotationNames.enumerated() {
            let m = Array(block[(96 + 12 * k)..<(96 + 12 * k + 12)])
            for i in 0..<3 {
                for j in 0..<3 {
                    let d = m[3 * i] * m[3 * j] + m[3 * i + 1] * m[3 * j + 1] + m[3 * i + 2] * m[3 * j + 2]
                    #expect(close(d, i == j ? 1 : 0, 1e-5), "\(name) rows \(i) \(j)")
                }
            }
            #expect(m[9] * m[9] + m[10] * m[10] + m[11] * m[11] <= 3.0001, "\(name) translation")
        }
        var again = ShaderUniforms(seed: 42)
        again.update(Self.frame)
        #expect(again.values == block)
        var other = Self.frame
        other.frame += 1
        again.update(other)
        #expect(again.values[92..<96] == block[92..<96])            // rand_preset: the preset's
        #expect(again.values[88..<92] != block[88..<92])            // rand_frame: the frame's
        #expect(again.values[(96 + 20 * 12)...] != block[(96 + 20 * 12)...])
        #expect(block[88..<96].allSatisfy { $0 >= 0 && $0 < 1 })
        // The static rotations barely move in a second; the ultra-fast ones turn.
        var later = Self.frame
        later.time += 1
        again.update(later)
        #expect(zip(again.values[96..<108], block[96..<108]).allSatisfy { abs($0 - $1) < 0.05 })
        #expect(zip(again.values[(96 + 19 * 12)..<(96 + 20 * 12)], block[(96 + 19 * 12)..<(96 + 20 * 12)]).contains { abs($0 - $1) > 0.05 })
    }

    @Test("rotations in a shader: mul(float4(p, 1), rot_s1) rotates and translates")
    func rotationInShader() throws {
        var uniforms = ShaderUniforms(seed: 1)
        uniforms.update(Self.frame)
        let m = Array(uniforms.values[96..<108])
        let x: Float = m[0] + 2 * m[3] + 3 * m[6] + m[9]
        let y: Float = m[1] + 2 * m[4] + 3 * m[7] + m[10]
        let z: Float = m[2] + 2 * m[5] + 3 * m[8] + m[11]
        let expected = SIMD3(x, y, z)
        #expect(close(try ShaderRun.ret("ret = mul(float4(1, 2, 3, 1), rot_s1);", frame: Self.frame, seed: 1), expected))
    }

    @Test("update rewrites the block in place")
    func inPlace() {
        var uniforms = ShaderUniforms(seed: 3)
        uniforms.update(Self.frame)
        let before = uniforms.values.withUnsafeBufferPointer { $0.baseAddress }
        var f = Self.frame
        for k in 0..<10 { f.frame = k; uniforms.update(f) }
        #expect(uniforms.values.withUnsafeBufferPointer { $0.baseAddress } == before)
    }
}
