import Foundation
import TestSupport
import Testing

/// An `--at` PNG is a preview of the video: it must be the frame the video has at that time, not a
/// frame drawn from a fresh start (smoothed bindings at their base value, another stretch of waveform).
@Suite("marble render --at: the preview is the video's frame", .ownThread, .serialized)
struct PreviewFrameTests {
    static let width = 64, height = 36

    /// Decodes `file` (a picture, or frame `frame` of a video) to RGB bytes.
    static func rgb(_ file: String, frame: Int? = nil, into raw: String) throws -> [UInt8] {
        var arguments = ["-i", file]
        if let frame { arguments += ["-vf", "select=eq(n\\,\(frame))", "-frames:v", "1"] }
        try CLI.ffmpeg(arguments + ["-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    }

    static func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return .infinity }
        return Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
    }

    @Test("the PNG at 2 s is frame 60 of the 30 fps video, closer to it than to its neighbours",
          arguments: ["oscilloscope", "magma", "spectrum", "vectorscope", "piano"])
    func previewIsTheVideoFrame(preset: String) throws {
        let folder = try CLI.subfolder("preview-\(preset)")
        let song = folder.appendingPathComponent("song.wav").path
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=180:d=3:r=22050,volume=eval=frame:volume='0.3+0.7*abs(sin(3*t))'", song])
        let video = folder.appendingPathComponent("video.mkv").path, png = folder.appendingPathComponent("at.png").path
        let size = "\(Self.width)x\(Self.height)"
        let v = try CLI.run(["render", song, "-o", video, "--size", size, "--fps", "30", "--preset", preset, "--crf", "0", "-q"])
        #expect(v.status == 0, "\(v.stderr)")
        let p = try CLI.run(["render", song, "-o", png, "--at", "2s", "--size", size, "--fps", "30", "--preset", preset, "-q"])
        #expect(p.status == 0, "\(p.stderr)")
        let preview = try Self.rgb(png, into: folder.appendingPathComponent("at.rgb").path)
        let frames = try (59...61).map { (n: Int) in
            try Self.rgb(video, frame: n, into: folder.appendingPathComponent("f\(n).rgb").path)
        }
        let (before, same, after) = (Self.meanDifference(preview, frames[0]), Self.meanDifference(preview, frames[1]),
                                     Self.meanDifference(preview, frames[2]))
        // The video went through 4:2:0 YUV (chroma at half resolution, at 64x36 a few levels on
        // saturated detail such as magma's): the frame is told by being the nearest, not by equality.
        #expect(same < 5, "\(preset): the preview differs from frame 60 by \(same) levels on average")
        #expect(same < before && same < after, "\(preset): frame 60 \(same), 59 \(before), 61 \(after)")
    }
}
