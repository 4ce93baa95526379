import Foundation
import Testing
import TestSupport

/// A live recording survives its neighbours, for real: a full disk under one `-o` (a tmpfs this test
/// mounts), the X server of `--window` killed or frozen, and every stop signal `render` handles. Each
/// run is 64x36 for 2 s at most; the tests wait for what the processes report (a partial file, the
/// exit), never for time.
@Suite("marble live: outputs fail alone, stop signals stop cleanly (PulseAudio, Xvfb, tmpfs)", .ownThread, .serialized,
       .enabled(if: PlayTools.available))
struct LiveOutputFailureTests {
    static let fps = 30

    /// A tmpfs of `size` bytes mounted on a fresh folder (needs root, as the test machines run), filled
    /// but for `free` bytes: a disk that fills up during a recording.
    final class SmallDisk {
        let path: String

        init(size: Int = 300 * 1024, free: Int = 4 * 1024) throws {
            path = PlayTools.makeDirectory("marble-full")
            let r = try PlayTools.run("mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path])
            guard r.status == 0 else { throw CLIError("cannot mount a tmpfs on \(path) (the test needs root): \(r.output)") }
            // tmpfs counts whole pages: `size` is a whole number of them, and so is what is left.
            let filler = path + "/filler"
            try Data(count: size - free).write(to: URL(fileURLWithPath: filler))
        }

        /// The folder's entries: the filler alone once every recording on it was removed.
        var contents: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

        func remove() {
            _ = try? PlayTools.run("umount", [path])
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// The partial files of `name` left in the live tests' folder.
    static func partials(of name: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: LiveCommandTests.folder.path)) ?? [])
            .filter { $0.hasPrefix(".\(name).partial") }
    }

    /// Noise played into the private server's sink for the whole test.
    static func playNoise(_ pulse: PulseServer) throws -> Process {
        let noise = try TestMedia.make("window-noise-20.wav", ["-f", "lavfi", "-i", "anoisesrc=d=20:c=pink:r=48000:a=0.5", "-ac", "2"])
        return try pulse.play(noise)
    }

    static let small = ["--size", "64x36", "--fps", "\(fps)", "--encoder-preset", "ultrafast"]

    @Test("a full disk under one recording: the other is whole (exit 0), the lost one is named and leaves nothing; alone, it fails the run")
    func fullDiskBesideGoodDisk() throws {
        let disk = try SmallDisk()
        defer { disk.remove() }
        let pulse = try PulseServer()
        defer { pulse.stop() }
        let player = try Self.playNoise(pulse)
        defer { player.terminate() }
        let lost = disk.path + "/a.mp4", good = LiveCommandTests.path("beside-full.mp4")
        let (live, log) = try LiveCommandTests.startLive(["-o", lost, "-o", good, "--duration", "2s"] + Self.small, pulse: pulse)
        #expect(CLI.exits(live))
        let text = LiveCommandTests.read(log)
        #expect(live.terminationStatus == 0, "\(text)")
        #expect(try LiveCommandTests.Facts(good).frames == 2 * Self.fps, "\(text)")
        let warning = text.split(separator: "\n").filter { $0.hasPrefix("marble: warning: \(lost): ") }
        #expect(warning.count == 1 && warning[0].contains("No space left on device"), "\(text)")
        #expect(!text.contains("recorded \(lost)") && text.contains("recorded \(good)"), "\(text)")
        #expect(disk.contents == ["filler"], "nothing left on the full disk")

        // The same recording alone: every output lost is a failed run, and still nothing is left.
        let (alone, aloneLog) = try LiveCommandTests.startLive(["-o", lost, "--duration", "2s"] + Self.small, pulse: pulse)
        #expect(CLI.exits(alone))
        let aloneText = LiveCommandTests.read(aloneLog)
        #expect(alone.terminationStatus == 1, "\(aloneText)")
        #expect(aloneText.contains("marble: error: \(lost): ") && aloneText.contains("No space left on device"), "\(aloneText)")
        #expect(disk.contents == ["filler"])
    }

    @Test("the X server killed under --window -o: the recording is whole (exit 0), the window named, no partial")
    func xServerKilled() throws {
        let pulse = try PulseServer()
        defer { pulse.stop() }
        let player = try Self.playNoise(pulse)
        defer { player.terminate() }
        let screen = try XvfbServer(width: 160, height: 90)
        defer { screen.stop() }
        let name = "x-killed.mp4", file = LiveCommandTests.path(name)
        let (live, log) = try LiveCommandTests.startLive(["--window", "-o", file, "--duration", "2s"] + Self.small,
                                                         pulse: pulse, environment: ["DISPLAY": screen.display])
        // The window opens before the recording does: once its partial file exists, both are running.
        #expect(LiveCommandTests.recordingStarted(name), "\(LiveCommandTests.read(log))")
        screen.send(SIGKILL)
        #expect(CLI.exits(live))
        let text = LiveCommandTests.read(log)
        #expect(live.terminationReason == .exit && live.terminationStatus == 0, "\(text)")
        #expect(try LiveCommandTests.Facts(file).frames == 2 * Self.fps, "\(text)")
        // The window is named either way: Xlib reports the lost connection, or (on a loaded machine, its
        // call held up past the display's 2 s limit first) the window is given up as not responding.
        #expect(text.contains("marble: warning: window: the display's connection was lost")
                || text.contains("marble: warning: window: not responding for 2 s; abandoned"), "\(text)")
        #expect(Self.partials(of: name).isEmpty)
    }

    @Test("the X server frozen under --window -o --duration 2s: the session still ends, the recording is whole, the window abandoned")
    func xServerFrozen() throws {
        let pulse = try PulseServer()
        defer { pulse.stop() }
        let player = try Self.playNoise(pulse)
        defer { player.terminate() }
        let screen = try XvfbServer(width: 160, height: 90)
        defer { screen.stop() }   // thaws it first
        let name = "x-frozen.mp4", file = LiveCommandTests.path(name)
        let (live, log) = try LiveCommandTests.startLive(["--window", "-o", file, "--duration", "2s"] + Self.small,
                                                         pulse: pulse, environment: ["DISPLAY": screen.display])
        #expect(LiveCommandTests.recordingStarted(name), "\(LiveCommandTests.read(log))")
        screen.send(SIGSTOP)
        // The verdict is that it exits at all (the failsafe only guards against a hang).
        #expect(CLI.exits(live), "the session never ended: \(LiveCommandTests.read(log))")
        let text = LiveCommandTests.read(log)
        #expect(live.terminationStatus == 0, "\(text)")
        #expect(try LiveCommandTests.Facts(file).frames == 2 * Self.fps, "\(text)")
        #expect(text.contains("marble: warning: window: not responding for 2 s; abandoned"), "\(text)")
        #expect(Self.partials(of: name).isEmpty)
    }

    @Test("SIGALRM and SIGPIPE stop a live recording like Ctrl-C: exit 130, a whole file, no partial (SIGUSR1 reloads the preset: ControlCommandTests)",
          arguments: [SIGALRM, SIGPIPE])
    func stopSignals(signal: Int32) throws {
        let pulse = try PulseServer()
        defer { pulse.stop() }
        let player = try Self.playNoise(pulse)
        defer { player.terminate() }
        let name = "live-signal-\(signal).mp4", file = LiveCommandTests.path(name)
        let (live, log) = try LiveCommandTests.startLive(["-o", file] + Self.small, pulse: pulse)
        // Stopped once frames are in the file (the muxer's first write), not merely once it exists.
        #expect(CLI.partialFile(of: name, in: LiveCommandTests.folder.path), "\(LiveCommandTests.read(log))")
        #expect(pollProcess { CLI.catches(signal, live.processIdentifier) })
        kill(live.processIdentifier, signal)
        #expect(CLI.exits(live))
        let text = LiveCommandTests.read(log)
        #expect(live.terminationReason == .exit && live.terminationStatus == 130, "\(live.terminationReason) \(text)")
        let facts = try LiveCommandTests.Facts(file)
        #expect(facts.frames > 0 && facts.soundCodec == "aac", "\(text)")
        #expect(abs(facts.soundDuration - Double(facts.frames) / Double(Self.fps)) < 0.05, "sound as long as the picture")
        #expect(Self.partials(of: name).isEmpty)
    }

    @Test("SIGUSR2 stops `play -o` the same way: exit 130, a whole file, no partial (one session, one signal list)")
    func playStopSignal() throws {
        let song = try TestMedia.tone("wav", seconds: 30)
        let name = "play-signal.mp4", file = LiveCommandTests.path(name)
        let (play, _, err) = try CLI.start(["play", song, "-o", file] + Self.small)
        #expect(CLI.partialFile(of: name, in: LiveCommandTests.folder.path))
        #expect(pollProcess { CLI.catches(SIGUSR2, play.processIdentifier) })
        kill(play.processIdentifier, SIGUSR2)
        #expect(CLI.exits(play))
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(play.terminationReason == .exit && play.terminationStatus == 130, "\(text)")
        let facts = try LiveCommandTests.Facts(file)
        #expect(facts.frames > 0 && abs(facts.soundDuration - Double(facts.frames) / Double(Self.fps)) < 0.05, "\(text)")
        #expect(Self.partials(of: name).isEmpty)
    }
}
