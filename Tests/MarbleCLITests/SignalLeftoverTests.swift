import Foundation
import Testing
import TestSupport

/// Every ending but SIGKILL leaves no `.NAME.partial-PID` behind, and a later run removes the stale
/// ones of its own output (a SIGKILL's leftovers).
@Suite("marble render: no leftovers after signals", .serialized)
struct SignalLeftoverTests {
    let folder: URL
    let long: String

    init() throws {
        folder = try CLI.subfolder("signals")
        long = folder.appendingPathComponent("long.wav").path
        if !FileManager.default.fileExists(atPath: long) {
            try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=330:d=600:r=8000", long])
        }
    }

    func partials() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".partial-") }
    }

    /// Starts a long render and returns once frames are in its temporary file.
    func startRender(_ name: String) throws -> Process {
        let out = folder.appendingPathComponent(name).path
        let (p, _, _) = try CLI.start(["render", long, "-o", out, "--size", "64x36", "--fps", "30", "--encoder-preset", "ultrafast", "-q"])
        #expect(CLI.partialFile(of: name, in: folder.path))
        return p
    }

    @Test("SIGHUP, SIGUSR1 and SIGQUIT stop a render like Ctrl-C: exit 130, a finished file, no temporary file", arguments: [SIGHUP, SIGUSR1, SIGQUIT])
    func otherSignals(signal: Int32) throws {
        let name = "signal-\(signal).mp4"
        let p = try startRender(name)
        #expect(pollProcess { CLI.catches(signal, p.processIdentifier) })
        kill(p.processIdentifier, signal)
        p.waitUntilExit()
        #expect(p.terminationReason == .exit && p.terminationStatus == 130, "\(p.terminationReason) \(p.terminationStatus)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path))
        let left = try partials()
        #expect(left.isEmpty, "\(left)")
    }

    @Test("a second Ctrl-C ends at once and still deletes the temporary file")
    func secondInterrupt() throws {
        let p = try startRender("twice.mp4")
        p.interrupt()
        p.interrupt()
        p.waitUntilExit()
        #expect(p.terminationStatus == 130)
        let left = try partials()
        #expect(left.isEmpty, "\(left)")
    }

    @Test("a later run removes its own output's stale temporary files, and only those of dead processes")
    func staleCleanup() throws {
        var dead: pid_t = 999_999
        while kill(dead, 0) == 0 || errno != ESRCH { dead -= 1 }
        let stale = ".stale.mp4.partial-\(dead)", alive = ".stale.mp4.partial-\(getpid())", other = ".other.mp4.partial-\(dead)"
        for name in [stale, alive, other] {
            try Data(repeating: 7, count: 1000).write(to: folder.appendingPathComponent(name))
        }
        defer { for name in [alive, other] { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) } }
        let song = folder.appendingPathComponent("short.wav").path
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=330:d=1:r=8000", song])
        let r = try CLI.run(["render", song, "-o", folder.appendingPathComponent("stale.mp4").path, "--size", "64x36", "--encoder-preset", "ultrafast", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Set(partials()) == [alive, other])
    }
}
