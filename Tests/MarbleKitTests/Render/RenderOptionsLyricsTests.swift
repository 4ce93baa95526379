import MarbleCore
@testable import MarbleKit
@testable import MarbleRender
import Testing

/// `--lyrics` and `--captions`: the layer they add, and the checks before anything is read.
@Suite("RenderOptions: lyrics and captions")
struct RenderOptionsLyricsTests {
    let bars = Preset(name: "bars-only", layers: [LayerSpec(shader: "bars")])

    func options(lyrics: String? = nil, captions: String? = nil) -> RenderOptions {
        var o = RenderOptions(input: "/tmp/song.flac", output: "/tmp/out.mp4")
        o.lyricsFile = lyrics
        o.captionsFile = captions
        return o
    }

    @Test("--lyrics adds a lyrics layer on top; --captions one without the next line; a scene's own layer is kept")
    func layer() throws {
        var o = options(lyrics: "/tmp/a.lrc")
        o.title = "{title}"
        let plan = try RenderPlan(options: o, preset: bars, inputHasVideo: false)
        #expect(plan.scene.layers.map(\.shader) == ["bars", "text", "lyrics"])
        #expect(plan.scene.layers[2].parameters.isEmpty)
        let captions = try RenderPlan(options: options(captions: "/tmp/a.vtt"), preset: bars, inputHasVideo: false)
        #expect(captions.scene.layers.last?.parameters["next_opacity"] == .number(0))
        let own = Preset(name: "karaoke", layers: [LayerSpec(shader: "lyrics", parameters: ["size": .number(90)]), LayerSpec(shader: "bars")])
        let kept = try RenderPlan(options: options(lyrics: "/tmp/a.lrc"), preset: own, inputHasVideo: false)
        #expect(kept.scene.layers.map(\.shader) == ["lyrics", "bars"])
        #expect(try RenderPlan(options: options(), preset: bars, inputHasVideo: false).scene.layers.map(\.shader) == ["bars"])
    }

    @Test("a preset's lyrics layer is styled by its YAML and validated like any layer")
    func presetYAML() throws {
        let yaml = "name: karaoke\nlayers:\n  - shader: magma\n  - shader: lyrics\n    parameters: { size: 72, highlight: \"#7df9ff\", next_opacity: 0.3 }\n"
        let preset = try Preset.parse(yaml, source: "karaoke.yaml")
        try preset.validate()
        let plan = try RenderPlan(options: options(lyrics: "/tmp/a.lrc"), preset: preset, inputHasVideo: false)
        #expect(plan.scene.layers.map(\.shader) == ["magma", "lyrics"])
        #expect(plan.scene.layers[1].parameters["size"] == .number(72))
        #expect(throws: MarbleError(.preset, "k.yaml: layers[0].parameters.next_opacity: 2 is out of range 0…1")) {
            try Preset.parse("name: k\nlayers:\n  - shader: lyrics\n    parameters: { next_opacity: 2 }\n", source: "k.yaml")
        }
    }

    @Test("an unknown extension or both options are one line about the option", arguments: [
        (Optional("/tmp/words.txt"), String?.none, "--lyrics /tmp/words.txt: unknown format (use .lrc, .srt or .vtt)"),
        (nil, "/tmp/cues.ass", "--captions /tmp/cues.ass: unknown format (use .lrc, .srt or .vtt)"),
        ("/tmp/a.lrc", "/tmp/a.srt", "--lyrics and --captions: give one of them (both are drawn by the one lyrics layer)"),
    ])
    func validation(lyrics: String?, captions: String?, message: String) {
        #expect(throws: MarbleError(.option, message)) { try options(lyrics: lyrics, captions: captions).validate() }
    }

    @Test("the file is read in its extension's format; none given reads nothing")
    func reading() throws {
        #expect(try options().readTimedText() == nil)
        #expect(throws: MarbleError.self) { try options(lyrics: "/nonexistent/a.lrc").readTimedText() }
    }
}
