import MarbleCore
@testable import MilkDrop
import Testing

@Suite("CustomWave")
struct CustomWaveTests {
    func wave(_ values: [String: Double], perFrame: String = "", perPoint: String = "", initCode: String = "") throws(CustomCodeError) -> CustomWave {
        var all: [String: Double] = ["enabled": 1, "samples": 100, "smoothing": 0]
        for (k, v) in values { all[k] = v }
        let code = CustomWaveCode(values: all, initCode: CodeBlock(lines: [(fileLine: 2, text: initCode)]),
                                  perFrame: CodeBlock(lines: [(fileLine: 4, text: perFrame)]),
                                  perPoint: CodeBlock(lines: [(fileLine: 6, text: perPoint)]))
        return try CustomWave(code: code, globalBuffer: MegaBuffer())
    }

    func draw(_ w: CustomWave, audio: MilkAudio = MilkAudio(), frame: MilkFrameValues = MilkFrameValues()) -> Canvas {
        let canvas = Canvas(width: 192, height: 108)
        var list = MilkDrawList(width: 192, height: 108)
        w.build(frame, audio: audio, into: &list)
        canvas.draw(list)
        return canvas
    }

    @Test("per-point equations place the points: x = sample, y = 0.25 is a line across the lower quarter")
    func perPointLine() throws {
        let c = draw(try wave([:], perPoint: "x = sample; y = 0.25;"))
        // y up: 0.25 → row 81 (108·0.75), between rows 80 and 81.
        #expect(Set(c.litRows(threshold: 100)).isSubset(of: [80, 81]) && !c.litRows(threshold: 100).isEmpty)
        #expect(c.litColumns().count >= 190)
    }

    @Test("per-frame code sets the colour the points start with; per-point code can change it per point")
    func colours() throws {
        let green = draw(try wave([:], perFrame: "r = 0; g = 1; b = 0;", perPoint: "x = sample; y = 0.5 + 0.5/108;"))
        #expect(green.pixel(96, 53) == SIMD3(0, 255, 0))
        let split = draw(try wave([:], perPoint: "x = sample; y = 0.5 + 0.5/108; r = above(sample, 0.5); g = 0; b = 0;"))
        #expect(split.pixel(40, 53).x == 0 && split.pixel(150, 53).x == 255)
    }

    @Test("without code the wave plots left against right around the centre, scaled by scaling (as dots: a line of equal points draws nothing, as in MilkDrop)")
    func samplesDrive() throws {
        var f = AudioFeatures(bandCount: 4, waveformLength: 576)
        for i in 0..<576 { f.waveformLeft[i] = 0.5; f.waveformRight[i] = -0.25 }
        let audio = MilkAudio(); audio.update(from: f)
        let c = draw(try wave(["scaling": 1, "busedots": 1]), audio: audio)
        // x = 0.5 + 0.5·0.512 = 0.756, y = 0.5 − 0.25·0.512 = 0.372 → pixel (145, 67.8).
        #expect(c.litColumns(threshold: 10).allSatisfy { abs($0 - 145) <= 2 })
        #expect(c.litRows(threshold: 10).allSatisfy { abs($0 - 67) <= 2 })
        #expect(!c.litRows(threshold: 10).isEmpty)
    }

    @Test("a spectrum wave reads the spectrum: a loud band lifts its part of the line")
    func spectrum() throws {
        var f = AudioFeatures(bandCount: 4, waveformLength: 64, spectrumLength: 1025)
        f.spectrumResolution = 22050 / 1024
        for i in 0..<100 { f.spectrum[i] = 0.1 }
        let audio = MilkAudio(); audio.update(from: f)
        let c = draw(try wave(["bspectrum": 1, "samples": 512], perPoint: "x = sample; y = 0.2 + value1;"), audio: audio)
        let lowRows = (0..<108).filter { y in c.pixel(10, y).x > 60 }
        let highRows = (0..<108).filter { y in c.pixel(180, y).x > 60 }
        #expect(!lowRows.isEmpty && !highRows.isEmpty)
        #expect(lowRows.max()! < highRows.min()!, "low band drawn higher: \(lowRows) vs \(highRows)")
    }

    @Test("init code sets t1 for every frame; q1 comes from the frame; samples can be changed per frame")
    func initAndVariables() throws {
        var frame = MilkFrameValues(); frame.q[0] = 0.75
        let w = try wave(["busedots": 1], perFrame: "samples = 50; t2 = t1;", perPoint: "x = t2; y = q1;", initCode: "t1 = 0.25;")
        let c = draw(w, frame: frame)
        #expect(c.litColumns(threshold: 10).allSatisfy { abs($0 - 48) <= 2 } && !c.litColumns(threshold: 10).isEmpty)
        #expect(c.litRows(threshold: 10).allSatisfy { abs($0 - 27) <= 2 })
        var list = MilkDrawList(width: 192, height: 108)
        w.build(frame, audio: MilkAudio(), into: &list)
        #expect(list.vertexCount == 2 * 50 - 1)
    }

    @Test("dots, thick and additive styles; disabled waves draw nothing; errors name the block and line")
    func styles() throws {
        var list = MilkDrawList(width: 192, height: 108)
        try wave(["busedots": 1, "bdrawthick": 1, "badditive": 1], perPoint: "x = sample; y = 0.5;").build(MilkFrameValues(), audio: MilkAudio(), into: &list)
        #expect(list.primitive(at: 0) == .dots)
        list.reset(width: 192, height: 108)
        try wave(["enabled": 0], perPoint: "x = sample;").build(MilkFrameValues(), audio: MilkAudio(), into: &list)
        #expect(list.commandCount == 0)
        do throws(CustomCodeError) { _ = try wave([:], perPoint: "x = (1;"); Issue.record("no error") } catch {
            #expect(error.line == 6 && error.block == "wave 0 per_point")
        }
    }
}
