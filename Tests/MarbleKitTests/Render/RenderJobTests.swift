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

/// End-to-end renders at small sizes (tests run in debug builds), read back with ffprobe.
@Suite("RenderJob", .serialized)
struct RenderJobTests {
    func options(_ input: String, _ output: String, fps: Rational = Rational(30)) -> RenderOptions {
        var o = RenderOptions(input: input, output: output)
        o.width = 64
        o.height = 36
        o.fps = fps
        o.encoderPreset = .ultrafast
        return o
    }

    @discardableResult
    func render(_ o: RenderOptions) throws -> RenderSummary {
        try RenderJob(options: o).run()
    }

    @Test("audio inputs render to MP4 with ceil(duration·fps) frames and AAC sound", arguments: [
        ("wav", [String]()), ("flac", []), ("mp3", ["-c:a", "libmp3lame"]), ("ogg", ["-c:a", "libvorbis"]),
        ("opus", ["-c:a", "libopus"]), ("m4a", ["-c:a", "aac"]),
    ])
    func audioFormats(ext: String, codec: [String]) throws {
        let input = try TestMedia.tone(ext, seconds: 1.2, rate: ext == "opus" ? 48_000 : 44_100, codec: codec)
        let out = TestMedia.output("\(ext).mp4")
        let summary = try render(options(input, out))
        let probe = try Probe(out)
        let expected = Int((1.2 * 30).rounded(.up))
        #expect(probe.warnings.isEmpty, "ffprobe: \(probe.warnings)")
        #expect(probe.video?.codec == "h264")
        #expect(probe.audio?.codec == "aac")
        // MP3 keeps up to one extra frame of decoder delay: allow one video frame more.
        let frames = try #require(probe.video?.frames)
        #expect(frames == summary.frames)
        #expect(ext == "mp3" ? (expected...expected + 2).contains(frames) : frames == expected, "\(ext): \(frames) frames")
        #expect(probe.video?.rate == "30/1")
        let v = try #require(probe.video?.duration), a = try #require(probe.audio?.duration)
        #expect(abs(v - a) <= 1.0 / 30 + 0.03, "video \(v) s vs audio \(a) s")
    }

    @Test("frame rates are exact", arguments: ["24", "25", "30", "50", "60", "30000/1001"])
    func frameRates(rate: String) throws {
        let fps = try #require(Rational(parsing: rate))
        let input = try TestMedia.tone("wav", seconds: 1.0)
        let out = TestMedia.output("fps.mkv")
        try render(options(input, out, fps: fps))
        let probe = try Probe(out)
        #expect(probe.video?.rate == (fps.denominator == 1 ? "\(fps.numerator)/1" : "\(fps.numerator)/\(fps.denominator)"))
        #expect(probe.video?.frames == fps.frameCount(covering: 1.0))
        #expect(probe.warnings.isEmpty, "ffprobe: \(probe.warnings)")
    }

    @Test("MKV copies the source audio, WebM carries VP9 and Opus")
    func containers() throws {
        let input = try TestMedia.tone("flac", seconds: 1.0)
        let mkv = TestMedia.output("copy.mkv")
        try render(options(input, mkv))
        #expect(try Probe(mkv).audio?.codec == "flac")
        let webm = TestMedia.output("out.webm")
        try render(options(input, webm))
        let p = try Probe(webm)
        #expect(p.video?.codec == "vp9")
        #expect(p.audio?.codec == "opus")
        #expect(p.video?.frames == 30)
        let m4a = try TestMedia.tone("m4a", seconds: 1.0, codec: ["-c:a", "aac"])
        let mp4 = TestMedia.output("copy.mp4")
        let job = try RenderJob(options: options(m4a, mp4))
        _ = try job.run()
        #expect(try Probe(mp4).audio?.codec == "aac")
    }

    @Test("--audio-bitrate sets the sound's rate, and re-encodes sound that would otherwise be copied")
    func audioBitrate() throws {
        let m4a = try TestMedia.tone("m4a", seconds: 2.0, codec: ["-c:a", "aac", "-b:a", "192k"])
        let copied = TestMedia.output("copied.mp4")
        try render(options(m4a, copied))
        let source = try #require(try Probe(copied, countFrames: false).audio?.bitRate)
        for kbps in [64, 256] {
            var o = options(m4a, TestMedia.output("rate\(kbps).mp4"))
            o.audioBitrate = kbps
            try render(o)
            let rate = try #require(try Probe(o.output, countFrames: false).audio?.bitRate)
            #expect(abs(Double(rate) / 1000 - Double(kbps)) <= Double(kbps) * 0.3, "\(rate) bit/s for \(kbps) kbit/s")
            #expect(rate != source, "the 192k source was re-encoded")
        }
        // WebM (Opus) has no per-stream bitrate to read: the same video with 32 and 256 kbit/s sound
        // differs in size by about the difference in sound.
        var sizes: [Int] = []
        for kbps in [32, 256] {
            var o = options(m4a, TestMedia.output("rate\(kbps).webm"))
            o.audioBitrate = kbps
            sizes.append(try render(o).bytes)
        }
        let extra = Double(sizes[1] - sizes[0]) * 8 / 2.0 / 1000   // kbit/s over the 2 s
        #expect(extra > 224 * 0.6 && extra < 224 * 1.3, "\(sizes): \(extra) kbit/s more")
        var bad = options(m4a, TestMedia.output("bad.mp4"))
        bad.audioBitrate = 5
        #expect(throws: MarbleError.self) { try RenderJob(options: bad) }
    }

    @Test("the same command twice gives the same bytes")
    func determinism() throws {
        let input = try TestMedia.tone("mp3", seconds: 1.0, codec: ["-c:a", "libmp3lame"])
        let a = TestMedia.output("a.mp4"), b = TestMedia.output("b.mp4")
        try render(options(input, a))
        try render(options(input, b))
        let da = try Data(contentsOf: URL(fileURLWithPath: a)), db = try Data(contentsOf: URL(fileURLWithPath: b))
        #expect(da.count > 1000)
        #expect(da == db)
    }

    @Test("videos with sound keep their pictures; backgrounds can be stills or looping videos")
    func pictures() throws {
        let clip = try TestMedia.video("mp4", seconds: 1.0, codec: ["-c:v", "libx264", "-c:a", "aac"])
        var o = options(clip, TestMedia.output("clip.mp4"))
        o.effects = ["ink"]
        let s = try render(o)
        #expect(s.frames == 30)

        let still = try TestMedia.make("cover.png", ["-f", "lavfi", "-i", "testsrc2=s=80x80:d=0.1", "-frames:v", "1"])
        var b = options(try TestMedia.tone("wav", seconds: 1.0), TestMedia.output("still.mp4"))
        b.background = still
        b.fit = .contain
        #expect(try render(b).frames == 30)

        // A 0.4 s background video under a 1.5 s song loops.
        let short = try TestMedia.make("short.webm", ["-f", "lavfi", "-i", "testsrc2=s=64x36:r=10:d=0.4", "-c:v", "libvpx-vp9"])
        var l = options(try TestMedia.tone("wav", seconds: 1.5), TestMedia.output("loop.mp4"))
        l.background = short
        #expect(try render(l).frames == 45)
    }

    @Test("one PNG frame at a time in the song")
    func png() throws {
        let input = try TestMedia.tone("wav", seconds: 1.5)
        var o = options(input, TestMedia.output("look.png"))
        o.at = 0.75
        try render(o)
        let p = try Probe(o.output, countFrames: false)
        #expect(p.video?.codec == "png")
        o.at = 5
        o.output = TestMedia.output("late.png")
        #expect(throws: MarbleError.self) { try render(o) }
        #expect(!FileManager.default.fileExists(atPath: o.output))
        // Without --at: the first frame, one frame only.
        o.at = nil
        o.output = TestMedia.output("first.png")
        #expect(try render(o).frames == 1)
        #expect(try Probe(o.output, countFrames: false).video?.codec == "png")
        // Stopped before its frame: a clean "cancelled" error and no file.
        o.output = TestMedia.output("never.png")
        let stopped = CancellationFlag()
        stopped.cancel()
        do {
            _ = try RenderJob(options: o).run(cancel: stopped)
            Issue.record("a cancelled PNG render must throw")
        } catch {
            #expect(error.kind == .cancelled, "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: o.output))
    }

    @Test("bad inputs and options fail before anything is written")
    func errors() throws {
        let input = try TestMedia.tone("wav", seconds: 0.5)
        var o = options("/no/such/file.mp3", TestMedia.output("x.mp4"))
        #expect(throws: MarbleError.self) { try RenderJob(options: o) }
        o = options(input, "/no/such/folder/out.mp4")
        #expect(throws: MarbleError.self) { try render(o) }
        o = options(input, TestMedia.output("x.avi"))
        #expect(throws: MarbleError.self) { try RenderJob(options: o) }
        o = options(input, TestMedia.output("x.mp4"))
        o.width = 63
        #expect(throws: MarbleError.self) { try RenderJob(options: o) }
        o = options(input, TestMedia.output("x.mp4"))
        o.preset = "nope"
        #expect(throws: MarbleError.self) { try RenderJob(options: o) }
        o = options(input, TestMedia.output("x.mp4"))
        o.effects = ["nope"]
        #expect(throws: MarbleError.self) { try RenderJob(options: o) }
        // Neither the outputs (each named "<random>-x.…") nor their partial files exist (other tests'
        // renders, in flight in the same folder, have other names).
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: TestMedia.folder.path)
            .filter { $0.hasSuffix("-x.mp4") || $0.hasSuffix("-x.avi") || $0.contains("-x.mp4.partial") || $0.contains("-x.avi.partial") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("cancelling keeps a valid file of what was rendered")
    func cancel() throws {
        let input = try TestMedia.tone("wav", seconds: 4)
        let o = options(input, TestMedia.output("stopped.mp4"))
        let flag = CancellationFlag()
        let summary = try RenderJob(options: o).run(cancel: flag, progressInterval: 0) { p in
            if p.frames > 5 { flag.cancel() }
        }
        #expect(summary.cancelled)
        #expect(summary.frames < 120)
        let probe = try Probe(o.output)
        #expect(probe.warnings.isEmpty, "\(probe.warnings)")
        #expect(probe.video?.frames == summary.frames)
        let a = try #require(probe.audio?.duration)
        #expect(a <= Double(summary.frames) / 30 + 0.05)
    }
}

@Suite("Backgrounds show through")
struct BackgroundPictureTests {
    /// Mean RGB of the top-left quarter of a PNG frame (the bars preset draws at the bottom).
    func topLeft(_ png: String) throws -> (Double, Double, Double) {
        let raw = [UInt8](try TestMedia.run("ffmpeg", ["-v", "error", "-i", png, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
        var sum = (0.0, 0.0, 0.0), n = 0.0
        for y in 0..<9 { for x in 0..<16 {
            let i = (y * 64 + x) * 3
            sum.0 += Double(raw[i]); sum.1 += Double(raw[i + 1]); sum.2 += Double(raw[i + 2]); n += 1
        } }
        return (sum.0 / n, sum.1 / n, sum.2 / n)
    }

    @Test("a --background picture replaces the preset's background, for every bundled preset's kind of first layer",
          arguments: ["bars", "spectrum", "synthwave"])
    func backgroundReplacesPreset(preset: String) throws {
        let red = try TestMedia.make("red.png", ["-f", "lavfi", "-i", "color=c=red:s=80x45:d=0.1", "-frames:v", "1"])
        var o = RenderOptions(input: try TestMedia.tone("wav", seconds: 0.5), output: TestMedia.output("bg.png"))
        o.width = 64
        o.height = 36
        o.preset = preset
        o.background = red
        o.at = 0.2
        _ = try RenderJob(options: o).run()
        let (r, g, b) = try topLeft(o.output)
        #expect(r > 180 && g < 80 && b < 80, "\(preset): top-left is \(r), \(g), \(b), not the red background")
    }
}
