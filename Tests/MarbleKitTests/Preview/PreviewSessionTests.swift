import Foundation
import Testing
import MarbleCore
import MarbleMedia
import MarbleRender
import TestSupport
@testable import MarbleKit

/// The preview draws what the render draws, wherever the page's clock asks.
@Suite struct PreviewSessionTests {
    /// 12 s of tone with a pulse every half second, mono at 22.05 kHz (cheap to analyse).
    private let song: String
    private let picture = TestMedia.output("preview-\(UUID().uuidString).png")

    init() throws { song = try TestMedia.tone("wav", seconds: 12, rate: 22_050, channels: 1) }

    private func options(preset: String = "magma") -> RenderOptions {
        var o = RenderOptions(input: song, output: picture)
        (o.width, o.height, o.fps, o.preset, o.threads) = (64, 36, Rational(10), preset, 2)
        return o
    }

    /// The render's own frame `index`, as `marble render -o x.png --at` writes it.
    private func rendered(frame index: Int, preset: String = "magma") throws -> [UInt8] {
        var o = options(preset: preset)
        o.at = o.fps.seconds(ofFrame: index)
        _ = try RenderJob(options: o).run()
        defer { try? FileManager.default.removeItem(atPath: picture) }
        let texture = Texture(width: 64, height: 36)
        try StillImage.decode(path: picture, into: texture)
        return bytes(texture.view)
    }

    private func bytes(_ view: TextureView) -> [UInt8] {
        (0..<view.height).flatMap { y in Array(UnsafeBufferPointer(start: view.row(y), count: view.width * 4)) }
    }

    @Test func framesDrawnInTurnAreTheRendersFrames() throws {
        let preview = try PreviewSession(options: options())
        for n in 0...25 { try preview.draw(at: preview.fps.seconds(ofFrame: n) + 0.01) }
        #expect(preview.jumps == 0)
        #expect(bytes(preview.picture) == (try rendered(frame: 25)))
    }

    @Test func aMomentAheadIsReachedByAnalysingTheFramesBetween() throws {
        let preview = try PreviewSession(options: options())
        try preview.draw(at: 0)
        let drawn = try preview.draw(at: 0.8)   // 8 frames on, within catchUpSeconds
        #expect(drawn.index == 8 && preview.jumps == 0 && preview.framesStepped == 7)
        #expect(bytes(preview.picture) == (try rendered(frame: 8)))
    }

    @Test func goingBackStartsOverBeforeTheMomentAndNearTheStartDrawsTheRendersFrame() throws {
        let preview = try PreviewSession(options: options())
        try preview.draw(at: 6)
        let jumpsBefore = preview.jumps
        // 1.5 s is within the warm-up of the start: the jump starts at frame 0, so the picture is exact.
        let drawn = try preview.draw(at: 1.5)
        #expect(drawn.index == 15 && preview.jumps == jumpsBefore + 1)
        #expect(bytes(preview.picture) == (try rendered(frame: 15)))
    }

    @Test func aFarJumpAnalysesOnlyTheWarmUp() throws {
        let preview = try PreviewSession(options: options())
        try preview.draw(at: 0)
        let drawn = try preview.draw(at: 11)
        #expect(drawn.index == 110 && preview.jumps == 1)
        // The warm-up's frames (2 s at 10 fps), not the 109 frames between.
        #expect(preview.framesStepped == Int(PreviewSession.warmUpSeconds * 10))
        #expect(bytes(preview.picture).contains { $0 != 0 })
    }

    @Test func theEndIsTheLastFrameAndTimesAreClamped() throws {
        let preview = try PreviewSession(options: options())
        #expect(preview.totalFrames == 120)
        #expect(try preview.draw(at: 99).index == 119)
        #expect(try preview.draw(at: -5).index == 0)
        #expect(try preview.draw(at: 1e300).index == 119 && preview.draw(at: -.infinity).index == 0)
        #expect(try preview.draw(at: .nan).index == 0)
    }

    @Test func aChangedNumberShowsInTheNextFrameAndKeepsTheScene() throws {
        let preview = try PreviewSession(options: options(preset: "bars"))
        try preview.draw(at: 1)
        let before = bytes(preview.picture)
        var look = try PresetLibrary.load("bars")
        let bars = try #require(look.layers.firstIndex { $0.shader == "bars" })
        look.layers[bars].parameters["height"] = .number(0.2)
        try preview.show(try preview.scene(for: look))
        try preview.draw(at: 1, redraw: true)
        let lower = bytes(preview.picture) != before
        #expect(lower && preview.sceneRebuilds == 0)   // in place: the layers keep their state
        // A new layer on top: a new compositor, drawn at once.
        let changed = bytes(preview.picture)
        look.layers.append(LayerSpec(shader: "solid", parameters: ["color": .text("#ff000080")]))
        try preview.show(try preview.scene(for: look))
        try preview.draw(at: 1, redraw: true)
        let now = bytes(preview.picture)
        let washed = now != changed && now[0] > 100   // the red wash over the whole frame
        #expect(washed && preview.sceneRebuilds == 1)
    }

    @Test func aLookThatDoesNotValidateIsRefusedAndTheLastOneStays() throws {
        let preview = try PreviewSession(options: options(preset: "bars"))
        try preview.draw(at: 1)
        let before = bytes(preview.picture)
        let bad = Preset(name: "bad", layers: [LayerSpec(shader: "no_such_shader")])
        #expect(throws: MarbleError.self) { try preview.show(bad) }
        var outOfRange = try PresetLibrary.load("bars")
        outOfRange.layers[1].parameters["count"] = .number(4)
        #expect(throws: MarbleError.self) { try preview.show(try preview.scene(for: outOfRange)) }
        try preview.draw(at: 1, redraw: true)
        #expect(bytes(preview.picture).count == before.count)
    }
}
