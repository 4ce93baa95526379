@testable import MilkDrop
import Testing

/// Arrays (`ShaderLowering+Arrays.swift`), run through ``ShaderReference``. The pixel's `uv` is
/// (0.25, 0.75), so `uv.x * 8` is 2 but not a constant: indices and loops built on it are really
/// variable. Expected values are worked out by hand from the lists.
@Suite("Shader arrays")
struct ShaderArraysTests {
    static let taps = "static const float4 taps[3] = { 1, 2, 3, 4,  5, 6, 7, 8,  float4(9, 10, 11, 12) };"

    func failure(_ body: String, declarations: String = "") -> ShaderError.Reason? {
        do {
            _ = try ShaderRun.ret(body, declarations: declarations)
            return nil
        } catch let error as ShaderError {
            return error.reason
        } catch {
            Issue.record("not a ShaderError: \(error)")
            return nil
        }
    }

    @Test("a global list fills the elements in order; constant indices read them")
    func constantReads() throws {
        #expect(try ShaderRun.ret("ret = taps[1].xyz;", declarations: Self.taps) == SIMD3(5, 6, 7))
        #expect(try ShaderRun.ret("ret = taps[2].wzy + taps[0].x;", declarations: Self.taps) == SIMD3(13, 12, 11))
        // Nested braces flatten, and an int list fills a float array.
        #expect(try ShaderRun.ret("ret = float3(a[0], a[1], a[2]);", declarations: "const float a[3] = { {1, 2}, 3 };") == SIMD3(1, 2, 3))
    }

    @Test("an unrolled loop reads element after element")
    func unrolledLoop() throws {
        let sum = try ShaderRun.ret("float s = 0; for (int i = 0; i < 3; i++) s += taps[i].w; ret = s;", declarations: Self.taps)
        #expect(sum == SIMD3(repeating: 4 + 8 + 12))
        let local = try ShaderRun.ret("float2 d[2] = { 0.5, 1, 2, 4 }; float3 s = 0; for (int k = 0; k < 2; k++) s.xy += d[k]; ret = s;")
        #expect(local == SIMD3(2.5, 5, 0))
    }

    @Test("a variable index selects the element it names")
    func variableIndex() throws {
        #expect(try ShaderRun.ret("int k = uv.x * 8; ret = taps[k].xyz;", declarations: Self.taps) == SIMD3(9, 10, 11))
        #expect(try ShaderRun.ret("int k = uv.x * 4; ret = taps[k].xyz;", declarations: Self.taps) == SIMD3(5, 6, 7))
        #expect(try ShaderRun.ret("int k = uv.x; ret = taps[k].xyz;", declarations: Self.taps) == SIMD3(1, 2, 3))
    }

    @Test("elements are written with constant indices, under conditions and in masked loops")
    func writes() throws {
        #expect(try ShaderRun.ret("float a[2]; a[0] = 1; a[1] = a[0] + 2; ret = float3(a[0], a[1], 0);") == SIMD3(1, 3, 0))
        #expect(try ShaderRun.ret("float3 c[2] = { 1, 2, 3, 4, 5, 6 }; c[1].y = 9; ret = c[1];") == SIMD3(4, 9, 6))
        // Only where the condition holds (uv.x is 0.25).
        #expect(try ShaderRun.ret("float a[2] = { 1, 2 }; if (uv.x > 0.5) a[1] = 7; ret = a[1];") == SIMD3(repeating: 2))
        #expect(try ShaderRun.ret("float a[2] = { 1, 2 }; if (uv.x < 0.5) a[1] = 7; ret = a[1];") == SIMD3(repeating: 7))
        // A loop whose bound is not a constant runs masked: the elements it changes are carried.
        let counted = try ShaderRun.ret("float a[2] = { 0, 10 }; float n = uv.x * 8; int i = 0; while (i < n) { a[1] += 1; i++; } ret = a[1];")
        #expect(counted == SIMD3(repeating: 12))
    }

    @Test("refused in one line: bad lengths, lists of the wrong size, arrays of arrays, whole-array use, variable writes")
    func refusals() {
        #expect(failure("float a[0];") == .unsupported("array"))
        #expect(failure("float a[257];") == .unsupported("array"))
        #expect(failure("float a[1.5];") == .unsupported("array"))
        #expect(failure("float a[2][2];") == .unsupported("array"))
        #expect(failure("float a[3] = 1;") == .unsupported("array"))
        #expect(failure("float a[2] = { 1, 2, 3 };") == .typeMismatch)
        #expect(failure("float a[2]; ret = a;") == .unsupported("array"))
        #expect(failure("float a[2]; float b[2]; a = b;") == .unsupported("array"))
        #expect(failure("float a[2]; ret = a[2];") == .typeMismatch)
        #expect(failure("float a[2]; int k = uv.x * 8; a[k] = 1;") == .unsupported("dynamic index write"))
    }
}
