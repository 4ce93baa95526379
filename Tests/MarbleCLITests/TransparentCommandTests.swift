import Foundation
import TestSupport
import Testing

/// `marble render --transparent` and `--codec` from the command line: what is refused (one line, exit
/// 2 for options, 1 for a missing folder) and a PNG sequence written, with the note that it has no sound.
@Suite("marble render --transparent (command line)", .ownThread, .serialized)
struct TransparentCommandTests {
    @Test("outputs without alpha, codecs their container cannot hold and unknown codecs are one-line errors, exit 2",
          arguments: [
              (["-o", "x.mp4", "--transparent"], "--transparent"),
              (["-o", "x.mkv", "--transparent"], "--transparent"),
              (["-o", "x.mov", "--transparent", "--codec", "h264"], "--transparent"),
              (["-o", "x.webm", "--codec", "prores"], "--codec prores"),
              (["-o", "x.mov", "--codec", "bogus"], "--codec bogus"),
              (["-o", "x%d%d.png"], "%d"),
          ])
    func refused(arguments: [String], mentions: String) throws {
        let r = try CLI.run(["render", "song.wav"] + arguments)
        #expect(r.status == 2, "\(arguments): \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(mentions), "\(r.stderr)")
    }

    @Test("a PNG sequence: one file per frame, straight RGBA, and a note that it holds no sound; a missing folder is refused")
    func sequence() throws {
        let folder = try CLI.subfolder("png-sequence")
        let song = folder.appendingPathComponent("song.wav").path
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=220:d=0.2", song])
        let pattern = folder.appendingPathComponent("%03d.png").path
        let r = try CLI.run(["render", song, "-o", pattern, "--size", "64x36", "--fps", "30", "--preset", "bars", "--transparent"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("no sound"), "\(r.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }.sorted()
        #expect(files == (0..<6).map { String(format: "%03d.png", $0) })
        let probe = try TestMedia.run("ffprobe", ["-v", "error", "-show_entries", "stream=pix_fmt", "-of", "csv=p=0",
                                                  folder.appendingPathComponent("000.png").path])
        #expect(String(decoding: probe, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "rgba")
        let missing = try CLI.run(["render", song, "-o", folder.appendingPathComponent("nowhere/%03d.png").path])
        #expect(missing.status == 1 && missing.stderr.contains("does not exist") && missing.stderr.split(separator: "\n").count == 1,
                "\(missing.stderr)")
    }
}
