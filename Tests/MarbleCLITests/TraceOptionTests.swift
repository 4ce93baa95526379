import Foundation
import Testing
import TestSupport

@Suite("marble render --trace and --stats", .ownThread, .serialized)
struct TraceOptionTests {
    let song: String

    init() throws {
        song = CLI.path("trace-song.wav")
        if !FileManager.default.fileExists(atPath: song) {
            try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=220:d=1:r=22050", song])
        }
    }

    @Test("the trace names every stage's thread and holds one encode span per frame, each with its frame")
    func trace() throws {
        let out = CLI.path("traced.mp4"), trace = CLI.path("traced.json")
        try? FileManager.default.removeItem(atPath: trace)
        let r = try CLI.run(["render", song, "-o", out, "--size", "64x36", "--fps", "30", "--encoder-preset", "ultrafast",
                             "--threads", "2", "--trace", trace])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: trace))) as? [String: Any])
        let events = try #require(object["traceEvents"] as? [[String: Any]])
        let threads = Dictionary(events.filter { $0["name"] as? String == "thread_name" }.compactMap { e -> (Int, String)? in
            guard let tid = e["tid"] as? Int, let name = (e["args"] as? [String: Any])?["name"] as? String else { return nil }
            return (tid, name)
        }, uniquingKeysWith: { a, _ in a })
        for name in ["source", "render", "sink", "sound", "strips 1"] {
            #expect(threads.values.contains(name), "no \(name) thread in \(threads.values.sorted())")
        }
        let spans = events.filter { $0["ph"] as? String == "X" }
        let encodes = spans.filter { $0["name"] as? String == "encode (x264/VP9) + mux" }
        #expect(encodes.compactMap { ($0["args"] as? [String: Any])?["frame"] as? Int } == Array(0..<30))
        #expect(encodes.allSatisfy { threads[$0["tid"] as? Int ?? -1] == "sink" })
        let draws = spans.filter { $0["name"] as? String == "draw + YUV" }
        #expect(draws.count == 30 && draws.allSatisfy { threads[$0["tid"] as? Int ?? -1] == "render" })
        #expect(spans.contains { $0["name"] as? String == "analysis (first pass)" })
        #expect(r.stderr.contains("trace: ") && r.stderr.contains(trace))
        #expect(r.stderr.split(separator: "\n").contains { $0.hasPrefix("  render") && $0.contains("busy") })
        // Tracing changes nothing in the file.
        let plain = CLI.path("untraced.mp4")
        let p = try CLI.run(["render", song, "-o", plain, "--size", "64x36", "--fps", "30", "--encoder-preset", "ultrafast",
                             "--threads", "2"])
        #expect(p.status == 0, "\(p.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(contentsOf: URL(fileURLWithPath: plain)))
    }

    @Test("--stats tells when the first frame was encoded and what came after the last")
    func firstFrame() throws {
        let r = try CLI.run(["render", song, "-o", CLI.path("stats.mp4"), "--size", "64x36", "--fps", "30",
                             "--encoder-preset", "ultrafast", "--stats"])
        #expect(r.status == 0, "\(r.stderr)")
        let line = try #require(r.stderr.split(separator: "\n").first { $0.hasPrefix("first frame encoded") })
        let numbers = line.split(whereSeparator: { " (".contains($0) }).compactMap { Double($0) }
        #expect(numbers.count == 3 && numbers[0] >= numbers[1] && numbers.allSatisfy { $0 >= 0 }, "\(line)")
    }

    @Test("a bad --trace is one line and exit 2 or 1 before anything is rendered", arguments: [
        (["--trace", "TRACE.txt"], Int32(2), "expected a .json file"),
        (["--trace", "FOLDER.json"], 1, "is a folder"),
        (["--trace", "/no/such/dir/t.json"], 1, "does not exist"),
    ])
    func badTrace(arguments: [String], status: Int32, words: String) throws {
        let out = CLI.path("trace-bad-\(UUID().uuidString.prefix(6)).mp4"), folder = CLI.path("trace-folder.json")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let args = ["render", song, "-o", out, "--size", "64x36"] + arguments.map {
            $0 == "FOLDER.json" ? folder : $0 == "TRACE.txt" ? CLI.path("t.txt") : $0
        }
        let r = try CLI.run(args)
        #expect(r.status == status, "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(words), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("a render that fails writes no trace")
    func failedRenderNoTrace() throws {
        let trace = CLI.path("failed-trace.json")
        try? FileManager.default.removeItem(atPath: trace)
        let r = try CLI.run(["render", "/no/such.mp3", "-o", CLI.path("failed.mp4"), "--trace", trace])
        #expect(r.status == 1)
        #expect(!FileManager.default.fileExists(atPath: trace))
    }
}
