import Foundation
@testable import MilkDrop
import Testing

/// Shaders of real presets from Debian's projectm-data, compiled from the `.milk` file and run on one
/// pixel, against values worked out by hand from their text.
@Suite("Shader presets")
struct ShaderPresetTests {
    static func file(_ name: String) throws -> MilkPresetFile {
        try MilkPresetParser.parse(contentsOf: "/usr/share/projectM/presets/presets_tryptonaut/" + name)
    }

    @Test("martin - first try: the warp reads the feedback at uv_orig - q1·uv and darkens it; the composite subtracts blur2")
    func firstTry() throws {
        let preset = try Self.file("martin - first try.milk")
        var frame = ShaderFrameInput()
        frame.q[0] = 0.5; frame.q[1] = 2
        let warp = try ShaderCompiler.compile(try #require(preset.warpShader), kind: .warp)
        // uv_orig (0.125, 0.625) - 0.5 · uv (0.25, 0.75) = (0, 0.25), times 0.99.
        #expect(close(ShaderRun.run(warp, frame: frame), SIMD3(0, 0.2475, -0.99)))
        let composite = try ShaderCompiler.compile(try #require(preset.compositeShader), kind: .composite)
        let grey = FakeTexture { _, _, _ in SIMD4(0.5, 0.5, 0.5, 1) }
        // |(0.25, 0.75, -1) - 0.5| · q2.
        #expect(close(ShaderRun.run(composite, frame: frame, textures: ["blur2": grey]), SIMD3(0.5, 0.5, 3)))
    }

    @Test("martin - violet flash: a while loop of four reads, the brightest kept")
    func violetFlash() throws {
        let preset = try Self.file("martin - violet flash.milk")
        let composite = try ShaderCompiler.compile(try #require(preset.compositeShader), kind: .composite)
        // uv - 0.5 = (-0.25, 0.25); the first turn reads (0, 0.375) with weight 2·√0.75·(1 - 0.75²),
        // the others are darker; ret = 1.6 · that.
        let weight: Float = 2 * 0.8660254 * 0.4375
        #expect(close(ShaderRun.run(composite), SIMD3(0, 0.375 * weight * 1.6, 0), 1e-4))
    }
}
