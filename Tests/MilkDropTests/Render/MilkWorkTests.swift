import Foundation
import MarbleCore
@testable import MilkDrop
import Testing

@Suite("A preset's work budget: hostile code stops on its frame, is reported by name and line, and is skipped")
struct MilkWorkTests {
    /// A preset written for the test: its name, its text, the block that must run out and its line.
    struct Hostile: Sendable, CustomStringConvertible {
        var name: String, text: String, block: String, line: Int, kind: MilkCodeKind
        var description: String { name }
    }

    static let hostile: [Hostile] = [
        Hostile(name: "pixel-loop", text: "[preset00]\nper_pixel_1=loop(1000000000, n = n + 1);\n",
                block: "per_pixel", line: 2, kind: .perVertex),
        Hostile(name: "pixel-while", text: "[preset00]\nzoom=1\nper_pixel_1=while(1);\n",
                block: "per_pixel", line: 3, kind: .perVertex),
        Hostile(name: "pixel-memset", text: "[preset00]\nper_pixel_1=memset(0, 1, 8388608);\n",
                block: "per_pixel", line: 2, kind: .perVertex),
        Hostile(name: "frame-nested", text: "[preset00]\nper_frame_1=loop(1000000, loop(1000000, m = m + 1));\n",
                block: "per_frame", line: 2, kind: .perFrame),
        Hostile(name: "init-nested", text: "[preset00]\nper_frame_init_1=loop(1000000, while(k = k + 1; 1));\n",
                block: "per_frame_init", line: 2, kind: .initial),
        Hostile(name: "wave-point-loop",
                text: "[preset00]\nwavecode_0_enabled=1\nwavecode_0_samples=512\nwave_0_per_point1=loop(1000000, a = a + 1);\n",
                block: "wave 0 per_point", line: 4, kind: .wavePoint),
        Hostile(name: "shape-instance-loop",
                text: "[preset00]\nshapecode_0_enabled=1\nshapecode_0_num_inst=1024\nshape_0_per_frame1=loop(1000000, a = a + 1);\n",
                block: "shape 0 per_frame", line: 4, kind: .shapeInstance),
    ]

    private func renderer(_ text: String, path: String) throws -> MilkRenderer {
        try renderer(try MilkPresetParser.parse(Array(text.utf8), path: path))
    }

    private func renderer(_ file: MilkPresetFile, budget: MilkWorkAmounts = MilkDropLimits.workBudget) throws -> MilkRenderer {
        let preset = try MilkPreset(file: file, workBudget: budget)
        let renderer = MilkRenderer(preset: preset)
        renderer.configure(width: 32, height: 18, scale: 1)
        return renderer
    }

    private func frame(_ r: MilkRenderer, _ n: Int, audio: MilkAudio = MilkAudio()) {
        var inputs = MilkPreset.Inputs()
        inputs.frame = Double(n); inputs.time = Double(n) / 30; inputs.fps = 30
        r.prepare(inputs, audio: audio, strips: nil)
    }

    @Test("each hostile preset finishes its frames within its budget and names its block and line", arguments: hostile)
    func hostilePreset(_ h: Hostile) throws {
        let r = try renderer(h.text, path: "/presets/\(h.name).milk")
        for n in 0..<3 { frame(r, n) }
        let p = r.preset, budget = MilkDropLimits.workBudget
        #expect(p.workOverrun?.block == h.block && p.workOverrun?.line == h.line && p.workOverrun?.kind == h.kind)
        // The work counter never passes the budget, whatever the code asks for.
        for kind in MilkCodeKind.allCases { #expect(p.peakWork[kind] <= budget[kind], "\(kind)") }
        #expect(p.peakWork[h.kind] > budget[h.kind] / 2)
        // Init code runs on the first frame only; the others run out on every frame.
        #expect(p.overBudgetFrames == (h.kind == .initial ? 1 : 3))
        let error = try #require(p.overrunError)
        #expect(error.reason == .overBudget)
        #expect(error.description.hasPrefix("/presets/\(h.name).milk:\(h.line): \(h.block) ran out of the work budget"))
    }

    @Test("per-pixel code stops at the vertex that ran out: the vertices after it run no code that frame")
    func perVertexStops() throws {
        let r = try renderer("per_pixel_1=loop(1000000000, n = n + 1); count = count + 1;\n", path: "p.milk")
        frame(r, 0)
        // The first vertex ran out inside its loop, before `count = count + 1`: no vertex counted.
        #expect(r.preset.vertexMemory["count"] == 0)
        #expect(r.preset.vertexMemory["n"] > 0 && r.preset.vertexMemory["n"] < Double(MilkDropLimits.workBudget[.perVertex]))
    }

    @Test("a block whose static length alone is over its budget (100,000 instructions per pixel) is refused on load")
    func refusedOnLoad() throws {
        // `a = a + 1;` is 3 instructions (pushVar, addConst, storeVarPop): 334 lines of 100 are 100,200.
        let line = String(repeating: "a = a + 1; ", count: 100)
        let text = "[preset00]\n" + (1...334).map { "per_pixel_\($0)=\(line)\n" }.joined()
        let file = try MilkPresetParser.parse(Array(text.utf8), path: "long.milk")
        #expect {
            try MilkPreset(file: file)
        } throws: { error in
            guard let e = error as? MilkPresetError else { return false }
            return e.reason == .overBudget && e.line == 2 && e.message.hasPrefix("per_pixel: 100201 instructions are over")
        }
        // Shapes count their instances: 1,024 instances of 9,001 instructions.
        let shapeLine = String(repeating: "a = a + 1; ", count: 3000)
        let shape = "[preset00]\nshapecode_0_enabled=1\nshapecode_0_num_inst=1024\nshape_0_per_frame1=\(shapeLine)\n"
        let shapeFile = try MilkPresetParser.parse(Array(shape.utf8), path: "shape.milk")
        #expect(throws: MilkPresetError.self) { try MilkPreset(file: shapeFile) }
    }

    /// Debian presets that use loops, megabuf and gmegabuf: the heaviest real code at hand.
    static let loopPresets = [
        "presets_tryptonaut/random mash-up round 37.milk",
        "presets_mischa_collection/martin - mandelbox stepper.milk",
        "presets_mischa_collection/Fumbling_Foo & Flexi, Martin, Orb, Unchained - Harmony Nova v2a.milk",
    ]

    @Test("real presets with loops render byte for byte as with no budget at all", arguments: loopPresets)
    func realPresetUntouched(_ name: String) throws {
        let path = "/usr/share/projectM/presets/" + name
        let file = try MilkPresetParser.parse(contentsOf: path)
        let budgeted = try renderer(file), free = try renderer(file, budget: .unlimited)
        let a = Texture(width: 32, height: 18), b = Texture(width: 32, height: 18)
        let audio = MilkAudio()
        for n in 0..<20 {
            audio.update(from: SurveySignal().features(frame: n))
            frame(budgeted, n, audio: audio); frame(free, n, audio: audio)
        }
        budgeted.composite(into: a.view, rows: 0..<18); free.composite(into: b.view, rows: 0..<18)
        #expect(budgeted.preset.workOverrun == nil)
        #expect(budgeted.preset.peakWork == free.preset.peakWork)
        for y in 0..<18 {
            for x in 0..<32 { #expect(a.view.row32(y)[x] == b.view.row32(y)[x], "pixel \(x), \(y)") }
        }
    }

    @Test("a playlist cuts away from a preset that ran out and never plays it again; the survey fails it by reason")
    func skipped() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("milk-work-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let bad = root + "/a-hostile.milk", good = root + "/b-good.milk"
        try Data(Self.hostile[0].text.utf8).write(to: URL(fileURLWithPath: bad))
        try Data("zoom=1.01\nper_frame_1=wave_r = 0.5;\n".utf8).write(to: URL(fileURLWithPath: good))
        var options = MilkPlaylist.Options()
        options.switchSeconds = 1; options.blendSeconds = 0
        let list = try MilkPlaylist(paths: [bad, good], options: options)
        list.configure(width: 32, height: 18, scale: 1)
        let audio = MilkAudio()
        for n in 0..<150 {   // 5 s: several switches
            let t = Double(n) / 30
            list.update(time: t, isBeat: false, bass: 1)
            var inputs = MilkPreset.Inputs()
            inputs.frame = Double(n); inputs.time = t
            list.active.prepare(inputs, audio: audio, strips: nil)
            if n >= 1 { #expect(list.active.preset.name == "b-good", "frame \(n)") }
        }
        #expect(list.skipped.count == 1 && list.skipped.first?.path == bad)
        #expect(list.skipped.first?.reason.contains(":2: per_pixel ran out of the work budget") == true)
        #expect(list.warnings() == ["\(bad):2: per_pixel ran out of the work budget (16384 instructions per vertex a frame); skipped"])

        let check = MilkPresetCheck.check(path: bad, width: 32, height: 18, frames: 10)
        guard case .failed(let error) = check.outcome else { Issue.record("not failed: \(check.outcome)"); return }
        #expect(error.reason == .overBudget && error.line == 2)
        let fine = MilkPresetCheck.check(path: good, width: 32, height: 18, frames: 10)
        #expect(fine.peakWork[.perFrame] > 0 && fine.peakWork[.perVertex] == 0)
    }

    @Test("a lone preset that runs out stays on screen, and its warning counts the frames its code was stopped on")
    func loneWarning() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("milk-lone-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let bad = root + "/hostile.milk"
        try Data(Self.hostile[1].text.utf8).write(to: URL(fileURLWithPath: bad))
        let list = try MilkPlaylist(paths: [bad])
        list.configure(width: 32, height: 18, scale: 1)
        #expect(list.warnings().isEmpty)
        for n in 0..<4 {
            list.update(time: Double(n) / 30, isBeat: false, bass: 1)
            var inputs = MilkPreset.Inputs()
            inputs.frame = Double(n); inputs.time = Double(n) / 30
            list.active.prepare(inputs, audio: MilkAudio(), strips: nil)
        }
        #expect(list.warnings() == ["\(bad):3: per_pixel ran out of the work budget (16384 instructions per vertex a frame); its code was stopped on 4 frames"])
    }

    /// A composite shader whose loop reads the picture 8 times an iteration, 1,024 iterations (the most
    /// a masked loop runs): under the compiler's 65,535 operations a pixel, past the cost budget (8,192
    /// reads at 5 ns are 41 µs a pixel).
    static let costlyShader = """
        [preset00]
        zoom=1
        comp_1=`shader_body {
        comp_2=`  float3 acc = 0; float n = 0;
        comp_3=`  while (n < q1 + 1024) {
        comp_4=`    acc += tex2D(sampler_main, uv + n * 0.001).xyz + tex2D(sampler_main, uv - n * 0.001).xyz;
        comp_5=`    acc += tex2D(sampler_main, uv + n * 0.002).xyz + tex2D(sampler_main, uv - n * 0.002).xyz;
        comp_6=`    acc += tex2D(sampler_main, uv + n * 0.003).xyz + tex2D(sampler_main, uv - n * 0.003).xyz;
        comp_7=`    acc += tex2D(sampler_main, uv + n * 0.004).xyz + tex2D(sampler_main, uv - n * 0.004).xyz;
        comp_8=`    n += 1;
        comp_9=`  }
        comp_10=`  ret = acc / 8192;
        comp_11=`}
        """

    @Test("shaders that would cost a pixel more than the budget are refused on load, by file and line")
    func costlyShaderRefused() throws {
        let file = try MilkPresetParser.parse(Array(Self.costlyShader.utf8), path: "costly.milk")
        #expect {
            try MilkPreset(file: file)
        } throws: { error in
            guard let e = error as? MilkPresetError else { return false }
            return e.reason == .overBudget && e.line == 3 && e.message.hasPrefix("the shaders would cost")
                && e.message.contains("the composite shader")
        }
        // Without its shaders (MilkDrop 1.x style) the same file loads: only the shaders cost.
        #expect(try MilkPreset(file: file, shaders: false).shaderCostPerPixel == 0)
        // With no cost budget it compiles, and costs what the refusal says it would.
        let free = try MilkPreset(file: file, shaderBudget: .infinity)
        #expect(free.shaderCostPerPixel > MilkDropLimits.shaderNanosecondsPerPixel)
    }

    @Test("the costliest shaders of Debian's presets load well within the shader budget")
    func costliestRealShaders() throws {
        let path = "/usr/share/projectM/presets/presets_tryptonaut/Goody + martin - crystal palace - Ocular Anima.milk"
        let preset = try MilkPreset(file: try MilkPresetParser.parse(contentsOf: path))
        #expect(preset.shaderCostPerPixel > 300)
        #expect(preset.shaderCostPerPixel * 64 < MilkDropLimits.shaderNanosecondsPerPixel)
    }
}
