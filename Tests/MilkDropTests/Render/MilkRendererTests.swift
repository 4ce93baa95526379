import MarbleCore
@testable import MilkDrop
import Testing

@Suite("MilkRenderer: decay, gamma, echo and tint as MilkDrop 2; the look at any size")
struct MilkRendererTests {
    @Test("decay is MilkDrop's 8-bit vertex colour (decay·255 truncated) in 1/256: 0.98 → 249/255 → 250")
    func decayWeight() {
        #expect(MilkRenderer.decayWeight(0.98) == 250)
        #expect(MilkRenderer.decayWeight(0.9) == 230)    // 229/255 · 256 = 229.9
        #expect(MilkRenderer.decayWeight(0.99) == 253)   // 252/255 · 256 = 253.0
        #expect(MilkRenderer.decayWeight(1) == 256 && MilkRenderer.decayWeight(2) == 256)
        #expect(MilkRenderer.decayWeight(-1) == 0 && MilkRenderer.decayWeight(.nan) == 256)
    }

    @Test("a warp with decay 0.98 takes 200 to 195 (MilkDrop: 200·249/255 = 195.3); 21 stays, 22 falls")
    func decayPixels() {
        let mesh = WarpMesh(columns: 4, rows: 4)
        mesh.configure(width: 8, height: 8)
        var still = WarpMesh.Motion()
        still.zoom = 1; still.rotation = 0; still.dx = 0; still.dy = 0; still.warp = 0
        mesh.warpAll(still, WarpMesh.Wobble(time: 0, animationSpeed: 1, scale: 1))
        let pass = WarpPass(mesh: mesh)
        let source = Texture(width: 8, height: 8), target = Texture(width: 8, height: 8)
        source.fill(RGBA8(r: 200, g: 100, b: 10))
        pass.source = source.view; pass.target = target.view
        pass.decay = MilkRenderer.decayWeight(0.98)
        pass.run(strip: 0..<8, worker: 0)
        let p = target.view.row32(4)[4]
        #expect(p & 0xFF == 195 && (p >> 8) & 0xFF == 98 && (p >> 16) & 0xFF == 10)   // 100 → 97.7, 10 → 9.8
        // Rounded to nearest as MilkDrop's 8-bit target: 21 · 250/256 = 20.5 → 21 stays; 22 → 21.48 → 21.
        source.fill(RGBA8(r: 21, g: 22, b: 0))
        pass.run(strip: 0..<8, worker: 0)
        let q = target.view.row32(4)[4]
        #expect(q & 0xFF == 21 && (q >> 8) & 0xFF == 21)
    }

    @Test("gamma sums additive passes: under 1 it darkens, except with video echo, where it is at least 1")
    func gammaPasses() {
        #expect(MilkRenderer.compositeGain(gamma: 2, echo: false) == 2)
        #expect(MilkRenderer.compositeGain(gamma: 0.5, echo: false) == 0.5)
        #expect(MilkRenderer.compositeGain(gamma: 0.5, echo: true) == 1)
        #expect(MilkRenderer.compositeGain(gamma: 2.7, echo: true) == 2.7)
        #expect(MilkRenderer.compositeGain(gamma: -1, echo: false) == 0)
    }

    @Test("the tint is off at fShader 0 and mixes with white by fShader")
    func tint() {
        let phases: (Float, Float, Float, Float) = (0, 1, 2, 3)
        #expect(MilkRenderer.tint(corner: 2, time: 7, amount: 0, phases: phases) == SIMD3(repeating: 1))
        #expect(MilkRenderer.tint(corner: 2, time: 7, amount: 0.001, phases: phases) == SIMD3(repeating: 1))
        let full = MilkRenderer.tint(corner: 2, time: 7, amount: 1, phases: phases)
        let half = MilkRenderer.tint(corner: 2, time: 7, amount: 0.5, phases: phases)
        #expect(full.max() == 1 && full.min() >= 0.5)   // largest channel 1, all in 0.5…1
        for i in 0..<3 { #expect(abs(half[i] - (0.5 * full[i] + 0.5)) < 1e-6) }
    }

    @Test("composite pixels: gamma 0.5 halves 100 without echo; with an echo of itself it stays 100")
    func compositePixels() throws {
        func frame(_ text: String) throws -> UInt8 {
            let file = try MilkPresetParser.parse(Array(text.utf8), path: "test.milk")
            let renderer = MilkRenderer(preset: try MilkPreset(file: file))
            renderer.configure(width: 16, height: 16, scale: 1)
            var inputs = MilkPreset.Inputs(); inputs.fps = 60
            renderer.prepare(inputs, audio: MilkAudio(), strips: nil)
            let out = Texture(width: 16, height: 16)
            renderer.composite(into: out.view, rows: 0..<16)
            return UInt8(out.view.row32(8)[8] & 0xFF)
        }
        // The first frame is black but for the outer border: a full-frame grey "border" of 100/255.
        let base = "fDecay=1\nfWaveAlpha=0\nzoom=1\nob_size=1\nob_r=0.392157\nob_g=0.392157\nob_b=0.392157\nob_a=1\n"
        #expect(try frame(base + "fGammaAdj=1\n") == 100)
        #expect(try frame(base + "fGammaAdj=0.5\n") == 50)
        #expect(try frame(base + "fGammaAdj=0.5\nfVideoEchoAlpha=0.5\nfVideoEchoZoom=1\n") == 100)
        #expect(try frame(base + "fGammaAdj=2\nfVideoEchoAlpha=0.5\nfVideoEchoZoom=1\n") == 200)
    }

    @Test("the built-in preset has the same mean luma at 80x45 and 320x180 (lines scale with the texture)")
    func sizeIndependence() throws {
        let small = try meanLuma(width: 80, height: 45), large = try meanLuma(width: 320, height: 180)
        #expect(large > 5)   // something is drawn
        #expect(abs(small - large) <= 4, "80x45: \(small), 320x180: \(large)")
    }

    /// Mean luma (0.299 R + 0.587 G + 0.114 B) of the built-in preset's frame 120 over the survey song.
    private func meanLuma(width: Int, height: Int) throws -> Double {
        let renderer = MilkRenderer(preset: try MilkPreset(file: try DefaultPreset.file()))
        renderer.configure(width: width, height: height, scale: 1)
        let audio = MilkAudio(), signal = SurveySignal()
        for n in 0...120 {
            audio.update(from: signal.features(frame: n), fps: 60, frame: n)
            var inputs = MilkPreset.Inputs()
            inputs.time = Double(n) / 60; inputs.frame = Double(n); inputs.fps = 60
            inputs.bass = Double(audio.bass); inputs.mid = Double(audio.mid); inputs.treb = Double(audio.treble)
            inputs.bassAtt = Double(audio.bassAttenuated); inputs.midAtt = Double(audio.midAttenuated)
            inputs.trebAtt = Double(audio.trebleAttenuated)
            renderer.prepare(inputs, audio: audio, strips: nil)
        }
        let out = Texture(width: width, height: height)
        renderer.composite(into: out.view, rows: 0..<height)
        var sum = 0.0
        for y in 0..<height {
            for x in 0..<width {
                let p = out.view.row32(y)[x]
                sum += 0.299 * Double(p & 0xFF) + 0.587 * Double((p >> 8) & 0xFF) + 0.114 * Double((p >> 16) & 0xFF)
            }
        }
        return sum / Double(width * height)
    }
}
