import Foundation
import Granite
@testable import MarbleAnalysis
import MarbleCore
@testable import MarbleKit
@testable import MarbleMedia
@testable import MarblePipeline
@testable import MarbleRender
import TestSupport
import Testing

/// A/V alignment as users see it: a click at time t must change frame floor(t·fps) or the next one,
/// never a later one, and nothing may change before it. Frames are read back losslessly as PNGs.
@Suite("A/V alignment", .serialized)
struct AVSyncTests {
    /// Grey levels of the PNG frame at `seconds` rendered from `input` with the classic bars preset.
    func frame(_ input: String, at seconds: Double, fps: Rational) throws -> [UInt8] {
        var o = RenderOptions(input: input, output: TestMedia.output("sync.png"))
        o.width = 64
        o.height = 36
        o.fps = fps
        o.preset = "bars"
        o.at = seconds
        _ = try RenderJob(options: o).run()
        let raw = try TestMedia.run("ffmpeg", ["-v", "error", "-i", o.output, "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        return [UInt8](raw)
    }

    @Test("a click changes frame floor(t·fps) or the next one", arguments: [(30, 1.0 + 0.5 / 30), (60, 0.75 + 0.2 / 60), (25, 1.1)])
    func click(fps: Int, clickTime: Double) throws {
        let rate = Rational(fps)
        let input = try TestMedia.make("click-\(clickTime).wav", [
            "-f", "lavfi", "-i",
            "aevalsrc=0.9*between(t\\,\(clickTime)\\,\(clickTime + 0.004))*sin(2*PI*1000*t):s=44100:d=2",
        ])
        let hit = rate.frame(at: clickTime)
        let quiet = try frame(input, at: rate.seconds(ofFrame: hit - 1), fps: rate)
        let early = try frame(input, at: rate.seconds(ofFrame: hit - 5), fps: rate)
        #expect(quiet == early, "frames before the click must not react")
        let atHit = try frame(input, at: rate.seconds(ofFrame: hit), fps: rate)
        let next = try frame(input, at: rate.seconds(ofFrame: hit + 1), fps: rate)
        #expect(atHit != quiet || next != quiet, "frame \(hit) or \(hit + 1) must show the click")
    }
}
