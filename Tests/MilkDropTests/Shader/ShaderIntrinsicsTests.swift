import Glibc
@testable import MilkDrop
import Testing

/// Every intrinsic with hand-computed values, DX9's treatment of negative arguments, and texture reads
/// (a fake texture gives back the coordinate it was read at).
@Suite("Shader intrinsics")
struct ShaderIntrinsicsTests {
    @Test("component-wise functions of one argument", arguments: [
        ("sin(0.5)", sinf(0.5)), ("cos(0.5)", cosf(0.5)), ("tan(0.5)", tanf(0.5)), ("asin(0.5)", asinf(0.5)),
        ("acos(0.5)", acosf(0.5)), ("atan(2)", atanf(2)), ("sinh(1)", sinhf(1)), ("cosh(1)", coshf(1)), ("tanh(1)", tanhf(1)),
        ("sqrt(16)", 4), ("rsqrt(16)", 0.25), ("exp(1)", expf(1)), ("exp2(3)", 8), ("log(8)", logf(8)), ("log2(8)", 3),
        ("log10(1000)", 3), ("abs(-2.5)", 2.5), ("sign(-3)", -1), ("sign(0)", 0), ("floor(-1.5)", -2), ("ceil(-1.5)", -1),
        ("frac(-1.25)", 0.75), ("round(2.6)", 3), ("trunc(-2.6)", -2), ("saturate(1.5)", 1), ("saturate(-1)", 0),
        ("degrees(M_PI)", 180), ("radians(180)", 3.14159265), ("rcp(4)", 0.25),
    ] as [(String, Float)])
    func unary(_ expression: String, _ expected: Float) throws {
        #expect(close(try ShaderRun.value(expression), expected), "\(expression)")
    }

    @Test("component-wise functions of two and three arguments", arguments: [
        ("pow(2, 10)", 1024), ("atan2(1, -1)", 2.3561945), ("fmod(7, 3)", 1), ("fmod(-7, 3)", -1), ("min(2, -3)", -3),
        ("max(2, -3)", 2), ("step(0.5, 0.4)", 0), ("step(0.5, 0.5)", 1), ("lerp(2, 4, 0.25)", 2.5), ("clamp(5, 0, 2)", 2),
        ("smoothstep(0, 2, 1)", 0.5), ("smoothstep(0, 4, 1)", 0.15625), ("mad(2, 3, 4)", 10), ("ldexp(3, 2)", 12),
    ] as [(String, Float)])
    func binaryAndTernary(_ expression: String, _ expected: Float) throws {
        #expect(close(try ShaderRun.value(expression), expected), "\(expression)")
    }

    @Test("DX9's arithmetic: square roots, logarithms and powers of negatives act on the absolute value")
    func dx9() throws {
        #expect(try ShaderRun.value("sqrt(-4)") == 2)
        #expect(close(try ShaderRun.value("log(-1)"), 0))
        #expect(try ShaderRun.value("log2(-8)") == 3)
        #expect(close(try ShaderRun.value("pow(-2, 2)"), 4))
        #expect(close(try ShaderRun.value("pow(-8, 1.0/3)"), 2))
        #expect(try ShaderRun.value("rsqrt(-4)") == 0.5)
    }

    @Test("vector functions: dot, length, distance, normalize, cross, reflect, refract, any, all, modf, sincos")
    func vectors() throws {
        #expect(try ShaderRun.value("dot(float3(1, 2, 3), float3(4, 5, 6))") == 32)
        #expect(try ShaderRun.value("dot(float4(1, 2, 3, 4), float2(1, 1))") == 3)   // truncated to float2
        #expect(try ShaderRun.value("length(float2(3, 4))") == 5)
        #expect(try ShaderRun.value("length(-2)") == 2)
        #expect(try ShaderRun.value("distance(float2(1, 1), float2(4, 5))") == 5)
        #expect(close(try ShaderRun.ret("ret.xy = normalize(float2(3, 4));"), SIMD3(0.6, 0.8, 0)))
        #expect(try ShaderRun.ret("ret = cross(float3(1, 0, 0), float3(0, 1, 0));") == SIMD3(0, 0, 1))
        #expect(try ShaderRun.ret("ret = cross(float3(1, 2, 3), float3(4, 5, 6));") == SIMD3(-3, 6, -3))
        #expect(try ShaderRun.ret("ret.xy = reflect(float2(1, -1), float2(0, 1));") == SIMD3(1, 1, 0))
        // refract straight through keeps the direction; past the critical angle it is 0.
        #expect(close(try ShaderRun.ret("ret.xy = refract(float2(0, -1), float2(0, 1), 0.5);"), SIMD3(0, -1, 0)))
        #expect(try ShaderRun.ret("ret.xy = refract(normalize(float2(1, -0.1)), float2(0, 1), 2);") == SIMD3(0, 0, 0))
        #expect(try ShaderRun.value("any(float3(0, 0, 2))") == 1)
        #expect(try ShaderRun.value("any(float3(0, 0, 0))") == 0)
        #expect(try ShaderRun.value("all(float3(1, 2, 0))") == 0)
        #expect(try ShaderRun.value("all(float2(1, -2))") == 1)
        #expect(try ShaderRun.ret("float w; ret.x = modf(-2.75, w); ret.y = w;") == SIMD3(-0.75, -2, 0))
        #expect(close(try ShaderRun.ret("float s, c; sincos(0.5, s, c); ret.xy = float2(s, c);"), SIMD3(sinf(0.5), cosf(0.5), 0)))
        #expect(try ShaderRun.ret("ret = max(float3(1, 5, 3), 2);") == SIMD3(2, 5, 3))
        #expect(try ShaderRun.ret("ret = lerp(float3(0, 2, 4), float3(4, 2, 0), 0.25);") == SIMD3(1, 2, 3))
        #expect(try ShaderRun.ret("ret = pow(float3(4, 9, 16), float3(0.5, 0.5, 0.5));") == SIMD3(2, 3, 4))
    }

    @Test("MilkDrop's constants and macros: M_PI, M_PI_2 is 2π, M_INV_PI_2, lum")
    func header() throws {
        #expect(close(try ShaderRun.value("M_PI"), 3.14159265))
        #expect(close(try ShaderRun.value("M_PI_2"), 6.28318531))
        #expect(close(try ShaderRun.value("M_INV_PI_2"), 0.159154943))
        #expect(close(try ShaderRun.value("lum(float3(1, 1, 1))"), 1.1))
        #expect(close(try ShaderRun.value("lum(float3(1, 0, 2))"), 0.9))
    }

    @Test("texture reads: tex2D, tex2d, GetPixel, GetBlur with scale and bias, tex3D, tex2Dbias, tex2Dproj; sampler slots and modes")
    func textures() throws {
        #expect(try ShaderRun.ret("ret = tex2D(sampler_main, uv).xyz;") == SIMD3(0.25, 0.75, -1))
        #expect(try ShaderRun.ret("ret = tex2d(sampler_main, uv + 1).xyz;") == SIMD3(1.25, 1.75, -1))
        #expect(try ShaderRun.ret("ret = GetPixel(uv_orig).xyz;") == SIMD3(0.25, 0.75, -1))   // composite: uv_orig is uv
        #expect(try ShaderRun.ret("ret = GetPixel(uv_orig).xyz;", kind: .warp) == SIMD3(0.125, 0.625, -1))
        #expect(try ShaderRun.ret("ret.x = tex2D(sampler_main, uv).w;").x == 0.5)
        var frame = ShaderFrameInput()
        frame.blurMin = SIMD3(0.2, 0.3, 0.4); frame.blurMax = SIMD3(0.8, 0.7, 0.6)
        let blurred = try ShaderRun.ret("ret = GetBlur1(float2(0.5, 1));", frame: frame)
        #expect(close(blurred, SIMD3<Float>(0.5, 0.8, -0.4)))
        let blur2 = try ShaderRun.ret("ret = GetBlur2(float2(0.5, 1));", frame: frame)
        #expect(close(blur2, SIMD3<Float>(0.5, 0.7, -0.1)))
        let blur3 = try ShaderRun.ret("ret = GetBlur3(float2(0.5, 1));", frame: frame)
        #expect(close(blur3, SIMD3<Float>(0.5, 0.6, 0.2)))
        #expect(try ShaderRun.ret("ret = tex3D(sampler_noisevol_hq, float3(1, 2, 3)).xyz;") == SIMD3(1, 2, 3))
        #expect(try ShaderRun.ret("ret = tex2Dbias(sampler_main, float4(1, 2, 3, 4)).xyz;") == SIMD3(1, 2, -1))
        #expect(try ShaderRun.ret("ret = tex2Dproj(sampler_main, float4(1, 2, 3, 4)).xyz;") == SIMD3(0.25, 0.5, -1))
        #expect(try ShaderRun.ret("ret = tex2Dlod(sampler_main, float4(1, 2, 3, 4)).xyz;") == SIMD3(1, 2, -1))

        let program = try ShaderCompiler.compile("""
            sampler sampler_worms;
            sampler2D sampler_pc_clouds;
            float4 texsize_worms;
            shader_body {
                ret = tex2D(sampler_fc_main, uv).xyz + tex2D(sampler_worms, uv).xyz + tex2D(sampler_pc_clouds, uv).xyz
                    + tex3D(sampler_noisevol_lq, uv.xyx).xyz + tex2D(sampler_blur1, uv).xyz + tex2D(sampler_FW_rand03_smalltiled, uv).xyz;
                ret.x += texsize_worms.x + texsize_worms.w + texsize_noise_lq.y;
            }
            """, kind: .composite)
        let expected: [ShaderSamplerUse] = [
            .init(name: "main", mode: .init(bilinear: true, wraps: false), isVolume: false),
            .init(name: "worms", mode: .init(bilinear: true, wraps: true), isVolume: false),
            .init(name: "clouds", mode: .init(bilinear: false, wraps: false), isVolume: false),
            .init(name: "noisevol_lq", mode: .init(bilinear: true, wraps: true), isVolume: true),
            .init(name: "blur1", mode: .init(bilinear: true, wraps: false), isVolume: false),
            .init(name: "rand03_smalltiled", mode: .init(bilinear: true, wraps: true), isVolume: false),
            .init(name: "noise_lq", mode: .init(bilinear: true, wraps: true), isVolume: false),
        ]
        #expect(program.samplers == expected)
        let textures = ["worms": FakeTexture(width: 16, height: 8), "noise_lq": FakeTexture(width: 32, height: 64)]
        let r = ShaderRun.run(program, textures: textures)
        // The red of six reads at u = 0.25, plus worms' width and 1/height and noise_lq's height.
        #expect(close(r.x, 81.625))   // 0.25 × 6 + 16 + 1/8 + 64
    }

    @Test("unsupported and unknown functions are errors naming them")
    func unsupported() throws {
        #expect(throws: ShaderError.self) { try ShaderRun.value("ddx(uv.x)") }
        do {
            _ = try ShaderRun.value("ddx(uv.x)")
        } catch let error as ShaderError {
            #expect(error.reason == .unsupported("ddx"))
        }
        do {
            _ = try ShaderRun.value("sinn(1)")
        } catch let error as ShaderError {
            #expect(error.reason == .unknownIdentifier)
            #expect(error.message == "unknown function \"sinn\"")
        }
    }
}
