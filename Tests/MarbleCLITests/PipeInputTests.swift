import Foundation
import Testing
import TestSupport

/// Inputs that can be read only once: a FIFO, and standard input as `-` (as ffmpeg takes it). They are
/// read once, into a temporary copy that every reader then opens; a second open used to wait forever
/// for a writer (and the first Ctrl-C was lost in that wait).
@Suite("marble: FIFO and standard-input inputs", .ownThread, .serialized)
struct PipeInputTests {
    static let song: String = {
        let path = CLI.path("pipe-song.ogg")
        try? CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=330:d=2,volume=0.5", "-c:a", "libvorbis", path])
        return path
    }()
    static let options = ["--size", "64x36", "--fps", "10", "--quiet"]

    static func fifo(_ name: String) throws -> String {
        let path = CLI.path(name)
        unlink(path)
        guard mkfifo(path, 0o600) == 0 else { throw CLIError("mkfifo \(path) failed") }
        return path
    }

    /// Copies leftovers of this process's children: none may stay after a run.
    static func leftovers() -> [String] {
        let tmp = FileManager.default.temporaryDirectory.path
        return ((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? []).filter { $0.hasPrefix("marble-input-") }
    }

    static func digest(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test("a FIFO and standard input render the same bytes as the file itself, and leave no copy behind")
    func sameBytes() throws {
        let direct = CLI.path("pipe-direct.mp4"), viaFIFO = CLI.path("pipe-fifo.mp4"), viaStdin = CLI.path("pipe-stdin.mp4")
        let before = Self.leftovers()
        #expect(try CLI.run(["render", Self.song, "-o", direct] + Self.options).status == 0)

        let fifo = try Self.fifo("pipe.fifo")
        let (render, _, err) = try CLI.start(["render", fifo, "-o", viaFIFO] + Self.options)
        try Data(contentsOf: URL(fileURLWithPath: Self.song)).write(to: URL(fileURLWithPath: fifo))   // blocks until read
        render.waitUntilExit()
        #expect(render.terminationStatus == 0, "\(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")

        let p = Process()
        p.executableURL = CLI.executable
        p.arguments = ["render", "-", "-o", viaStdin] + Self.options
        p.standardInput = FileHandle(forReadingAtPath: Self.song)
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)

        let reference = try Self.digest(direct)
        #expect(try Self.digest(viaFIFO) == reference)
        #expect(try Self.digest(viaStdin) == reference)
        #expect(Self.leftovers() == before)
    }

    @Test("analyze reads a FIFO (it opens the input twice for --frames)")
    func analyzeFIFO() throws {
        let fifo = try Self.fifo("analyze.fifo")
        let (analyze, out, err) = try CLI.start(["analyze", fifo, "--frames", "--fps", "5", "--json"])
        try Data(contentsOf: URL(fileURLWithPath: Self.song)).write(to: URL(fileURLWithPath: fifo))
        let json = out.fileHandleForReading.readDataToEndOfFile()
        analyze.waitUntilExit()
        #expect(analyze.terminationStatus == 0, "\(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
        let object = try JSONSerialization.jsonObject(with: json) as? [String: Any]
        #expect((object?["frames"] as? [Any])?.count == 10)
    }

    @Test("Ctrl-C while a FIFO has no writer yet ends at once (exit 130), with nothing written")
    func interruptWhileWaiting() throws {
        let fifo = try Self.fifo("idle.fifo")
        let out = CLI.path("pipe-never.mp4")
        let before = Self.leftovers()
        let (render, _, _) = try CLI.start(["render", fifo, "-o", out] + Self.options)
        // Until marble handles Ctrl-C and has the FIFO open, waiting for a writer (one of its
        // descriptors names it, in /proc). Polled, the process telling nothing, with a deadline that
        // only guards against a hang.
        let waiting = pollProcess {
            guard CLI.catches(SIGINT, render.processIdentifier) else { return false }
            let fds = "/proc/\(render.processIdentifier)/fd"
            return ((try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? []).contains { fd in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(fds)/\(fd)")) == fifo
            }
        }
        #expect(waiting && render.isRunning)
        render.interrupt()
        #expect(CLI.exits(render), "Ctrl-C did not end the wait")
        #expect(render.terminationStatus == 130)
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(Self.leftovers() == before)
    }

    @Test("an empty pipe is one clear line and exit 1")
    func emptyInput() throws {
        let p = Process()
        p.executableURL = CLI.executable
        p.arguments = ["render", "-", "-o", CLI.path("pipe-empty.mp4")] + Self.options
        p.standardInput = FileHandle.nullDevice
        let err = Pipe()
        p.standardError = err
        try p.run()
        p.waitUntilExit()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(p.terminationStatus == 1, "\(message)")
        #expect(message.contains("standard input") && message.split(separator: "\n").count == 1, "\(message)")
    }
}
