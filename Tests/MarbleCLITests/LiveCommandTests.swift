import Foundation
import Testing
import TestSupport

/// `marble live` run for real against a private headless PulseAudio: what plays into its null sink
/// is captured, drawn and recorded; the server's faults are survived.
@Suite("marble live (command line, real PulseAudio)", .ownThread, .serialized, .enabled(if: PlayTools.available))
struct LiveCommandTests {
    static let rate = 48_000

    /// The live tests' own folder: the render tests check theirs for leftover partial files.
    static let folder: URL = {
        let url = CLI.folder.appendingPathComponent("live")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()
    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// 1 s of silence, then 1.5 s of seeded white noise, then silence: `noise` holds the noise alone.
    static func steppedNoise() throws -> (file: String, noise: [Float]) {
        let noise = Self.path("noise.f32")
        try CLI.ffmpeg(["-f", "lavfi", "-i", "anoisesrc=d=1.5:c=white:seed=7:a=0.3:r=\(rate)", "-f", "f32le", "-ac", "1", noise])
        let file = Self.path("stepped.wav")
        try CLI.ffmpeg(["-f", "lavfi", "-i", "anullsrc=r=\(rate):cl=mono:d=1", "-f", "f32le", "-ar", "\(rate)", "-ac", "1", "-i", noise,
                        "-f", "lavfi", "-i", "anullsrc=r=\(rate):cl=mono:d=2",
                        "-filter_complex", "[0][1][2]concat=n=3:v=0:a=1", "-ac", "2", file])
        return (file, try floats(noise))
    }

    static func floats(_ path: String) throws -> [Float] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The recording's sound as mono float at 48 kHz.
    static func sound(of path: String) throws -> [Float] {
        let raw = Self.path("sound-\(UUID().uuidString.prefix(6)).f32")
        defer { try? FileManager.default.removeItem(atPath: raw) }
        try CLI.ffmpeg(["-i", path, "-map", "0:a", "-f", "f32le", "-ac", "1", "-ar", "\(rate)", raw])
        return try floats(raw)
    }

    /// Mean luma of each frame of the recording (decoded at 32x18).
    static func frameLuma(of path: String) throws -> [Double] {
        let raw = Self.path("luma-\(UUID().uuidString.prefix(6)).gray")
        try CLI.ffmpeg(["-i", path, "-map", "0:v", "-vf", "scale=32:18", "-f", "rawvideo", "-pix_fmt", "gray", raw])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        return stride(from: 0, to: bytes.count - 575, by: 576).map { start in
            Double(bytes[start..<start + 576].reduce(0) { $0 + Int($1) }) / 576
        }
    }

    /// How many of the first `pieces` stretches of 100 ms of `needle` are in `haystack` (normalised
    /// cross-correlation over 0.8), each searched from 10 ms before to 250 ms after where it falls
    /// when `needle` starts at `onset`: a starved capture may fill in silence for sound that was only
    /// late and keep the late sound after it (up to the drift bound, 250 ms), which shifts what follows
    /// and spoils the stretch the hole falls in, not the others. Stops at `enough`.
    static func stretchesFound(_ needle: [Float], in haystack: [Float], from onset: Int, pieces: Int = 10, enough: Int = 3) -> Int {
        var found = 0
        for k in 0..<pieces where (k + 1) * 4800 <= needle.count {
            let probe = needle[k * 4800..<(k + 1) * 4800]
            let energy = probe.reduce(0.0) { $0 + Double($1 * $1) }
            let lower = max(0, onset + k * 4800 - 480), upper = min(haystack.count - 4800, onset + k * 4800 + 12_000)
            var offset = lower
            while offset < upper {
                var dot = 0.0, e = 0.0
                for (i, n) in probe.enumerated() {
                    let h = Double(haystack[offset + i])
                    dot += Double(n) * h
                    e += h * h
                }
                if e > 0 && dot / (energy * e).squareRoot() > 0.8 { found += 1; break }
                offset += 1
            }
            if found == enough { break }
        }
        return found
    }

    /// Starts `marble live` headless (no terminal) with the server's environment (and `environment`);
    /// its output to a log file.
    static func startLive(_ arguments: [String], pulse: PulseServer, environment: [String: String] = [:]) throws -> (Process, String) {
        let log = Self.path("live-\(UUID().uuidString.prefix(6)).log")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let p = Process()
        p.executableURL = CLI.executable
        p.arguments = ["live"] + arguments
        p.environment = ProcessInfo.processInfo.environment.merging(pulse.environment) { $1 }.merging(environment) { $1 }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        p.standardOutput = handle
        p.standardError = handle
        p.standardInput = FileHandle.nullDevice
        try p.run()
        return (p, log)
    }

    static func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// Waits (30 s at most) until the recording `name` in ``folder`` has started (its partial file exists).
    static func recordingStarted(_ name: String) -> Bool {
        PlayTools.eventually(timeout: 30) {
            (try? FileManager.default.contentsOfDirectory(atPath: folder.path).contains { $0.hasPrefix(".\(name).partial") }) ?? false
        }
    }

    /// What ffprobe says of a recording: frames decoded, the sound's codec and duration.
    struct Facts {
        var frames = 0, soundCodec = "", soundDuration = 0.0
        init(_ path: String) throws {
            let v = try PlayTools.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                                  "stream=nb_read_frames", "-of", "csv=p=0", path]).output
            frames = Int(v.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
            let a = try PlayTools.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries",
                                                  "stream=codec_name,duration", "-of", "csv=p=0", path]).output
            let parts = a.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
            soundCodec = parts.first.map(String.init) ?? ""
            soundDuration = parts.count > 1 ? Double(parts[1]) ?? 0 : 0
        }
    }

    @Test("what plays is recorded: the sound is found in the file, and the picture changes at its frame (±1)")
    func recordsWhatPlays() throws {
        let pulse = try PulseServer()
        defer { pulse.stop() }
        let (file, noise) = try Self.steppedNoise()
        let out = Self.path("live-rec.mp4")
        let fps = 30
        let (live, log) = try Self.startLive(["-o", out, "--duration", "5s", "--size", "160x90", "--fps", "\(fps)",
                                              "--preset", "bars"], pulse: pulse)
        // Played once the recording has started (the song's step comes a second into it).
        #expect(Self.recordingStarted("live-rec.mp4"), "\(Self.read(log))")
        let player = try pulse.play(file)
        live.waitUntilExit()
        player.terminate()
        #expect(live.terminationStatus == 0, "\(Self.read(log))")
        let facts = try Facts(out)
        #expect(facts.frames == 5 * fps)
        #expect(facts.soundCodec == "aac")
        #expect(abs(facts.soundDuration - 5) < 0.05, "sound as long as the picture: \(facts.soundDuration) s")

        // Where the recording's sound first gets loud is where the noise starts in it (a hole a starved
        // capture may leave comes after); the noise itself is found there in stretches of 100 ms.
        let sound = try Self.sound(of: out)
        let onset = try #require(sound.firstIndex { abs($0) > 0.05 }, "nothing loud in the recording's sound")
        let found = Self.stretchesFound(noise, in: sound, from: onset)
        #expect(found >= 3, "the played noise is in the recording's sound: \(found) of its first stretches of 100 ms")
        let soundFrame = onset * fps / Self.rate
        let luma = try Self.frameLuma(of: out)
        let quiet = luma.prefix(max(1, soundFrame - 2))
        let floor = quiet.max() ?? 0
        let pictureFrame = luma.indices.first { $0 > 0 && luma[$0] > floor + 8 } ?? -1
        #expect((soundFrame...soundFrame + 1).contains(pictureFrame),
                "sound starts in frame \(soundFrame), picture changes in frame \(pictureFrame): \(luma.prefix(soundFrame + 4))")
    }

    @Test("--milkdrop: a folder of presets plays live, switching on time, and the recording follows the sound")
    func milkdropPlaylist() throws {
        let pulse = try PulseServer()
        defer { pulse.stop() }
        let presets = try MilkDropCommandTests.presets()
        let (file, _) = try Self.steppedNoise()
        let out = Self.path("live-milkdrop.mp4")
        let fps = 30
        let (live, log) = try Self.startLive(["-o", out, "--duration", "4s", "--size", "160x90", "--fps", "\(fps)",
                                              "--milkdrop", presets.path, "--switch", "1s", "--blend", "0.5s"], pulse: pulse)
        #expect(Self.recordingStarted("live-milkdrop.mp4"), "\(Self.read(log))")
        let player = try pulse.play(file)
        live.waitUntilExit()
        player.terminate()
        #expect(live.terminationStatus == 0, "\(Self.read(log))")
        let facts = try Facts(out)
        #expect(facts.frames == 4 * fps)
        let luma = try Self.frameLuma(of: out)
        // The picture moves: frame to frame, the mean brightness changes many times over the recording.
        let changes = zip(luma, luma.dropFirst()).count { abs($0 - $1) > 0.2 }
        #expect(changes > 20, "luma: \(luma)")
    }

    @Test("the server killed and restarted mid-run: the recording goes on (silence) and capture resumes")
    func survivesServerRestart() throws {
        let pulse = try PulseServer()
        defer { pulse.stop() }
        // Two tones told apart by pitch, so a hole a starved server leaves inside one (silence filled in
        // for sound that was only late) is never taken for the gap while the server was away.
        let first = Self.path("tone-440.wav"), second = Self.path("tone-880.wav")
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=440:d=2:r=48000", "-ac", "2", first])
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=880:d=2:r=48000", "-ac", "2", second])
        let out = Self.path("live-restart.mp4")
        let (live, log) = try Self.startLive(["-o", out, "--size", "64x36"], pulse: pulse)
        #expect(Self.recordingStarted("live-restart.mp4"), "\(Self.read(log))")
        #expect(Self.logShows(log, "capturing viz.monitor", times: 1), "\(Self.read(log))")
        // The first tone, played to its end (paplay drains its stream into the sink before it exits)
        // and captured to its end (the recording, readable while it is written, holds it), then the
        // server dies; once marble says it is reconnecting, the server comes back and the second tone
        // plays. Every step waits for the step before it, none for a length of time: a starved server
        // may hand the capture the last of a tone well after paplay has left.
        try Self.playToTheEnd(first, on: pulse)
        #expect(Self.recordingHolds("A", "live-restart.mp4"), "\(Self.read(log))")
        pulse.kill()
        #expect(Self.logShows(log, "reconnecting", times: 1), "\(Self.read(log))")
        try pulse.start()
        #expect(Self.logShows(log, "capturing viz.monitor", times: 2), "capture resumed: \(Self.read(log))")
        try Self.playToTheEnd(second, on: pulse)
        #expect(Self.recordingHolds("B", "live-restart.mp4"), "\(Self.read(log))")
        #expect(pollProcess { CLI.catches(SIGINT, live.processIdentifier) })
        live.interrupt()
        live.waitUntilExit()
        #expect(live.terminationStatus == 130, "\(Self.read(log))")
        #expect(try Facts(out).frames > 0)
        // In 100 ms windows (A: the first tone, B: the second, ".": silence): the first tone, silence
        // while the server was away, the second tone.
        let windows = Self.tones(try Self.sound(of: out))
        let a = windows.filter { $0 == "A" }.count, b = windows.filter { $0 == "B" }.count
        guard let lastA = windows.lastIndex(of: "A"), let firstB = windows.firstIndex(of: "B") else {
            Issue.record("not both tones in the recording: \(windows)")
            return
        }
        // Each tone lasts 20 windows; the edges (the kill, the end of the recording) may cut a few, and
        // one more window may hold the tone's edge. A tone may also come out longer, never by more than
        // the capture's drift bound (`CapturePacer.aheadLimit`, 250 ms: 3 windows): when the server is
        // starved past the filler's threshold (a loaded machine), silence is filled in for the wait,
        // and the tone that was only late is then kept in full after it, up to that bound.
        let longest = 20 + 1 + 3
        #expect(a >= 10 && a <= longest, "the first tone lasts \(a) windows of 100 ms: \(windows)")
        #expect(b >= 10 && b <= longest, "the second tone lasts \(b) windows of 100 ms: \(windows)")
        #expect(lastA < firstB && windows[windows.index(after: lastA)..<firstB].contains("."),
                "silence between the tones while the server was away: \(windows)")
    }

    /// Each 100 ms window of `sound` (48 kHz) as a letter: "." quiet (RMS under 0.05), "A" a tone
    /// near 440 Hz, "B" one near 880 Hz (told apart by zero crossings: about 0.02 and 0.04 per sample;
    /// the samples within 0.02 of zero, where the codec's noise crosses, are passed over).
    static func tones(_ sound: [Float]) -> String {
        String(stride(from: 0, to: sound.count - 4800, by: 4800).map { start -> Character in
            let window = sound[start..<start + 4800]
            guard (window.reduce(Float(0)) { $0 + $1 * $1 } / 4800).squareRoot() > 0.05 else { return "." }
            var crossings = 0, counted = 0, above: Bool?
            for x in window where abs(x) > 0.02 {
                if let was = above, was != (x > 0) { crossings += 1 }
                above = x > 0
                counted += 1
            }
            // Per sample counted, so that a window the tone fills in part reads the same pitch.
            return Double(crossings) / Double(max(1, counted)) < 0.03 ? "A" : "B"
        })
    }

    /// Waits until the recording `name`, still being written, holds a tone (`tone`, see ``tones(_:)``)
    /// in at least 19 windows of 100 ms (all of a 2 s tone but an edge), or in 10 followed by 4 quiet ones. Live recordings reach the disk
    /// within a second of being captured (fragments of at most a second, each written through), so the
    /// partial file is read as it grows; polled, with a 60 s deadline that only guards against a hang.
    static func recordingHolds(_ tone: Character, _ name: String) -> Bool {
        pollProcess(failsafe: 60, every: 0.5) {
            guard let partial = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
                .first(where: { $0.hasPrefix(".\(name).partial") }),
                  let sound = try? sound(of: path(partial)) else { return false }
            // All of the tone but an edge, or at least half of it followed by 0.4 s of silence: more than
            // the capture's drift bound (250 ms), past which sound a starved server hands over late is
            // dropped by design, so nothing more of the tone can come.
            let w = tones(sound)
            guard let last = w.lastIndex(of: tone) else { return false }
            let count = w.filter { $0 == tone }.count
            return count >= 19 || (count >= 10 && w[w.index(after: last)...].prefix(4).count == 4
                                   && w[w.index(after: last)...].prefix(4).allSatisfy { $0 == "." })
        }
    }

    /// Waits until `text` appears `times` times in the log of a `marble live` (which reports each change
    /// of its connection there). Polled, the process offering no other notification, with a 60 s
    /// deadline that only guards against a hang.
    static func logShows(_ log: String, _ text: String, times: Int) -> Bool {
        PlayTools.eventually(timeout: 60) { read(log).components(separatedBy: text).count > times }
    }

    /// Plays `file` into the server's sink and waits until paplay has drained it and exited.
    static func playToTheEnd(_ file: String, on pulse: PulseServer) throws {
        let player = try pulse.play(file)
        player.waitUntilExit()
        #expect(player.terminationStatus == 0, "paplay \(file) exited with \(player.terminationStatus)")
    }

    @Test("an unknown source is one line naming the available ones (exit 2), and nothing is written")
    func unknownSource() throws {
        let pulse = try PulseServer()
        defer { pulse.stop() }
        let out = Self.path("never.mp4")
        let r = try PlayTools.marble(["live", "--source", "no.such.source", "-o", out, "--duration", "1s"], environment: pulse.environment)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("no.such.source") && r.stderr.contains("viz.monitor"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("no server is one line and exit 1; with --wait the session waits and records once one appears")
    func noServer() throws {
        let dir = PlayTools.makeDirectory("marble-nopa")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let env = ["XDG_RUNTIME_DIR": dir, "PULSE_SERVER": "unix:\(dir)/pulse/native"]
        let out = Self.path("nopa.mp4")
        let r = try PlayTools.marble(["live", "-o", out, "--duration", "1s"], environment: env)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("PulseAudio"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("--wait: no server at first, one appears, the recording is made")
    func waitsForAServer() throws {
        let pulse = try PulseServer()
        defer { pulse.stop() }
        pulse.kill()
        let out = Self.path("waited.mp4")
        let (live, log) = try Self.startLive(["--wait", "-o", out, "--duration", "2s", "--size", "64x36"], pulse: pulse)
        #expect(Self.logShows(log, "waiting for a PulseAudio server", times: 1), "\(Self.read(log))")
        #expect(live.isRunning, "\(Self.read(log))")
        try pulse.start()
        _ = PlayTools.eventually(timeout: 60) { !live.isRunning }
        if live.isRunning { live.terminate() }
        #expect(live.terminationStatus == 0, "\(Self.read(log))")
        let frames = try Facts(out).frames
        #expect(frames == 60, "\(frames) frames; \(Self.read(log))")
    }

    @Test("--list-sources marks the default sink's monitor")
    func listsSources() throws {
        let pulse = try PulseServer()
        defer { pulse.stop() }
        let r = try PlayTools.marble(["live", "--list-sources"], environment: pulse.environment)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").contains { $0.hasPrefix("* viz.monitor") }, "\(r.stdout)")
    }

    @Test("Ctrl-C ends a recording with exit 130 and a valid, playable file")
    func interruptKeepsTheFile() throws {
        let pulse = try PulseServer()
        defer { pulse.stop() }
        let out = Self.path("live-ctrlc.mp4")
        let (live, log) = try Self.startLive(["-o", out, "--size", "64x36"], pulse: pulse)
        let started = PlayTools.eventually(timeout: 30) {
            (try? FileManager.default.contentsOfDirectory(atPath: Self.folder.path).contains { $0.hasPrefix(".live-ctrlc.mp4.partial") }) ?? false
        }
        #expect(started, "\(Self.read(log))")
        // Interrupted once frames are in the file: noise plays (so the sound is not a few bytes of
        // silence, and the file soon grows past the muxer's first 32 KB write).
        // As long as the wait's failsafe, so that a starved machine still records noise until it is seen.
        let noise = Self.path("noise-120s.wav")
        try CLI.ffmpeg(["-f", "lavfi", "-i", "anoisesrc=d=120:c=white:seed=3:a=0.5:r=24000", "-ac", "2", noise])
        let player = try pulse.play(noise)
        defer { player.terminate() }
        #expect(CLI.partialFile(of: "live-ctrlc.mp4", in: Self.folder.path), "\(Self.read(log))")
        #expect(pollProcess { CLI.catches(SIGINT, live.processIdentifier) })
        live.interrupt()
        live.waitUntilExit()
        #expect(live.terminationStatus == 130, "\(Self.read(log))")
        let frames = try Facts(out).frames
        #expect(frames > 0, "\(frames) frames")
    }

    @Test("bad values are one line and exit 2", arguments: [
        (["--fps", "0"], "--fps"), (["--duration", "soon"], "--duration"), (["--size", "7x7", "-o", "x.mp4"], "--size"),
        (["-o", "x.png"], "a recording is a video"), (["--fragment", "500"], "fragment"), ([] as [String], "terminal"),
    ])
    func badValues(arguments: [String], words: String) throws {
        let r = try PlayTools.marble(["live"] + arguments, environment: [:])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains(words), "\(r.stderr)")
    }
}
