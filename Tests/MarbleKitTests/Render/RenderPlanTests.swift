@testable import MarbleAnalysis
import MarbleCore
@testable import MarbleKit
import MarbleMedia
@testable import MarbleRender
import Testing

/// What a render decides before it decodes anything: pictures, scene, analysis, frames and output.
/// No media: the plan is a value made from the options.
@Suite("RenderPlan")
struct RenderPlanTests {
    let bars = Preset(name: "bars-only", layers: [LayerSpec(shader: "bars")])

    func options(_ output: String = "/tmp/out.mp4") -> RenderOptions {
        var o = RenderOptions(input: "/tmp/song.flac", output: output)
        o.fps = Rational(30)
        return o
    }

    @Test("a sound alone: the whole video with its sound, the preset's layers, no pictures")
    func soundAlone() throws {
        let plan = try RenderPlan(options: options(), preset: bars, inputHasVideo: false)
        #expect(plan.input == "/tmp/song.flac")
        #expect(plan.pictures == .none)
        #expect(plan.scene.layers.map(\.shader) == ["bars"])
        #expect(plan.output == .video(path: "/tmp/out.mp4", format: .mp4))
        #expect(try plan.frames(totalFrames: 90) == nil)
        #expect(!plan.isSegment)
        #expect(plan.analysis == AnalysisConfiguration())
    }

    @Test("pictures: a background wins over the input's video, the cover is a still, the video follows its sound")
    func pictures() throws {
        #expect(try RenderPlan(options: options(), preset: bars, inputHasVideo: true).pictures == .inputVideo)
        var o = options()
        o.background = "/tmp/sky.png"
        let background = try RenderPlan(options: o, preset: bars, inputHasVideo: true)
        #expect(background.pictures == .background(path: "/tmp/sky.png"))
        o.background = RenderOptions.coverBackground
        #expect(try RenderPlan(options: o, preset: bars, inputHasVideo: false).pictures == .cover)
    }

    @Test("with pictures the media layer is at the bottom (replacing a generator that covers the canvas); effects and the title on top")
    func scene() throws {
        var o = options()
        o.effects = ["blur"]
        o.title = "{title}"
        let plain = try RenderPlan(options: o, preset: bars, inputHasVideo: false)
        #expect(plain.scene.layers.map(\.shader) == ["bars", "blur", "text"])
        let magma = Preset(name: "magma-bars", layers: [LayerSpec(shader: "magma"), LayerSpec(shader: "bars")])
        let video = try RenderPlan(options: o, preset: magma, inputHasVideo: true)
        #expect(video.scene.layers.map(\.shader) == ["media", "blur", "bars", "text"])
        o.effects = ["no-such-effect"]
        #expect(throws: MarbleError.self) { try RenderPlan(options: o, preset: bars, inputHasVideo: false) }
    }

    @Test("analysis: the preset's section, with --bands winning")
    func analysis() throws {
        var preset = bars
        preset.analysis.bands = 32
        preset.analysis.sensitivity = 2
        var o = options()
        #expect(try RenderPlan(options: o, preset: preset, inputHasVideo: false).analysis.bandCount == 32)
        o.bandCount = 96
        let plan = try RenderPlan(options: o, preset: preset, inputHasVideo: false)
        #expect(plan.analysis.bandCount == 96)
        #expect(plan.analysis.sensitivity == 2)
    }

    @Test("a PNG is the one frame at --at (the first without it)")
    func picture() throws {
        var o = options("/tmp/frame.png")
        let first = try RenderPlan(options: o, preset: bars, inputHasVideo: false)
        #expect(first.output == .picture(path: "/tmp/frame.png", frame: 0))
        o.at = 1.52   // 45.6 frames at 30 fps: frame 45 is on screen
        let plan = try RenderPlan(options: o, preset: bars, inputHasVideo: false)
        #expect(plan.output == .picture(path: "/tmp/frame.png", frame: 45))
        #expect(try plan.frames(totalFrames: 90) == 45..<46)
        #expect(plan.outputPath == "/tmp/frame.png")
    }

    @Test("a segment is its piece of the grid, checked against the render's length")
    func segment() throws {
        var o = options("/tmp/piece.mkv")
        o.segment = .piece(2, of: 4)
        let plan = try RenderPlan(options: o, preset: bars, inputHasVideo: false)
        #expect(plan.output == .segment(path: "/tmp/piece.mkv", format: .mkv, .piece(2, of: 4)))
        #expect(plan.isSegment)
        // 90 frames in 4 pieces: ⌊90/4⌋ = 22 to ⌊180/4⌋ = 45.
        #expect(try plan.frames(totalFrames: 90) == 22..<45)
        #expect(throws: MarbleError.self) { try plan.frames(totalFrames: 3) }
    }
}
