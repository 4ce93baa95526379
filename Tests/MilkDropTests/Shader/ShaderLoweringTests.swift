@testable import MilkDrop
import Testing

/// Statements and control flow, each run through ``ShaderReference`` (the pixel's `uv` is (0.25, 0.75),
/// so conditions on it are not constants and really predicate).
@Suite("Shader lowering")
struct ShaderLoweringTests {
    @Test("swizzles, write masks, broadcast and truncation")
    func swizzles() throws {
        #expect(try ShaderRun.ret("float3 a = float3(1, 2, 3); ret = a.zyx;") == SIMD3(3, 2, 1))
        #expect(try ShaderRun.ret("ret.xz = float2(4, 5);") == SIMD3(4, 0, 5))
        #expect(try ShaderRun.ret("ret.bg = float2(4, 5);") == SIMD3(0, 5, 4))
        #expect(try ShaderRun.ret("ret = 2;") == SIMD3(2, 2, 2))
        #expect(try ShaderRun.ret("float2 v = float4(1, 2, 3, 4); ret.xy = v;") == SIMD3(1, 2, 0))
        #expect(try ShaderRun.ret("ret = float4(1, 2, 3, 4);") == SIMD3(1, 2, 3))
        #expect(try ShaderRun.ret("float x = 3; ret = x.xxx * float3(1, 2, 3);") == SIMD3(3, 6, 9))
        #expect(try ShaderRun.ret("float4 v = float4(1, 2, 3, 4); ret = v.wwx + v.y;") == SIMD3(6, 6, 3))
        #expect(try ShaderRun.ret("float3 v = 1; v.y *= 5; v.z += v.y; ret = v;") == SIMD3(1, 5, 6))
        #expect(try ShaderRun.ret("float3 v = float3(1, 2, 3); ret = float3(v[2], v[0], v[1]);") == SIMD3(3, 1, 2))
        #expect(try ShaderRun.ret("float3 v = float3(1, 2, 3); v[1] = 7; ret = v;") == SIMD3(1, 7, 3))
        #expect(try ShaderRun.ret("ret = (float3)0.5;") == SIMD3(0.5, 0.5, 0.5))
        #expect(try ShaderRun.ret("ret.xy = (float2)float4(7, 8, 9, 1);") == SIMD3(7, 8, 0))
        // A variable index picks among the components.
        #expect(try ShaderRun.ret("float3 v = float3(1, 2, 3); int i = uv.x * 8; ret.x = v[i];").x == 3)
    }

    @Test("operators: precedence, integer division, %, ++/--, compound assignments, comma, comparisons")
    func operators() throws {
        #expect(try ShaderRun.value("1 + 2 * 3 - 4 / 2") == 5)
        #expect(try ShaderRun.value("1 / 2") == 0)            // int / int truncates, as HLSL
        #expect(try ShaderRun.value("1.0 / 2") == 0.5)
        #expect(try ShaderRun.value("-7 / 2") == -3)
        #expect(try ShaderRun.value("7.5 % 2") == 1.5)
        #expect(try ShaderRun.value("-7.5 % 2") == -1.5)
        #expect(try ShaderRun.value("2 < 3 && 3 < 2 || 1 == 1") == 1)
        #expect(try ShaderRun.value("!(2 > 1) + (2 >= 2) + (2 != 2)") == 1)
        #expect(try ShaderRun.value("uv.x > 0.5 ? 10 : 20") == 20)
        #expect(try ShaderRun.value("(1, 2, 3)") == 3)
        #expect(try ShaderRun.ret("float a = 1; float b = a++; float c = ++a; ret = float3(a, b, c);") == SIMD3(3, 1, 3))
        #expect(try ShaderRun.ret("float a = 5; a -= 1; a *= 3; a /= 4; ret.x = a; ret.y = a--; ret.z = a;") == SIMD3(3, 3, 2))
        #expect(try ShaderRun.ret("int i = 2.7; int j = -2.7; ret = float3(i, j, i / 2);") == SIMD3(2, -2, 1))
        #expect(try ShaderRun.ret("float a, b = 2, c = b + 1; ret = float3(a, b, c);") == SIMD3(0, 2, 3))
        #expect(try ShaderRun.ret("float a = 1; float b = a = 4; ret = float3(a, b, 0);") == SIMD3(4, 4, 0))
        #expect(try ShaderRun.value("1.f + .5 + 1e-1 + 2h + 0x10") == 19.6)
        #expect(try ShaderRun.ret("ret = uv.x < float3(0, 0.5, 1);") == SIMD3(0, 1, 1))
        #expect(try ShaderRun.ret("ret = true ? float3(1, 2, 3) : 0;") == SIMD3(1, 2, 3))
    }

    @Test("if and else predicate both ways; nested ifs; a constant condition lowers one branch")
    func branches() throws {
        #expect(try ShaderRun.ret("if (uv.x < 0.5) ret = 1; else ret = 2;") == SIMD3(1, 1, 1))
        #expect(try ShaderRun.ret("if (uv.x > 0.5) ret = 1; else ret = 2;") == SIMD3(2, 2, 2))
        #expect(try ShaderRun.ret("ret = 5; if (uv.x > 0.5) { ret.x = 1; }") == SIMD3(5, 5, 5))
        #expect(try ShaderRun.ret("""
            if (uv.x < 0.5) { if (uv.y < 0.5) ret = 1; else { ret = 2; ret.z = 9; } } else ret = 3;
            """) == SIMD3(2, 2, 9))
        let program = try ShaderCompiler.compile("shader_body { if (1 > 2) ret = 1; else ret = 2; }", kind: .composite)
        #expect(program.code.isEmpty)
        #expect(ShaderRun.run(program) == SIMD3(2, 2, 2))
    }

    @Test("loops: unrolled for, masked while, break and continue (constant and per-pixel), do-while")
    func loops() throws {
        #expect(try ShaderRun.ret("float s = 0; for (int i = 0; i < 5; i++) s += i; ret.x = s;").x == 10)
        let unrolled = try ShaderCompiler.compile("shader_body { float s = 0; for (int i = 0; i < 5; i++) s += i * uv.x; ret.x = s; }", kind: .composite)
        #expect(!unrolled.code.contains { if case .loopBack = $0 { true } else { false } })
        #expect(try ShaderRun.ret("float s = 0; for (int i = 0; i < 6; i++) { if (i == 2) continue; s += i; } ret.x = s;").x == 13)
        #expect(try ShaderRun.ret("float s = 0; for (int i = 0; i < 6; i++) { if (i == 3) break; s += i; } ret.x = s;").x == 3)
        // Per-pixel bounds run masked.
        let masked = "float s = 0; float n = 0; while (n < uv.x * 20) { s += 2; n++; } ret.x = s; ret.y = n;"
        #expect(try ShaderRun.ret(masked) == SIMD3(10, 5, 0))
        let program = try ShaderCompiler.compile("shader_body {\(masked)}", kind: .composite)
        #expect(program.code.contains { if case .loopBack = $0 { true } else { false } })
        #expect(try ShaderRun.ret("float n = 0; while (true) { n++; if (n >= uv.y * 8) break; } ret.x = n;").x == 6)
        #expect(try ShaderRun.ret("""
            float s = 0; for (int i = 0; i < 8; i++) { if (i < uv.x * 8) continue; if (i > uv.y * 8) break; s += i; } ret.x = s;
            """).x == 2 + 3 + 4 + 5 + 6)
        // A break that depends on the pixel inside an otherwise constant loop.
        #expect(try ShaderRun.ret("float s = 0; for (int i = 0; i < 8; i++) { s += i; if (s > uv.y * 10) break; } ret.x = s;").x == 10)
        #expect(try ShaderRun.ret("float n = 0; do { n += 3; } while (n < 2); ret.x = n;").x == 3)
        #expect(try ShaderRun.ret("float n = 0; do { n += 1; } while (n < uv.x * 12); ret.x = n;").x == 3)
        // Nested loops, the inner one per-pixel.
        #expect(try ShaderRun.ret("""
            float s = 0; for (int i = 0; i < 3; i++) { float k = 0; while (k < uv.x * 8) { s += 1; k++; } } ret.x = s;
            """).x == 6)
    }

    @Test("an endless loop stops after maxLoopIterations back edges")
    func endlessLoop() throws {
        let n = try ShaderRun.ret("float n = 0; while (uv.x > 0) { n++; } ret.x = n;").x
        #expect(n == Float(ShaderProgram.maxLoopIterations + 1))
    }

    @Test("user functions: inlined, early return under a condition, out and inout parameters, globals")
    func functions() throws {
        let declarations = """
            static float counter = 1;
            float sq(float x) { return x * x; }
            float2 swap(float2 v) { return v.yx; }
            float sgn(float x) { if (x > 0) return 1; return -1; }
            void bump(inout float x, out float y) { x += 1; y = 7; counter += 10; }
            float3 tint(float3 c, float k) { c *= k; return c; }
            """
        #expect(try ShaderRun.ret("ret.x = sq(3); ret.yz = swap(float2(1, 2));", declarations: declarations) == SIMD3(9, 2, 1))
        #expect(try ShaderRun.ret("ret.x = sgn(uv.x - 0.5); ret.y = sgn(uv.y - 0.5);", declarations: declarations) == SIMD3(-1, 1, 0))
        #expect(try ShaderRun.ret("float a = 1, b = 0; bump(a, b); ret = float3(a, b, counter);", declarations: declarations) == SIMD3(2, 7, 11))
        #expect(try ShaderRun.ret("float a = 1, b = 0; if (uv.x > 0.5) bump(a, b); ret = float3(a, b, counter);",
                                  declarations: declarations) == SIMD3(1, 0, 1))
        #expect(try ShaderRun.ret("ret = tint(float3(1, 2, 3), 2);", declarations: declarations) == SIMD3(2, 4, 6))
        // A return inside a per-pixel loop.
        let find = "float first(float limit) { for (int i = 0; i < 10; i++) { if (i > limit) return i; } return -1; }"
        #expect(try ShaderRun.ret("ret.x = first(uv.y * 4); ret.y = first(uv.y * 40);", declarations: find) == SIMD3(4, -1, 0))
    }

    @Test("matrices: constructors, rows, members, mul in every order, truncation")
    func matrices() throws {
        let m = "float2x2 m = float2x2(1, 2, 3, 4);"
        #expect(try ShaderRun.ret(m + "ret.xy = mul(float2(1, 1), m);") == SIMD3(4, 6, 0))
        #expect(try ShaderRun.ret(m + "ret.xy = mul(m, float2(1, 1));") == SIMD3(3, 7, 0))
        #expect(try ShaderRun.ret(m + "ret.xy = m[1]; ret.z = m._m01;") == SIMD3(3, 4, 2))
        #expect(try ShaderRun.ret(m + "ret.x = m._22; ret.yz = m._11_21;") == SIMD3(4, 1, 3))
        #expect(try ShaderRun.ret(m + "float2x2 p = mul(m, m); ret = float3(p[0][1], p[1][0], p._22);") == SIMD3(10, 15, 22))
        #expect(try ShaderRun.ret(m + "m[0] = float2(5, 6); m *= 2; ret = float3(m[0], m[1].y);") == SIMD3(10, 12, 8))
        #expect(try ShaderRun.ret("float3x3 m = float3x3(1,2,3, 4,5,6, 7,8,10); ret.x = determinant(m);").x == -3)
        #expect(try ShaderRun.ret("float3x2 m = float3x2(1,2, 3,4, 5,6); float2x3 t = transpose(m); ret = t[1];") == SIMD3(2, 4, 6))
        // A float3 times a float4x3 uses the upper 3×3.
        let rotation = "float4x3 r = float4x3(1,0,0, 0,0,1, 0,1,0, 5,5,5);"
        #expect(try ShaderRun.ret(rotation + "ret = mul(float3(1, 2, 3), r);") == SIMD3(1, 3, 2))
        #expect(try ShaderRun.ret(rotation + "ret = mul(float4(1, 2, 3, 1), r);") == SIMD3(6, 8, 7))
        var frame = ShaderFrameInput()
        frame.q[0] = 0; frame.q[1] = -1; frame.q[2] = 1; frame.q[3] = 0
        #expect(try ShaderRun.ret("ret.xy = mul(float2(2, 3), float2x2(_qa));", frame: frame) == SIMD3(3, -2, 0))
    }
}
