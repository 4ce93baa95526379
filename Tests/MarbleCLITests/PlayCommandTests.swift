import Foundation
import Testing
import TestSupport

/// `marble play` for real: a private PulseAudio daemon with a null sink, the player in a tmux window,
/// what reaches the sink's monitor, and what the window shows.
@Suite("marble play (PulseAudio + tmux)", .ownThread, .serialized,
       .enabled(if: PlayTools.available, "needs \(PlayTools.missing.joined(separator: ", ")) (apt: pulseaudio pulseaudio-utils tmux)"))
struct PlayCommandTests {
    let song: String

    init() throws {
        song = CLI.path("play-sine.wav")
        if !FileManager.default.fileExists(atPath: song) {
            try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=440:d=120:r=48000", song])
        }
    }

    /// The shell command for the tmux window: the player, then its exit status and the terminal's
    /// settings (to prove raw mode was undone; written whole before the status appears, so a test that
    /// sees the status reads complete settings), then an idle shell so the pane stays inspectable.
    func playCommand(_ pulse: PulseServer, config: String, results: String, extra: String = "", songs: [String]? = nil) -> String {
        let env = pulse.environment.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        let played = (songs ?? [song]).joined(separator: " ")
        return "env \(env) XDG_CONFIG_HOME=\(config) \(CLI.executable.path) play \(played) --fps 15 \(extra); "
            + "s=$?; stty -a > \(results)/stty.tmp; mv \(results)/stty.tmp \(results)/stty; echo $s > \(results)/status; sleep 600"
    }

    @Test("plays to the sink, draws the picture, pauses, remembers settings, quits cleanly")
    func playsPausesAndQuits() throws {
        let pulse = try PulseServer()
        defer { pulse.stop() }
        let config = PlayTools.makeDirectory("marble-cfg")
        let results = PlayTools.makeDirectory("marble-res")
        defer {
            try? FileManager.default.removeItem(atPath: config)
            try? FileManager.default.removeItem(atPath: results)
        }
        let term = try TmuxTerminal(columns: 80, rows: 24, command: playCommand(pulse, config: config, results: results))
        defer { term.stop() }

        // The picture and the status line appear.
        let drawn = PlayTools.eventually(timeout: 90) {
            term.statusLine.contains("playing") && term.capture().contains("▀")
        }
        #expect(drawn, "screen:\n\(term.capture())")
        try #require(drawn)
        let colored = term.capture(escapes: true)
        #expect(colored.contains("38;2;") && colored.contains("48;2;"), "no truecolor escapes")
        #expect(term.statusLine.contains("preset spectrum"), "\(term.statusLine)")
        #expect(term.statusLine.contains("/ 2:00"), "\(term.statusLine)")

        // The sound reaches the sink: a 440 Hz sine at 1/8 full scale has an RMS of about 0.088.
        var rms: Float = 0
        let audible = try PlayTools.eventually(timeout: 30) { rms = try pulse.monitorRMS(); return rms > 0.03 }
        #expect(audible, "monitor RMS \(rms)")

        // Space pauses: the status says so and the sink goes quiet.
        term.send("Space")
        #expect(PlayTools.eventually(timeout: 60) { term.statusLine.contains("paused") }, "\(term.statusLine)")
        let silent = try PlayTools.eventually(timeout: 30) { rms = try pulse.monitorRMS(); return rms >= 0 && rms < 0.001 }
        #expect(silent, "monitor RMS \(rms) while paused")

        // → while paused seeks exactly 5 s ahead (the position is frozen, so the jump is the seek's)
        // and stays paused.
        let pausedAt = Self.seconds(in: term.statusLine) ?? -1
        term.send("Right")
        #expect(PlayTools.eventually(timeout: 60) {
            let now = Self.seconds(in: term.statusLine) ?? -1
            return term.statusLine.contains("paused") && abs(now - (pausedAt + 5)) <= 1
        }, "paused at \(pausedAt), after →: \(term.statusLine)")

        // Space again resumes the sound.
        term.send("Space")
        #expect(PlayTools.eventually(timeout: 60) { term.statusLine.contains("playing") }, "\(term.statusLine)")
        #expect(try PlayTools.eventually(timeout: 30) { rms = try pulse.monitorRMS(); return rms > 0.03 }, "RMS \(rms)")

        // n and + change preset and sensitivity.
        term.send("n")
        term.send("+")
        #expect(PlayTools.eventually(timeout: 60) {
            term.statusLine.contains("preset \(Self.presetAfterDefault)") && term.statusLine.contains("sens 1.25")
        }, "\(term.statusLine)")

        // q quits with status 0 and a restored terminal.
        term.send("q")
        let status = "\(results)/status"
        #expect(PlayTools.eventually(timeout: 30) { FileManager.default.fileExists(atPath: status) && !Self.read(status).isEmpty })
        #expect(Self.read(status).trimmingCharacters(in: .whitespacesAndNewlines) == "0", "exit status \(Self.read(status))")
        #expect(PlayTools.eventually(timeout: 60) { FileManager.default.fileExists(atPath: "\(results)/stty") })
        Self.expectRestored(term, stty: Self.read("\(results)/stty"))

        // The choices were saved where XDG_CONFIG_HOME says.
        let saved = Self.read("\(config)/marble/player.json")
        #expect(saved.contains("\"\(Self.presetAfterDefault)\"") && saved.contains("1.25"), "player.json: \(saved)")

        // A second run starts with them; Ctrl-C also restores the terminal (exit 130).
        try? FileManager.default.removeItem(atPath: status)
        try? FileManager.default.removeItem(atPath: "\(results)/stty")
        let again = try TmuxTerminal(columns: 80, rows: 24, command: playCommand(pulse, config: config, results: results))
        defer { again.stop() }
        #expect(PlayTools.eventually(timeout: 90) {
            again.statusLine.contains("playing") && again.statusLine.contains("preset \(Self.presetAfterDefault)") && again.statusLine.contains("sens 1.25")
        }, "\(again.statusLine)")
        again.send("C-c")
        #expect(PlayTools.eventually(timeout: 30) { !Self.read(status).isEmpty })
        #expect(Self.read(status).trimmingCharacters(in: .whitespacesAndNewlines) == "130", "exit status \(Self.read(status))")
        #expect(PlayTools.eventually(timeout: 60) { FileManager.default.fileExists(atPath: "\(results)/stty") })
        Self.expectRestored(again, stty: Self.read("\(results)/stty"))
    }

    static func expectRestored(_ term: TmuxTerminal, stty: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(term.display("#{alternate_on}") == "0", "still on the alternate screen", sourceLocation: sourceLocation)
        #expect(term.display("#{cursor_flag}") == "1", "cursor still hidden", sourceLocation: sourceLocation)
        let flags = stty.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" })
        #expect(flags.contains("icanon") && flags.contains("echo") && flags.contains("isig"),
                "terminal left in raw mode: \(stty)", sourceLocation: sourceLocation)
    }

    static func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// The position shown in a status line like " playing  0:12 / 2:00 …", in seconds.
    /// The preset `n` moves to from the default one: the next bundled name in sorted order.
    static let presetAfterDefault: String = {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples/Presets")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
        guard let i = names.firstIndex(of: "spectrum") else { return "spectrum" }
        return names[(i + 1) % names.count]
    }()

    static func seconds(in status: String) -> Int? {
        guard let clock = status.split(separator: " ").first(where: { $0.contains(":") }) else { return nil }
        let parts = clock.split(separator: ":").compactMap { Int($0) }
        return parts.count == 2 ? parts[0] * 60 + parts[1] : nil
    }

    @Test("several songs without outputs play through the speakers with the transport: → to the end plays the next, ← stays in it")
    func playlistHasATransport() throws {
        let pulse = try PulseServer()
        defer { pulse.stop() }
        let first = CLI.path("play-pl-a.wav"), second = CLI.path("play-pl-b.wav")
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=440:d=20:r=48000", first])
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=660:d=20:r=44100", second])
        let config = PlayTools.makeDirectory("marble-cfg")
        let results = PlayTools.makeDirectory("marble-res")
        defer {
            try? FileManager.default.removeItem(atPath: config)
            try? FileManager.default.removeItem(atPath: results)
        }
        let command = playCommand(pulse, config: config, results: results, songs: [first, second])
        let term = try TmuxTerminal(columns: 100, rows: 24, command: command)
        defer { term.stop() }

        // The first song plays and is heard; the status row names it.
        #expect(PlayTools.eventually(timeout: 90) {
            term.statusLine.contains("playing") && term.statusLine.contains("play-pl-a")
        }, "\(term.statusLine)")
        var rms: Float = 0
        #expect(try PlayTools.eventually(timeout: 30) { rms = try pulse.monitorRMS(); return rms > 0.03 }, "RMS \(rms)")

        // → four times reaches the end of the 20 s song: the next one (44.1 kHz, resampled) plays.
        for _ in 0..<4 { term.send("Right") }
        #expect(PlayTools.eventually(timeout: 30) {
            term.statusLine.contains("playing") && term.statusLine.contains("play-pl-b")
        }, "\(term.statusLine)")
        #expect(try PlayTools.eventually(timeout: 30) { rms = try pulse.monitorRMS(); return rms > 0.03 }, "RMS \(rms)")

        // Two seconds in, ← goes back to the start of this song, not into the one before.
        #expect(PlayTools.eventually(timeout: 30) { (Self.seconds(in: term.statusLine) ?? 0) >= 2 }, "\(term.statusLine)")
        term.send("Left")
        #expect(PlayTools.eventually(timeout: 20) {
            term.statusLine.contains("play-pl-b") && (Self.seconds(in: term.statusLine) ?? 99) <= 1
        }, "\(term.statusLine)")

        // Space pauses it; q quits with status 0.
        term.send("Space")
        #expect(PlayTools.eventually(timeout: 20) { term.statusLine.contains("paused") }, "\(term.statusLine)")
        term.send("q")
        let status = "\(results)/status"
        #expect(PlayTools.eventually(timeout: 30) { !Self.read(status).isEmpty })
        #expect(Self.read(status).trimmingCharacters(in: .whitespacesAndNewlines) == "0", "exit status \(Self.read(status))")
    }

    @Test("several songs are heard too: two files play one after the other to the sink, and to the recording")
    func severalSongsReachTheSink() throws {
        let pulse = try PulseServer()
        defer { pulse.stop() }
        let first = CLI.path("play-two-a.wav"), second = CLI.path("play-two-b.wav")
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=440:d=5:r=48000", first])
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=660:d=5:r=44100", second])
        let out = CLI.path("play-two.mp4")
        let log = CLI.path("play-two.log")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let p = Process()
        p.executableURL = CLI.executable
        p.arguments = ["play", first, second, "-o", out, "--device", "viz", "--size", "64x36", "--encoder-preset", "ultrafast"]
        p.environment = ProcessInfo.processInfo.environment.merging(pulse.environment) { $1 }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        p.standardOutput = handle
        p.standardError = handle
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let read = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        #expect(PlayTools.eventually(timeout: 30) { read().contains("playing play-two-a") }, "\(read())")
        var rms: Float = 0
        let heard = try PlayTools.eventually(timeout: 60) { rms = try pulse.monitorRMS(); return rms > 0.03 }
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(read())")
        #expect(heard, "the songs reached the sink (monitor RMS \(rms))")
        #expect(read().contains("playing play-two-b"), "\(read())")
        #expect(abs((try Probe(out).audio?.duration ?? 0) - 10) < 0.2, "both songs recorded: \(read())")
    }
}

/// `marble play`'s errors need neither a terminal nor a sound server.
@Suite("marble play errors", .ownThread)
struct PlayCommandErrorTests {
    @Test("a missing file is one line and exit status 1")
    func missingFile() throws {
        let r = try PlayTools.marble(["play", "/no/such/song.mp3"], environment: [:])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("/no/such/song.mp3: no such file"), "\(r.stderr)")
    }

    @Test("no PulseAudio server is one line and exit status 1")
    func noServer() throws {
        let song = CLI.path("play-short.wav")
        if !FileManager.default.fileExists(atPath: song) {
            try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=440:d=1:r=48000", song])
        }
        let nowhere = PlayTools.makeDirectory("marble-nopa")
        defer { try? FileManager.default.removeItem(atPath: nowhere) }
        let r = try PlayTools.marble(["play", song], environment: [
            "PULSE_SERVER": "unix:\(nowhere)/no-such-socket", "XDG_RUNTIME_DIR": nowhere, "XDG_CONFIG_HOME": nowhere,
        ])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("PulseAudio"), "\(r.stderr)")
        #expect(r.stdout.isEmpty, "\(r.stdout)")
    }

    @Test("without a terminal it says so (exit status 2)")
    func noTerminal() throws {
        let song = CLI.path("play-short.wav")
        if !FileManager.default.fileExists(atPath: song) {
            try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=440:d=1:r=48000", song])
        }
        let config = PlayTools.makeDirectory("marble-cfg")
        defer { try? FileManager.default.removeItem(atPath: config) }
        for songs in [[song], [song, song]] {  // one file, or a playlist: the same session, the same error
            let r = try PlayTools.marble(["play"] + songs + ["--no-audio"], environment: ["XDG_CONFIG_HOME": config])
            #expect(r.status == 2, "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            #expect(r.stderr.contains("terminal"), "\(r.stderr)")
        }
    }

    @Test("a bad option value is one line and exit status 2", arguments: [
        (["--fps", "0"], "--fps"), (["--preset", "nope"], "unknown preset \"nope\""),
    ])
    func badOptions(extra: [String], words: String) throws {
        let r = try PlayTools.marble(["play", "/no/such/song.mp3"] + extra, environment: [:])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains(words), "\(r.stderr)")
    }
}
