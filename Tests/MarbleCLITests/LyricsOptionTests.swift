import Foundation
import TestSupport
import Testing

/// `marble render --lyrics` and `--captions`: a `lyrics` layer on top, timed to the song; the input's
/// own lyrics tag for a scene with a `lyrics` layer; bad files refused before anything is written.
@Suite("marble render --lyrics, --captions", .ownThread, .serialized)
struct LyricsOptionTests {
    static let size = "320x180"

    /// A 3-second tone, with `tags` as ffmpeg `-metadata` values.
    private func song(_ folder: URL, tags: [String] = []) throws -> String {
        let path = folder.appendingPathComponent("song.ogg").path
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=220:d=3:r=22050", "-c:a", "libvorbis"] + tags.flatMap { ["-metadata", $0] } + [path])
        return path
    }

    /// The frame at `at` as RGB bytes, rendered with `extra` options.
    private func frame(_ song: String, _ folder: URL, _ name: String, at: String, _ extra: [String] = []) throws -> [UInt8] {
        let png = folder.appendingPathComponent("\(name).png").path
        let r = try CLI.run(["render", song, "-o", png, "--at", at, "--size", Self.size, "--fps", "30", "-q"] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        return try PreviewFrameTests.rgb(png, into: folder.appendingPathComponent("\(name).rgb").path)
    }

    @Test("--captions: a cue from 1 s to 2 s shows on frames 30 to 59 only (frame-exact at 30 fps)")
    func captionsTiming() throws {
        let folder = try CLI.subfolder("lyrics-captions")
        let song = try song(folder)
        let srt = folder.appendingPathComponent("cues.srt").path
        try "1\r\n00:00:01,000 --> 00:00:02,000\r\n<b>Hello</b> there\r\n".write(toFile: srt, atomically: true, encoding: .utf8)
        for (at, shows) in [("966ms", false), ("1s", true), ("1966ms", true), ("2s", false)] {
            let plain = try frame(song, folder, "plain", at: at)
            let captioned = try frame(song, folder, "captioned", at: at, ["--captions", srt])
            #expect((plain != captioned) == shows, "at \(at)")
        }
    }

    @Test("--lyrics with an .lrc draws in the lower part of the frame; the file's own lyrics tag needs a lyrics layer")
    func lyricsAndTag() throws {
        let folder = try CLI.subfolder("lyrics-lrc")
        let song = try song(folder, tags: ["lyrics=[00:00.50]From the tag"])
        let lrc = folder.appendingPathComponent("song.lrc").path
        try "\u{FEFF}[ti:Test]\n[00:00.50]<00:00.50>Sing <00:01.00>along\n[00:02.00]Next\n".write(toFile: lrc, atomically: true, encoding: .utf8)
        let plain = try frame(song, folder, "plain", at: "1s")
        let lyrics = try frame(song, folder, "lyrics", at: "1s", ["--lyrics", lrc])
        var upper = 0, lower = 0
        for i in 0..<(plain.count / 3) where (0..<3).contains(where: { abs(Int(plain[i * 3 + $0]) - Int(lyrics[i * 3 + $0])) > 48 }) {
            if i / 320 >= 90 { lower += 1 } else { upper += 1 }
        }
        #expect(lower > 150 && upper == 0, "\(lower) pixels changed below the middle, \(upper) above")
        // No option: the tag is drawn only by a lyrics layer the scene asks for.
        #expect(try frame(song, folder, "untouched", at: "1s") == plain)
        let tagged = try frame(song, folder, "tagged", at: "1s", ["--effect", "lyrics"])
        #expect(tagged != plain && tagged != lyrics)
    }

    @Test("a subtitle stream in the input is drawn by a lyrics layer when no file is given")
    func subtitleStream() throws {
        let folder = try CLI.subfolder("lyrics-stream")
        let srt = folder.appendingPathComponent("cues.srt").path
        try "1\n00:00:00,500 --> 00:00:02,000\nFrom the stream\n".write(toFile: srt, atomically: true, encoding: .utf8)
        let video = folder.appendingPathComponent("subtitled.mkv").path
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=220:d=3:r=22050", "-i", srt, "-map", "0", "-map", "1", "-c:s", "srt", video])
        let plain = try frame(video, folder, "plain", at: "1s")
        let drawn = try frame(video, folder, "drawn", at: "1s", ["--effect", "lyrics"])
        #expect(drawn != plain)
        #expect(try frame(video, folder, "after", at: "2500ms", ["--effect", "lyrics"]) == (try frame(video, folder, "plain-after", at: "2500ms")))
    }

    @Test("a bad lyrics file is one line naming its line, exit 2, and no output", arguments: [
        ("bad.lrc", "[00:01.00]fine\n[00:xx.00]broken\n", "bad.lrc, line 2: [00:xx.00] is not a time like [01:23.45]"),
        ("bad.srt", "1\n00:00:01,000 --> 00:00:00,500\nx\n", "bad.srt, line 2: the cue ends (00:00:00,500) before it starts (00:00:01,000)"),
        ("bad.vtt", "WEBVT\n", "bad.vtt, line 1: a WebVTT file starts with the line WEBVTT"),
        ("words.txt", "hello\n", "--lyrics"),
    ])
    func badFile(name: String, contents: String, words: String) throws {
        let folder = try CLI.subfolder("lyrics-bad")
        let song = try song(folder)
        let file = folder.appendingPathComponent(name).path
        try contents.write(toFile: file, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("out-\(name).mp4").path
        let r = try CLI.run(["render", song, "-o", output, "--lyrics", file])
        #expect(r.status == 2)
        #expect(r.stderr.contains(words), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.hasPrefix("out-") })
    }
}
