import Foundation
import Testing
import TestSupport

/// The data-loss class: an output that is an input, and outputs that are not regular files. Each case
/// checks the exit code, the one-line message, and that what was there is untouched.
@Suite("marble: outputs never destroy inputs or special files", .ownThread, .serialized)
struct OutputSafetyTests {
    let folder: URL

    init() throws {
        folder = try CLI.subfolder("output-safety")
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test("render: -o naming the input (directly, ./, dir/.., a symbolic link, a hard link) is exit 2 and leaves the input intact")
    func outputIsInput() throws {
        let input = path("clip.mp4")
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=330:d=1:r=22050", "-f", "lavfi", "-i", "color=c=red:s=64x36:d=1",
                        "-shortest", "-c:v", "libx264", "-c:a", "aac", input])
        let before = try bytes(input)
        try FileManager.default.createDirectory(atPath: path("sub"), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: path("link.mp4"))
        try? FileManager.default.removeItem(atPath: path("hard.mp4"))
        try FileManager.default.createSymbolicLink(atPath: path("link.mp4"), withDestinationPath: input)
        #expect(link(input, path("hard.mp4")) == 0)
        let relative = "./" + URL(fileURLWithPath: input).lastPathComponent
        for output in [input, path("sub") + "/../clip.mp4", path("link.mp4"), path("hard.mp4")] {
            let r = try CLI.run(["render", input, "-o", output, "--size", "64x36", "-q"])
            #expect(r.status == 2, "\(output): \(r.stderr)")
            #expect(r.stderr.contains("is the input"), "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        }
        // ./clip.mp4 from the folder itself.
        let p = Process()
        p.executableURL = CLI.executable
        p.arguments = ["render", "clip.mp4", "-o", relative, "--size", "64x36", "-q"]
        p.currentDirectoryURL = folder
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 2)
        #expect(try bytes(input) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.contains(".partial-") })
    }

    @Test("play: -o naming a song it plays (directly, ./, a symbolic or hard link, an M3U entry) is exit 2 and leaves the song intact")
    func playOutputIsSong() throws {
        let song = path("played.mp4"), other = path("other-song.wav")
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=330:d=1:r=22050", "-c:a", "aac", song])
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=440:d=1:r=22050", other])
        for name in ["played-link.mp4", "played-hard.mp4"] { try? FileManager.default.removeItem(atPath: path(name)) }
        try FileManager.default.createSymbolicLink(atPath: path("played-link.mp4"), withDestinationPath: song)
        #expect(link(song, path("played-hard.mp4")) == 0)
        try "#EXTM3U\nother-song.wav\nplayed.mp4\n".write(toFile: path("list.m3u"), atomically: true, encoding: .utf8)
        let before = try bytes(song)
        let cases: [[String]] = [
            ["played.mp4", "-o", "played.mp4"],
            ["played.mp4", "-o", "./played.mp4"],
            [song, "-o", "played-link.mp4"],
            ["other-song.wav", "played.mp4", "-o", "played-hard.mp4"],
            ["list.m3u", "-o", song],
            ["list.m3u", "-o", "other.mp4", "-o", "sub/../played.mp4"],
        ]
        try FileManager.default.createDirectory(atPath: path("sub"), withIntermediateDirectories: true)
        for arguments in cases {
            let r = try CLI.run(in: folder, ["play"] + arguments + ["--size", "64x36"])
            let message = r.stderr
            #expect(r.status == 2, "\(arguments): \(message)")
            #expect(message.contains("is a song it plays"), "\(arguments): \(message)")
            #expect(message.split(separator: "\n").count == 1, "\(message)")
        }
        #expect(try bytes(song) == before)
        #expect(!FileManager.default.fileExists(atPath: path("other.mp4")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.contains(".partial-") })
    }

    @Test("render: -o naming the --background picture is exit 2 and leaves the picture intact")
    func outputIsBackground() throws {
        let song = path("tone.wav"), picture = path("picture.png")
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=220:d=1:r=22050", song])
        try CLI.ffmpeg(["-f", "lavfi", "-i", "color=c=blue:s=64x36", "-frames:v", "1", picture])
        let before = try bytes(picture)
        let r = try CLI.run(["render", song, "--background", picture, "-o", picture, "--at", "0.5", "--size", "64x36"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("--background"), "\(r.stderr)")
        #expect(try bytes(picture) == before)
    }

    @Test("render: a FIFO or a folder as -o is refused at once (exit 1) and stays what it was")
    func specialOutputs() throws {
        let song = path("tone2.wav")
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=220:d=1:r=22050", song])
        let fifo = path("pipe.mp4"), dir = path("dir.mp4")
        try? FileManager.default.removeItem(atPath: fifo)
        #expect(mkfifo(fifo, 0o600) == 0)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for output in [fifo, dir] {
            let r = try CLI.run(["render", song, "-o", output, "--size", "64x36", "-q"])
            #expect(r.status == 1, "\(output): \(r.stderr)")
            #expect(r.stderr.contains(output), "\(r.stderr)")
        }
        var info = stat()
        #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(stat(dir, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR)
    }

    @Test("render: -o through a symbolic link replaces the link's target and keeps the link")
    func throughSymlink() throws {
        let song = path("tone3.wav"), target = path("target.mp4"), link = path("latest.mp4")
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=220:d=1:r=22050", song])
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let r = try CLI.run(["render", song, "-o", link, "--size", "64x36", "--encoder-preset", "ultrafast", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try bytes(target).count > 1000)
    }

    @Test("bench --save-json to a FIFO writes through it and leaves the FIFO; to /dev/full it fails with a clear line")
    func benchJSON() throws {
        let fifo = path("bench.json")
        try? FileManager.default.removeItem(atPath: fifo)
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = try FIFOReader(fifo)
        let arguments = ["bench", "--filter", "solid", "--size", "32x16", "--frames", "2", "--warmup", "0", "--threads", "1", "-q"]
        let r = try CLI.run(arguments + ["--save-json", fifo])
        #expect(r.status == 0, "\(r.stderr)")
        let json = reader.text()
        #expect(json.contains("\"results\""), "\(json)")
        var info = stat()
        #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        if FileManager.default.fileExists(atPath: "/dev/full") {
            let full = try CLI.run(arguments + ["--save-json", "/dev/full"])
            #expect(full.status == 1, "\(full.stderr)")
            #expect(full.stderr.contains("/dev/full"), "\(full.stderr)")
            #expect(stat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        }
    }

    /// Runs marble with stdout and stderr on the given handles; returns how it ended.
    func run(_ arguments: [String], stdout: FileHandle, stderr: FileHandle) throws -> (status: Int32, reason: Process.TerminationReason) {
        let p = Process()
        p.executableURL = CLI.executable
        p.arguments = arguments
        p.standardOutput = stdout
        p.standardError = stderr
        try p.run()
        p.waitUntilExit()
        return (p.terminationStatus, p.terminationReason)
    }

    @Test("a result that cannot be written to stdout ends with exit 1, not a crash; a render whose summary cannot be printed still succeeds")
    func failingStandardStreams() throws {
        guard let full = FileHandle(forWritingAtPath: "/dev/full") else { return }
        let effects = try run(["effects"], stdout: full, stderr: FileHandle.nullDevice)
        #expect(effects.reason == .exit && effects.status == 1, "\(effects)")
        let song = path("tone4.wav"), out = path("summary.mp4")
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=220:d=1:r=22050", song])
        let render = try run(["render", song, "-o", out, "--size", "64x36", "--encoder-preset", "ultrafast"], stdout: full, stderr: full)
        #expect(render.reason == .exit && render.status == 0, "\(render)")
        #expect(FileManager.default.fileExists(atPath: out))
    }
}
