import Foundation
import TestSupport
import Testing

/// `marble render --title`: a text layer in the lower third, filled from the file's tags.
@Suite("marble render --title", .ownThread, .serialized)
struct TitleOptionTests {
    static let width = 320, height = 180

    @Test("--title \"{title}\" draws the file's title in the lower third, and nothing else changes")
    func titleInLowerThird() throws {
        let folder = try CLI.subfolder("title")
        let song = folder.appendingPathComponent("tagged.ogg").path
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=220:d=3:r=22050", "-c:a", "libvorbis", "-metadata", "title=Moonlight Дорога", song])
        let size = "\(Self.width)x\(Self.height)"
        let plain = folder.appendingPathComponent("plain.png").path, titled = folder.appendingPathComponent("titled.png").path
        let a = try CLI.run(["render", song, "-o", plain, "--at", "1s", "--size", size, "--fps", "30", "-q"])
        #expect(a.status == 0, "\(a.stderr)")
        let b = try CLI.run(["render", song, "-o", titled, "--at", "1s", "--size", size, "--fps", "30", "-q", "--title", "{title}"])
        #expect(b.status == 0, "\(b.stderr)")
        let p = try PreviewFrameTests.rgb(plain, into: folder.appendingPathComponent("plain.rgb").path)
        let t = try PreviewFrameTests.rgb(titled, into: folder.appendingPathComponent("titled.rgb").path)
        #expect(p.count == t.count && p.count == Self.width * Self.height * 3)
        var lower = 0, elsewhere = 0
        for i in 0..<(Self.width * Self.height) {
            let d = (0..<3).map { abs(Int(p[i * 3 + $0]) - Int(t[i * 3 + $0])) }.max()!
            guard d > 48 else { continue }
            if i / Self.width >= Self.height * 2 / 3 { lower += 1 } else { elsewhere += 1 }
        }
        #expect(lower > 150, "\(lower) pixels changed in the lower third")
        #expect(elsewhere == 0, "\(elsewhere) pixels changed above it")
        // An empty field leaves the picture as it was.
        let empty = folder.appendingPathComponent("empty.png").path
        let c = try CLI.run(["render", song, "-o", empty, "--at", "1s", "--size", size, "--fps", "30", "-q", "--title", "{album}"])
        #expect(c.status == 0, "\(c.stderr)")
        #expect(try PreviewFrameTests.rgb(empty, into: folder.appendingPathComponent("empty.rgb").path) == p)
    }

    @Test("a bad --title is one line and exit 2", arguments: [
        (String(repeating: "x", count: 501), "at most 500"),
        ("bell \u{07}", "control characters"),
    ])
    func badTitle(title: String, words: String) throws {
        let song = CLI.path("title-song.wav")
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=220:d=1:r=22050", song])
        let r = try CLI.run(["render", song, "-o", CLI.path("title-bad.mp4"), "--title", title])
        #expect(r.status == 2)
        #expect(r.stderr.contains(words), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }

    @Test("a --title that is not valid UTF-8 is refused")
    func invalidUTF8() throws {
        let song = CLI.path("title-song8.wav")
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=220:d=1:r=22050", song])
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "exec \"$0\" render \"$1\" -o \"$2\" --title \"$(printf 'ab\\377cd')\"",
                       CLI.executable.path, song, CLI.path("title-utf8.mp4")]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 2)
        #expect(e.contains("not valid UTF-8"), "\(e)")
    }
}
