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

    /// Renders `media` to `ext` with the bars preset at 25 fps; returns the mean grey level of every
    /// frame of the output, and the output's own sound as a player places it (by its timestamps, from
    /// time 0: `aresample=async=1:first_pts=0`), mono at 44.1 kHz.
    func render(_ media: TimelineMedia.Case, to ext: String) throws -> (luma: [Double], sound: [Float]) {
        var o = RenderOptions(input: media.path, output: TestMedia.output("timeline.\(ext)"))
        o.width = 64
        o.height = 36
        o.fps = Rational(25)
        o.preset = "bars"
        _ = try RenderJob(options: o).run()
        let pixels = [UInt8](try TestMedia.run("ffmpeg", ["-v", "error", "-i", o.output, "-map", "0:v", "-f", "rawvideo", "-pix_fmt", "gray", "-"]))
        let size = 64 * 36
        let luma = stride(from: 0, to: pixels.count - size + 1, by: size).map { start in
            Double(pixels[start..<start + size].reduce(0) { $0 + Int($1) }) / Double(size)
        }
        let bytes = try TestMedia.run("ffmpeg", ["-v", "error", "-i", o.output, "-map", "0:a", "-af", "aresample=async=1:first_pts=0",
                                                 "-ac", "1", "-ar", "44100", "-f", "f32le", "-"])
        let sound = bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        return (luma, sound)
    }

    @Test("the picture reacts when the output's sound has the burst, and lasts as long as the sound",
          arguments: [("late-start mp4 → mp4 (AAC copied)", "late.mp4", "mp4"),
                      ("gap mkv → mkv (Vorbis copied)", "gap.mkv", "mkv"),
                      ("gap ogg → mp4 (re-encoded)", "gap.ogg", "mp4"),
                      ("negative start ogg with video → mkv (Vorbis copied)", "negative-video", "mkv"),
                      ("negative start ogg → mp4 (re-encoded)", "negative", "mp4"),
                      ("negative start cut by an mp4 edit list → mp4 (AAC copied)", "negative.mp4", "mp4")])
    func timeline(name: String, input: String, output: String) throws {
        let media: TimelineMedia.Case = switch input {
        case "late.mp4": try TimelineMedia.lateStart("mp4")
        case "gap.mkv": try TimelineMedia.gap("mkv")
        case "gap.ogg": try TimelineMedia.gap("ogg")
        case "negative-video": try TimelineMedia.negativeStartWithVideo()
        case "negative.mp4": try TimelineMedia.negativeStartMP4()
        default: try TimelineMedia.negativeStart()
        }
        let (luma, sound) = try render(media, to: output)
        let heardAt = try #require(sound.firstIndex { abs($0) > 0.3 }, "\(name): no burst in the output's sound")
        let heard = Double(heardAt) / 44_100
        #expect(abs(heard - media.burst) < 0.03, "\(name): the burst is heard at \(heard) s, expected \(media.burst) s")
        let quiet = try #require(luma.first)
        let reacted = try #require(luma.firstIndex { abs($0 - quiet) > 1 }, "\(name): the picture never reacts")
        let heardFrame = Rational(25).frame(at: heard)
        #expect(abs(reacted - heardFrame) <= 1, "\(name): the picture reacts in frame \(reacted), the burst is heard in frame \(heardFrame)")
        #expect(Double(luma.count) / 25 >= media.end - 0.04, "\(name): \(luma.count) frames for \(media.end) s of sound")
        #expect(Double(sound.count) / 44_100 >= media.end - 0.04, "\(name): \(Double(sound.count) / 44_100) s of sound, expected \(media.end) s")
    }
}
