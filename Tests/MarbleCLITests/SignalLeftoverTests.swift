import Foundation
import Testing
import TestSupport

/// Every ending but SIGKILL leaves no `.NAME.partial-TAG` behind, and a later run into the folder
/// removes the ones this machine's killed runs left (a SIGKILL's leftovers), and no other.
@Suite("marble render: no leftovers after signals", .ownThread, .serialized)
struct SignalLeftoverTests {
    let folder: URL
    let long: String

    init() throws {
        folder = try CLI.subfolder("signals")
        long = folder.appendingPathComponent("long.wav").path
        if !FileManager.default.fileExists(atPath: long) {
            try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=330:d=120:r=8000", long])
        }
    }

    func partials() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".partial-") }
    }

    /// Starts a long render and returns once frames are in its temporary file.
    func startRender(_ name: String) throws -> Process {
        let out = folder.appendingPathComponent(name).path
        // Lossless: its frames fill the muxer's first 32 KB write within a few dozen frames.
        let (p, _, _) = try CLI.start(["render", long, "-o", out, "--size", "64x36", "--fps", "30", "--encoder-preset", "ultrafast", "--crf", "0", "-q"])
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

    /// The fields of a temporary name's tag (`HOST-BOOT-PIDNS-PID-START-RANDOM`), read from the right.
    func tagFields(_ partial: String) -> (head: String, boot: String, namespace: String, pid: String, start: String, random: String)? {
        guard let marker = partial.range(of: ".partial-", options: .backwards) else { return nil }
        var parts = partial[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 6 else { return nil }
        let random = parts.removeLast(), start = parts.removeLast(), pid = parts.removeLast()
        let namespace = parts.removeLast(), boot = parts.removeLast()
        return (String(partial[..<marker.upperBound]) + parts.joined(separator: "-"), boot, namespace, pid, start, random)
    }

    @Test("a later run into the folder removes what killed runs of this machine left, of any output, and never a live run's or another machine's")
    func staleCleanup() throws {
        // A live render, and one killed (SIGKILL cannot be caught: its temporary file stays).
        let live = try startRender("live.mp4")
        defer { if live.isRunning { live.interrupt(); live.waitUntilExit() } }
        let killed = try startRender("killed.mp4")
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        let livePartial = try #require(try partials().first { $0.hasPrefix(".live.mp4.partial-") })
        let killedPartial = try #require(try partials().first { $0.hasPrefix(".killed.mp4.partial-") })
        let f = try #require(tagFields(killedPartial))
        // The killed run's file as another machine would have left it (another boot id), or another
        // container (another PID namespace): their PIDs mean nothing here. And one whose PID is now a
        // process started at another time (this test's own: it started before the killed run).
        let otherBoot = ".x" + f.head.dropFirst() + "-ffffffffffff-\(f.namespace)-\(f.pid)-\(f.start)-\(f.random)"
        let otherNamespace = ".y" + f.head.dropFirst() + "-\(f.boot)-1-\(f.pid)-\(f.start)-\(f.random)"
        let reused = ".z" + f.head.dropFirst() + "-\(f.boot)-\(f.namespace)-\(getpid())-\(f.start)-\(f.random)"
        var dead: pid_t = 999_999
        while kill(dead, 0) == 0 || errno != ESRCH { dead -= 1 }
        let legacy = ".stale.mp4.partial-\(dead)"   // the old form, PID alone: whose, no one can tell
        for name in [otherBoot, otherNamespace, reused, legacy] {
            try Data(repeating: 7, count: 1000).write(to: folder.appendingPathComponent(name))
        }
        defer { for name in [otherBoot, otherNamespace, legacy] { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) } }

        let song = folder.appendingPathComponent("short.wav").path
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=330:d=1:r=8000", song])
        let r = try CLI.run(["render", song, "-o", folder.appendingPathComponent("clean.mp4").path, "--size", "64x36", "--encoder-preset", "ultrafast", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Set(partials()) == [livePartial, otherBoot, otherNamespace, legacy])
        #expect(live.isRunning)
        live.interrupt()
        live.waitUntilExit()
        #expect(live.terminationStatus == 130)
        #expect(try Set(partials()) == [otherBoot, otherNamespace, legacy])
    }
}
