import Foundation
import Testing
import TestSupport

@Suite("marble render (command line)", .ownThread, .serialized)
struct RenderCommandTests {
    let song: String

    init() throws {
        song = CLI.path("song.wav")
        if !FileManager.default.fileExists(atPath: song) {
            try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=220:d=1:r=22050", song])
        }
    }

    @Test("--help documents every option")
    func help() throws {
        let r = try CLI.run(["render", "--help"])
        #expect(r.status == 0)
        for option in ["--output", "--size", "--fps", "--preset", "--effect", "--background", "--fit", "--crf",
                       "--encoder-preset", "--audio-bitrate", "--at", "--threads", "--bands", "--quiet", "--title"] {
            #expect(r.stdout.contains(option), "help lacks \(option)")
        }
    }

    @Test("a render prints a one-line summary and writes the file")
    func summary() throws {
        let out = CLI.path("ok.mp4")
        let r = try CLI.run(["render", song, "-o", out, "--size", "64x36", "--fps", "30", "--encoder-preset", "ultrafast"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("30 frames"), "\(r.stderr)")
        #expect(r.stderr.contains("real time"))
        #expect(r.stderr.contains(out))
        #expect(r.stderr.split(separator: "\n").count == 1, "progress must be silent when stderr is not a terminal")
        #expect(FileManager.default.fileExists(atPath: out))
        let q = try CLI.run(["render", song, "-o", CLI.path("q.mp4"), "--size", "64x36", "--quiet"])
        #expect(q.status == 0)
        #expect(q.stderr.isEmpty)
    }

    /// Each bad call: exit code, and a single line on stderr containing the expected words.
    @Test("errors are one clear line and a non-zero exit, with nothing left behind", arguments: [
        (["render", "/no/such.mp3", "-o", "OUT.mp4"], Int32(1), "no such file"),
        (["render", "SONG", "-o", "/no/such/dir/out.mp4"], 1, "does not exist"),
        (["render", "SONG", "-o", "OUT.avi"], 2, "unknown output type"),
        (["render", "SONG", "-o", "OUT.mp4", "--size", "big"], 2, "--size big"),
        (["render", "SONG", "-o", "OUT.mp4", "--size", "65x36"], 2, "must be even"),
        (["render", "SONG", "-o", "OUT.mp4", "--fps", "0"], 2, "--fps"),
        (["render", "SONG", "-o", "OUT.mp4", "--crf", "99"], 2, "--crf 99"),
        (["render", "SONG", "-o", "OUT.mp4", "--preset", "nope"], 2, "unknown preset \"nope\""),
        (["render", "SONG", "-o", "OUT.mp4", "--effect", "nope"], 2, "--effect nope"),
        (["render", "SONG", "-o", "OUT.mp4", "--encoder-preset", "warp"], 2, "--encoder-preset warp"),
        (["render", "SONG", "-o", "OUT.mp4", "--audio-bitrate", "1000"], 2, "--audio-bitrate 1000"),
        (["render", "SONG", "-o", "OUT.png", "--at", "soon"], 2, "--at soon"),
        (["render", "SONG", "-o", "OUT.png", "--at", "99s"], 2, "past the end"),
        (["render", "GARBAGE", "-o", "OUT.mp4"], 1, "GARBAGE"),
        (["render", "NOAUDIO", "-o", "OUT.mp4"], 1, "has no audio stream"),
        (["render", "SONG", "-o", "OUT.png", "--background", "cover"], 1, "has no embedded cover picture"),
    ])
    func errors(arguments: [String], status: Int32, words: String) throws {
        let garbage = CLI.path("garbage.mp3")
        try Data(repeating: 0x5A, count: 2048).write(to: URL(fileURLWithPath: garbage))
        let noAudio = CLI.path("noaudio.mkv")
        if !FileManager.default.fileExists(atPath: noAudio) {
            try CLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=32x32:d=0.2", noAudio])
        }
        let ext = arguments.first { $0.hasPrefix("OUT") }.map { ($0 as NSString).pathExtension } ?? "mp4"
        let out = CLI.path("err-\(UUID().uuidString.prefix(6)).\(ext)")
        let args = arguments.map {
            $0.hasPrefix("OUT") ? out : $0 == "SONG" ? song : $0 == "GARBAGE" ? garbage : $0 == "NOAUDIO" ? noAudio : $0
        }
        let r = try CLI.run(args)
        let expected = words == "GARBAGE" ? garbage : words
        #expect(r.status == status, "\(args): \(r.stderr)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(r.stderr)")
        #expect(r.stderr.contains(expected), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        // Only this run's output: other suites write into the same folder at the same time.
        let name = (out as NSString).lastPathComponent
        let partial = try FileManager.default.contentsOfDirectory(atPath: CLI.folder.path).filter { $0.hasPrefix(".\(name).partial-") }
        #expect(partial.isEmpty)
    }

    @Test("Ctrl-C stops the render (exit 130) and leaves a valid, playable file")
    func interrupt() throws {
        let long = CLI.path("long.wav")
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=330:d=120:r=8000", long])
        let out = CLI.path("interrupted.mp4")
        let (p, _, err) = try CLI.start(["render", long, "-o", out, "--size", "64x36", "--fps", "30", "--encoder-preset", "ultrafast"])
        // Interrupted once frames are in the file (its temporary file has grown).
        #expect(CLI.partialFile(of: "interrupted.mp4", in: CLI.folder.path))
        #expect(pollProcess { CLI.catches(SIGINT, p.processIdentifier) })
        p.interrupt()
        // Read before waiting: a full pipe would hold the process.
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(CLI.exits(p), "still running: \(stderr)")
        #expect(p.terminationStatus == 130, "\(stderr)")
        #expect(stderr.contains("stopped"), "\(stderr)")
        #expect(FileManager.default.fileExists(atPath: out))
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["ffprobe", "-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", out]
        let pipe = Pipe(), perr = Pipe()
        probe.standardOutput = pipe
        probe.standardError = perr
        try probe.run()
        let frames = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: perr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        probe.waitUntilExit()
        #expect(errors.isEmpty, "\(errors)")
        let counts = frames.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        #expect(counts.first ?? 0 > 0)
    }
}
