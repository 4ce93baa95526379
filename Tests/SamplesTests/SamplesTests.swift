import Foundation
import Testing
import TestSupport

/// The sample programs under Samples/, built as package executables and run for real: what they
/// write is read back with ffprobe/ffmpeg, what they print is checked against the input.
@Suite("Samples: programs that embed MarbleKit")
struct SamplesTests {
    /// Frame `index` of a video as RGB24 at its own size.
    static func frame(_ path: String, at seconds: Double, width: Int, height: Int) throws -> [UInt8] {
        let raw = TestMedia.output("frame.rgb")
        try TestMedia.run("ffmpeg", ["-v", "error", "-ss", "\(seconds)", "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        try #require(bytes.count == width * height * 3, "\(bytes.count) bytes")
        return bytes
    }

    /// Runs the rendering sample `program` on a 2 s tone into a new MP4; returns the file, what the
    /// program printed, and its 640x360 frame at 1 s.
    static func render(with program: String) throws -> (out: String, stdout: String, rgb: [UInt8]) {
        let song = try TestMedia.tone("wav", seconds: 2)
        let out = TestMedia.output("\(program).mp4")
        let r = try BuiltProgram.run(program, [song, out])
        try #require(r.status == 0, "\(r.stderr)")
        return (out, r.stdout, try frame(out, at: 1, width: 640, height: 360))
    }

    @Test("RenderScene renders its in-code scene: 640x360 at 30 fps, the gradient's colours in the corner")
    func renderScene() throws {
        let (out, stdout, rgb) = try Self.render(with: "RenderScene")
        #expect(stdout.contains("wrote \(out): 60 frames"), "\(stdout)")
        let probe = try Probe(out)
        #expect(probe.video?.codec == "h264" && probe.video?.rate == "30/1" && probe.video?.frames == 60)
        // The scene's gradient runs from #10002b (top) to #3c096c (bottom): the top-left corner is
        // that deep purple, not the default preset's background.
        let (r0, g0, b0) = (Int(rgb[0]), Int(rgb[1]), Int(rgb[2]))
        #expect(abs(r0 - 0x10) <= 12 && g0 <= 12 && abs(b0 - 0x2b) <= 12, "top-left \(r0),\(g0),\(b0)")
    }

    @Test("CustomShader registers its own shader and renders it: cyan rings over the frame")
    func customShader() throws {
        let (_, stdout, rgb) = try Self.render(with: "CustomShader")
        #expect(stdout.contains("60 frames with the rings shader"), "\(stdout)")
        // Rings in #7df9ff: many pixels are bright cyan (blue and green high, red lower), many are dark.
        var cyan = 0, dark = 0
        for i in stride(from: 0, to: rgb.count, by: 3) {
            let (r, g, b) = (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
            if b > 120 && g > 110 && r < b - 40 { cyan += 1 }
            if r + g + b < 60 { dark += 1 }
        }
        let pixels = 640 * 360
        #expect(cyan > pixels / 20 && dark > pixels / 5, "cyan \(cyan), dark \(dark) of \(pixels)")
        // A file that is not media: one line, exit 1.
        let bad = try BuiltProgram.run("CustomShader", ["/no/such/song.mp3", TestMedia.output("x.mp4")])
        #expect(bad.status == 1 && bad.stderr.hasPrefix("custom-shader: ") && bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
    }

    @Test("LiveBeats follows a 120 BPM click track causally: a beat per click once locked, at 120 BPM")
    func liveBeats() throws {
        let clicks = try TestMedia.make("clicks-120-12s.wav", [
            "-f", "lavfi", "-i", "aevalsrc=0.8*lt(mod(t\\,0.5)\\,0.01)*sin(2*PI*2000*t):s=48000:c=stereo:d=12"])
        let r = try BuiltProgram.run("LiveBeats", [clicks])
        #expect(r.status == 0, "\(r.stderr)")
        // Lines: "  6.50 s  beat  120.0 BPM  level 0.42".
        let beats = r.stdout.split(separator: "\n").compactMap { line -> (time: Double, tempo: Double)? in
            let words = line.split(separator: " ")
            guard words.count >= 5, let t = Double(words[0]), let bpm = words.firstIndex(of: "BPM").flatMap({ Double(words[$0 - 1]) }) else { return nil }
            return (t, bpm)
        }
        let late = beats.filter { $0.time > 6 }
        #expect(late.count >= 10 && late.count <= 13, "\(late.count) beats after 6 s: \(r.stdout)")
        #expect(late.allSatisfy { abs($0.tempo - 120) < 2 }, "\(late.map(\.tempo))")
        // Each beat within 70 ms of a click (clicks every 0.5 s).
        #expect(late.allSatisfy { b in abs(b.time - (b.time * 2).rounded() / 2) < 0.07 }, "\(late.map(\.time))")
    }
}
