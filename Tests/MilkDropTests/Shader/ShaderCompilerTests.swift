@testable import MilkDrop
import Testing

/// The front end and the errors: lexing, the preprocessor, the parser's messages with their lines
/// and reasons, hostile input (deep nesting, huge text, macro bombs, recursion) refused in one line.
@Suite("Shader compiler")
struct ShaderCompilerTests {
    func failure(_ text: String, kind: MilkShaderKind = .composite) -> ShaderError? {
        do {
            _ = try ShaderCompiler.compile(text, kind: kind)
            return nil
        } catch {
            return error
        }
    }

    @Test("the preprocessor: object and function macros, nesting, #if/#ifdef/#else, #undef, #include ignored")
    func preprocessor() throws {
        let text = """
            #include "include.fx"
            #define SCALE 2
            #define SQ(a) ((a) * (a))
            #define TWICE(a) SQ(a) * SCALE
            #define MyGet GetPixel //GetBlur1
            #ifdef SCALE
            #define PICK 1
            #else
            #define PICK 2
            #endif
            #if 0
            this is not HLSL
            #elif 1
            #define OTHER 5
            #endif
            #ifndef OTHER
            #error not reached
            #endif
            shader_body {
            #if 1     // SHARP FINS
                ret.x = TWICE(3);
            #else     // COSINE FINS
                ret.x = 0;
            #endif
                ret.y = PICK + OTHER;
                ret.z = MyGet(uv).x;
            #undef SCALE
            }
            """
        #expect(try ShaderRun.run(ShaderCompiler.compile(text, kind: .composite)) == SIMD3(18, 6, 0.25))
        #expect(try ShaderRun.ret("ret.x = A(1, 2);", declarations: "#define A(x, y) \\\n  (x + y)\n") == SIMD3(3, 0, 0))
    }

    @Test("macro bombs and self-reference stop with an error")
    func macroBombs() {
        var bomb = "#define A0 x\n"
        for k in 1...30 { bomb += "#define A\(k) A\(k - 1) A\(k - 1)\n" }
        let exploded = failure(bomb + "shader_body { ret = A30; }")
        #expect(exploded?.reason == .tooLarge)
        let looped = failure("#define A B\n#define B A\nshader_body { ret = A; }")
        #expect(looped?.reason == .unknownIdentifier)
        #expect(failure("#if 1\nshader_body { }")?.reason == .preprocessor)
        #expect(failure("#endif\nshader_body { }")?.reason == .preprocessor)
        #expect(failure("#if " + String(repeating: "(", count: 10_000) + "\n#endif\nshader_body { }")?.reason == .preprocessor)
    }

    @Test("errors name the shader, the line and a reason")
    func errors() {
        let unknown = failure("shader_body\n{\n    ret = foo;\n}")
        #expect(unknown == ShaderError(kind: .composite, line: 3, message: "unknown identifier \"foo\"", reason: .unknownIdentifier))
        #expect(unknown?.description == "composite shader line 3: unknown identifier \"foo\"")
        let syntax = failure("shader_body\n{\n    ret = 1\n}", kind: .warp)
        #expect(syntax?.kind == .warp)
        #expect(syntax?.line == 4)
        #expect(syntax?.reason == .syntax)
        #expect(failure("shader_body { float3 a = float2(1, 2); }")?.reason == .typeMismatch)
        #expect(failure("shader_body { ret = float2x2(1, 2, 3, 4) + float3(1, 2, 3); }")?.reason == .typeMismatch)
        #expect(failure("struct S { float a; };\nshader_body { }")?.reason == .unsupported("struct"))
        #expect(failure("shader_body { float a[3][2]; }")?.reason == .unsupported("array"))
        #expect(failure("shader_body { ret = 1 & 2; }")?.reason == .unsupported("bitwise operator"))
        #expect(failure("float f(float x) { return f(x); }\nshader_body { ret = f(1); }")?.reason == .unsupported("recursion"))
        #expect(failure("shader_body { ret = hue_shader; }", kind: .warp)?.reason == .unknownIdentifier)
        #expect(failure("shader_body { ret = 1; } junk }")?.reason == .syntax)  // the body ends at the last brace
        #expect(failure("float a;")?.message == "no shader_body")
        #expect(failure("shader_body { ret = 1.5.3; }")?.reason == .syntax)
        #expect(failure("shader_body { ret = `1; }")?.reason == .syntax)
        #expect(failure("shader_body { break; }")?.reason == .syntax)
        #expect(failure("shader_body { ret.xx = 1; }")?.reason == .typeMismatch)
        #expect(failure("shader_body { ret.q = 1; }")?.reason == .typeMismatch)
        #expect(failure("shader_body { ret.x = ret[1e30]; }")?.reason == .typeMismatch)
        #expect(failure("shader_body { ret[-1] = 1; }")?.reason == .typeMismatch)
        #expect(failure("shader_body { float2x2 m = 1; m[0.0 / 0.0] = 1; }")?.reason == .typeMismatch)
    }

    @Test("text after the body's last brace is dropped, as MilkDrop drops it; a brace in it still ends the body")
    func textAfterTheBody() throws {
        let noted = try ShaderCompiler.compile("shader_body\n{\n    ret = 0.25;\n}\nwritten by martin\nEND", kind: .composite)
        #expect(ShaderRun.run(noted) == SIMD3(repeating: 0.25))
        #expect(ShaderCompiler.throughLastBrace("a { b } c\nd") == "a { b }")
        #expect(ShaderCompiler.throughLastBrace("no brace") == "no brace")
        // A brace in the note moves the end there, as in MilkDrop: the words before it are in the body.
        let moved = failure("shader_body\n{\n    ret = 0.25;\n}\nwritten by martin }\nEND")
        #expect(moved?.reason == .syntax)
        #expect(moved?.line == 5)
    }

    @Test("the CodeBlock overload reports the .milk file's line")
    func fileLines() {
        let block = CodeBlock(lines: [(40, "shader_body"), (41, "{"), (42, "  ret = nope;"), (43, "}")])
        do {
            _ = try ShaderCompiler.compile(block, kind: .composite)
            Issue.record("compiled")
        } catch {
            #expect(error.line == 42)
        }
    }

    @Test("hostile input: deep nesting, long chains, huge text, deep calls are one-line errors")
    func hostile() {
        let parens = String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000)
        #expect(failure("shader_body { ret = \(parens); }")?.reason == .tooLarge)
        let chain = Array(repeating: "1", count: 10_000).joined(separator: " + ")
        #expect(failure("shader_body { ret = \(chain); }")?.reason == .tooLarge)
        let blocks = String(repeating: "{", count: 10_000) + String(repeating: "}", count: 10_000)
        #expect(failure("shader_body { \(blocks) }")?.reason == .tooLarge)
        let ifs = String(repeating: "if (uv.x > 0) ", count: 5_000) + "ret = 1;"
        #expect(failure("shader_body { \(ifs) }")?.reason == .tooLarge)
        let negations = String(repeating: "-", count: 10_000) + "1"
        #expect(failure("shader_body { ret = \(negations); }")?.reason == .tooLarge)
        #expect(failure("shader_body { ret = 1; }" + String(repeating: " ", count: ShaderLimits.sourceBytes))?.reason == .tooLarge)
        var calls = "float f0(float x) { return x + 1; }\n"
        for k in 1...40 { calls += "float f\(k)(float x) { return f\(k - 1)(x) + f\(k - 1)(x); }\n" }
        #expect(failure(calls + "shader_body { ret = f40(uv.x); }")?.reason == .tooLarge)
        // Thousands of variables copied by thousands of branches in loops: the work is bounded.
        let names = (0..<8_000).map { "v\($0)" }.joined(separator: ",")
        let branches = "for (int i = 0; i < 64; i++) { for (int j = 0; j < 64; j++) { if (uv.x > i) v1 += j; } }"
        #expect(failure("float \(names);\nshader_body { \(branches) ret = v1; }")?.reason == .tooLarge)
        // Unrolling that would blow up falls back to a masked loop and stays small; but two nested
        // loops of 1,024 turns a pixel would stall every frame: refused for what they would execute.
        let nested = failure("""
            shader_body { float s = 0;
              for (int i = 0; i < 100000; i++) { for (int j = 0; j < 100000; j++) { s += sin(i * j + uv.x); } }
              ret = s; }
            """)
        #expect(nested?.reason == .tooLarge && nested?.message.contains("once its loops run") == true, "\(String(describing: nested))")
        let single = try? ShaderCompiler.compile("""
            shader_body { float s = 0; for (int i = 0; i < 100000; i++) { s += uv.x; } ret = s; }
            """, kind: .composite)
        #expect(single.map { $0.code.count < 50 } == true)
        #expect(single.map { (ShaderProgram.maxLoopIterations...ShaderLimits.executedOperations).contains($0.executedOperationsBound) } == true)
    }

    @Test("the optimiser: no dead code, shared reads, multiplyAdd, few registers")
    func optimiser() throws {
        let program = try ShaderCompiler.compile("""
            shader_body {
                float3 unused = sin(uv.xyx) * 5;
                float3 a = GetPixel(uv);
                float3 b = GetPixel(uv);
                ret = a * b * 0.5 + 0.25;
            }
            """, kind: .composite)
        let samples = program.code.filter { if case .sample = $0 { true } else { false } }
        #expect(samples.count == 1)
        #expect(!program.code.contains { if case .unary(.sin, _, _) = $0 { true } else { false } })
        #expect(program.code.contains { if case .ternary(.multiplyAdd, _, _, _, _) = $0 { true } else { false } })
        #expect(program.code.count == 1 + 3 + 3)
        #expect(ShaderRun.run(program) == SIMD3<Float>(0.28125, 0.53125, 0.75))
        // Inputs, constants and uniforms are never written by code.
        let preloaded = Set(program.constants.map(\.register) + program.uniforms.map(\.register) + program.inputs.map(\.register))
        for op in program.code { #expect(op.written.allSatisfy { !preloaded.contains($0) }) }
    }

    @Test("an initialiser list fills a matrix")
    func initialiserList() throws {
        #expect(try ShaderRun.ret("float2x2 m = { 1, 2, { 3, 4 } }; ret.xy = m[1]; ret.z = m[0].y;") == SIMD3(3, 4, 2))
    }
}
