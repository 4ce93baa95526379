import Foundation
import MarbleCore
@testable import MarbleKit
@testable import MarbleRender
import TestSupport
import Testing

/// The input's embedded cover reaches the frames: as the `cover` layer (through SongInfo) and as the
/// still background of `--background cover`; without one, `--background cover` is refused.
@Suite("Cover in renders", .serialized)
struct CoverRenderTests {
    /// RGB of the PNG's pixel (x, y), the frame being 64 pixels wide.
    static func rgb(_ png: String, _ x: Int, _ y: Int) throws -> (Int, Int, Int) {
        let raw = [UInt8](try TestMedia.run("ffmpeg", ["-v", "error", "-i", png, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
        let i = (y * 64 + x) * 3
        return (Int(raw[i]), Int(raw[i + 1]), Int(raw[i + 2]))
    }

    func options(_ song: String, _ name: String) -> RenderOptions {
        var o = RenderOptions(input: song, output: TestMedia.output(name))
        o.width = 64
        o.height = 36
        o.fps = Rational(30)
        o.at = 0.5
        return o
    }

    @Test("--background cover puts the embedded picture under the preset (fit cover crops it)")
    func backgroundCover() throws {
        var o = options(try CoverMedia.song("mp3"), "bg-cover.png")
        o.preset = "bars"
        o.background = RenderOptions.coverBackground
        _ = try RenderJob(options: o).run()
        // 32×32 scaled to 64×64, rows 14…49 kept: the top-left corner is the red patch, the top-right the blue one.
        let (r, g, b) = try Self.rgb(o.output, 4, 2)
        #expect(r > 200 && g < 60 && b < 60, "top-left is \(r), \(g), \(b), not red")
        let (r2, g2, b2) = try Self.rgb(o.output, 60, 2)
        #expect(r2 < 60 && g2 < 60 && b2 > 200, "top-right is \(r2), \(g2), \(b2), not blue")
    }

    @Test("--background cover without an embedded picture is refused before anything is written")
    func refusedWithoutCover() throws {
        var o = options(try TestMedia.tone("flac"), "no-cover.png")
        o.background = RenderOptions.coverBackground
        #expect {
            try RenderJob(options: o)
        } throws: { error in
            guard let e = error as? MarbleError else { return false }
            return e.kind == .input && e.message.contains("no embedded cover")
        }
        #expect(!FileManager.default.fileExists(atPath: o.output))
    }

    @Test("the cover layer draws the song's own picture")
    func coverLayer() throws {
        var o = options(try CoverMedia.song("flac"), "layer.png")
        o.scene = Preset(name: "cover-test", layers: [
            LayerSpec(shader: "solid", parameters: ["color": .text("#000000")]),
            LayerSpec(shader: "cover", parameters: ["size": .number(1), "shape": .text("square"), "shadow": .number(0),
                                                     "pulse": .number(0)]),
        ])
        _ = try RenderJob(options: o).run()
        // A 36×36 square centred in the 64×36 frame: x 14…49.
        let (r, g, b) = try Self.rgb(o.output, 20, 6)
        #expect(r > 200 && g < 60 && b < 60, "top-left of the cover is \(r), \(g), \(b), not red")
        let (r2, g2, b2) = try Self.rgb(o.output, 44, 30)
        #expect(r2 > 200 && g2 > 200 && b2 > 200, "bottom-right of the cover is \(r2), \(g2), \(b2), not white")
        let (r3, g3, b3) = try Self.rgb(o.output, 4, 18)
        #expect(r3 + g3 + b3 < 30, "outside the cover is \(r3), \(g3), \(b3), not the black under it")
    }
}
