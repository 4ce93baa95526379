import Foundation
import Testing
import TestSupport

/// Farm nodes share a folder, and in containers every node's process is PID 1: two renders of one
/// piece into one folder must never share a temporary name, nor delete each other's.
@Suite("marble render: two PID namespaces, one folder", .ownThread, .serialized)
struct SharedFolderTests {
    let folder: URL
    let song: String

    init() throws {
        folder = try CLI.subfolder("shared-folder")
        song = folder.appendingPathComponent("song-20s.wav").path
        if !FileManager.default.fileExists(atPath: song) {
            try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=330:d=20:r=8000", song])
        }
    }

    func partials() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".piece.mp4.partial-") }
    }

    /// The marble process inside `unshare` (its only child), by its PID outside the namespace.
    func child(of process: Process) -> pid_t? {
        let pid = process.processIdentifier
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.flatMap { pid_t($0) }
    }

    @Test("unshare --pid --fork, twice: both PID 1, two temporary names, both exit 0, the piece plays whole")
    func twoNamespaces() throws {
        let out = folder.appendingPathComponent("piece.mp4").path
        try? FileManager.default.removeItem(atPath: out)
        let render = [CLI.executable.path, "render", song, "-o", out, "--size", "64x36", "--fps", "30", "--segment", "2/2",
                      "--encoder-preset", "ultrafast", "-q"]
        func start(_ unshare: [String]) throws -> Process {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            p.arguments = unshare + render
            p.standardError = FileHandle.nullDevice
            try p.run()
            return p
        }
        // The first keeps the host's /proc; the second mounts its own, so it can judge its machine's
        // partials, and must leave the first's alone (another PID namespace).
        let first = try start(["--pid", "--fork"])
        defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
        #expect(try pollProcess { try !partials().isEmpty || !first.isRunning })
        // Held while the second starts writing, so that both write the same piece at once.
        let held = try #require(child(of: first))
        kill(held, SIGSTOP)
        let firstName = try #require(try partials().first)
        let second = try start(["--pid", "--fork", "--mount-proc"])
        defer { if second.isRunning { kill(second.processIdentifier, SIGKILL) } }
        #expect(try pollProcess { try partials().count == 2 || !second.isRunning })
        let names = try partials()
        kill(held, SIGCONT)
        #expect(CLI.exits(first) && CLI.exits(second))
        #expect(first.terminationStatus == 0 && second.terminationStatus == 0, "\(first.terminationStatus) \(second.terminationStatus)")

        // Both were PID 1 (what the old `.NAME.partial-PID` shared), yet their names differ.
        #expect(names.count == 2 && names.contains(firstName), "\(names)")
        for name in names {
            let fields = name.split(separator: "-")
            #expect(fields.count >= 7 && fields[fields.count - 3] == "1", "\(name)")
        }
        #expect(try partials().isEmpty)
        // Whole: the piece's 300 frames, every one decoding cleanly.
        let frames = String(decoding: try TestMedia.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v",
                                                                     "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", out]), as: UTF8.self)
        #expect(frames.trimmingCharacters(in: .whitespacesAndNewlines) == "300")
        #expect(throws: Never.self) { try TestMedia.run("ffmpeg", ["-v", "error", "-xerror", "-i", out, "-f", "null", "-"]) }
    }
}
