import MarbleCore
@testable import MilkDrop
import Testing

/// MilkDrop 2 presets' shaders inside the renderer: the warp shader makes the feedback buffer, the
/// composite shader the picture, the blur levels sit between them, and a shader that does not
/// compile leaves the fixed MilkDrop 1.x pass in its place.
@Suite("MilkDrop 2 shaders in the renderer")
struct MilkShaderStageTests {
    /// A preset with no waves, borders or vectors, and these shader bodies.
    static func preset(warp: String?, composite: String?, shaders: Bool = true) throws -> MilkPreset {
        var text = "[preset00]\nfDecay=0.9\nfWaveAlpha=0\nnWaveMode=0\nbModWaveAlphaByVolume=0\n"
        func lines(_ prefix: String, _ body: String) -> String {
            let all = ["shader_body", "{"] + body.split(separator: "\n").map(String.init) + ["}"]
            return all.enumerated().map { "\(prefix)_\($0.offset + 1)=`\($0.element)" }.joined(separator: "\n") + "\n"
        }
        if let warp { text += lines("warp", warp) }
        if let composite { text += lines("comp", composite) }
        let file = try MilkPresetParser.parse(Array(text.utf8), path: "/tmp/shader-test.milk")
        return try MilkPreset(file: file, shaders: shaders)
    }

    /// The picture after `frames` frames at `width × height`.
    static func picture(_ preset: MilkPreset, width: Int = 32, height: Int = 18, frames: Int = 3) -> Texture {
        let renderer = MilkRenderer(preset: preset)
        renderer.configure(width: width, height: height, scale: 1)
        let audio = MilkAudio()
        for n in 0..<frames {
            var inputs = MilkPreset.Inputs()
            inputs.time = Double(n) / 30; inputs.frame = Double(n); inputs.fps = 30
            renderer.prepare(inputs, audio: audio, strips: nil)
        }
        let out = Texture(width: width, height: height)
        renderer.composite(into: out.view, rows: 0..<height)
        return out
    }

    static func rgb(_ p: UInt32) -> [UInt32] { [p & 0xFF, (p >> 8) & 0xFF, (p >> 16) & 0xFF] }

    @Test("the warp shader fills the buffer, the composite shader reads it: every pixel as computed by hand")
    func warpThenComposite() throws {
        let preset = try Self.preset(warp: "ret = float3(0.25, 0.5, 1.0);", composite: "ret = tex2D(sampler_main, uv).zyx;")
        #expect(preset.shaderStatus == .running)
        let out = Self.picture(preset)
        // Warp: 0.25, 0.5, 1 → 64, 128, 255 in the buffer; composite swaps red and blue.
        for y in 0..<out.height {
            for x in 0..<out.width { #expect(Self.rgb(out.view.row32(y)[x]) == [255, 128, 64], "(\(x), \(y))") }
        }
    }

    @Test("with a warp shader no decay is applied: the shader's own darkening is all there is")
    func warpShaderHasNoDecay() throws {
        // Frame 0 writes 0.8; later frames keep what they read: with MilkDrop 1.x's decay 0.9 it would fade.
        let preset = try Self.preset(warp: "ret = (frame < 0.5) ? float3(0.8, 0.8, 0.8) : tex2D(sampler_main, uv).xyz;",
                                     composite: "ret = tex2D(sampler_main, uv).xyz;")
        let out = Self.picture(preset, frames: 6)
        #expect(Self.rgb(out.view.row32(9)[16]) == [204, 204, 204])
    }

    @Test("GetBlur1 of a flat buffer is the same flat value away from the darkened edges")
    func blurOfFlat() throws {
        let preset = try Self.preset(warp: "ret = float3(0.6, 0.6, 0.6);", composite: "ret = GetBlur1(uv);")
        let out = Self.picture(preset, width: 128, height: 72)
        for channel in Self.rgb(out.view.row32(36)[64]) { #expect(abs(Int(channel) - 153) <= 1) }
    }

    @Test("switched off, or not compiling, a shader leaves the fixed pass: the MilkDrop 1.x picture")
    func fallback() throws {
        let warp = "ret = float3(0.25, 0.5, 1.0);", composite = "ret = tex2D(sampler_main, uv).zyx;"
        let off = try Self.preset(warp: warp, composite: composite, shaders: false)
        #expect(off.shaderStatus == .off)
        let broken = try Self.preset(warp: warp, composite: "ret = undefined_thing(uv);")
        guard case .failed(let reason, let message) = broken.shaderStatus else {
            Issue.record("expected a compile failure, got \(broken.shaderStatus)")
            return
        }
        #expect(reason == "unknown identifier", "\(reason): \(message)")
        #expect(message.contains("shader-test.milk") && message.contains("line"), "\(message)")
        // Off: black (the fixed warp of a black start, decayed). Broken composite: the warp shader
        // still runs, and the fixed composite shows its buffer with gamma: not the swapped colours.
        #expect(Self.rgb(Self.picture(off).view.row32(9)[16]) == [0, 0, 0])
        let shown = Self.rgb(Self.picture(broken).view.row32(9)[16])
        #expect(shown != [255, 128, 64] && shown[2] > shown[0], "\(shown)")
    }
}
