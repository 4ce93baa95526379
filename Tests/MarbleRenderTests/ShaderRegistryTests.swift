import MarbleCore
import MarbleRender
import Shaders
import Testing

/// A program's own shader: registered once, named by presets like a built-in one.
@Suite struct ShaderRegistryTests {
    /// Fills its rows with the colour of its one parameter.
    final class Tint: Shader, @unchecked Sendable {
        static let descriptor = ShaderDescriptor(name: "test_tint", summary: "A flat tint.", kind: .generator, isOpaque: true,
                                                 parameters: [ParameterDescriptor("color", "The tint.", .color(default: .white))])
        private var pixel: UInt32 = 0
        init(parameters: ShaderParameters) throws {}
        func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
            pixel = parameters.color("color").premultiplied.packed
        }
        func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
            for y in rows { for x in 0..<target.width { target.row32(y)[x] = pixel } }
        }
    }

    final class Misnamed: Shader, @unchecked Sendable {
        static let descriptor = ShaderDescriptor(name: "Bad Name", summary: "", kind: .generator, parameters: [])
        init(parameters: ShaderParameters) throws {}
        func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {}
        func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {}
    }

    @Test("a registered shader is validated, drawn and listed like a built-in one; names are checked")
    func registeredShaderIsDrawn() throws {
        if ShaderLibrary.shader(named: "test_tint") == nil { try ShaderRegistry.register(Tint.self) }
        #expect(ShaderRegistry.names.last == "test_tint" && ShaderRegistry.names.contains("bars"))
        let preset = Preset(name: "tinted", layers: [LayerSpec(shader: "test_tint", parameters: ["color": .text("#336699")])])
        try preset.validate()
        let compositor = try Compositor(preset: preset, width: 32, height: 16, threads: 1)
        let canvas = Texture(width: 32, height: 16)
        compositor.render(FrameUniforms(time: 0, frameIndex: 0, fps: Rational(30), width: 32, height: 16,
                                        features: AudioFeatures(bandCount: 8, waveformLength: 16)), into: canvas)
        #expect(Array(canvas.packedBytes().prefix(4)) == [0x33, 0x66, 0x99, 0xff])
        // Taken names (its own again, a built-in one) and bad names are refused with one line.
        #expect(throws: MarbleError.self) { try ShaderRegistry.register(Tint.self) }
        #expect(throws: MarbleError.self) { try ShaderRegistry.register(Solid.self) }
        #expect(throws: MarbleError.self) { try ShaderRegistry.register(Misnamed.self) }
        #expect(ShaderLibrary.shader(named: "Bad Name") == nil)
    }
}
