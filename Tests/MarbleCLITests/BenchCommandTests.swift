import Foundation
import TestSupport
import Testing

/// `marble bench` through the real executable (a debug build: only shapes and exit codes are checked,
/// never times).
@Suite("marble bench (command line)", .ownThread, .serialized)
struct BenchCommandTests {
    @Test("--json prints one object whose results carry the documented keys")
    func json() throws {
        let r = try CLI.run(["bench", "--size", "64x36", "--threads", "1", "--frames", "2", "--warmup", "0",
                             "--filter", "solid", "--json", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.count == 1)
        for key in ["name", "kind", "width", "height", "threads", "p50_ms", "p99_ms", "fps", "allocs_per_frame"] {
            #expect(results.first?[key] != nil, "missing \(key)")
        }
        // bench preloads the allocation counter: allocations are counted.
        #expect((object["configuration"] as? [String: Any])?["allocations_counted"] as? Bool == true)
    }

    @Test("the table has a header row; bad options are one-line errors with exit code 2")
    func tableAndErrors() throws {
        let r = try CLI.run(["bench", "--size", "64x36", "--threads", "1", "--frames", "2", "--filter", "waveform", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("p50 ms") && r.stdout.contains("waveform"))
        for bad in [["--size", "65x36"], ["--frames", "0"], ["--kind", "everything"], ["--encoder-preset", "warp"]] {
            let e = try CLI.run(["bench"] + bad)
            #expect(e.status == 2, "\(bad): \(e.stderr)")
            #expect(e.stderr.split(separator: "\n").count == 1, "\(bad): \(e.stderr)")
        }
    }

    @Test("--compare-filter runs only the named filter beside ours and the encoders alone (on black and on our pictures); --min-ceiling-share 0 passes and says so")
    func compareOneFilter() throws {
        let r = try CLI.run(["bench", "--compare-ffmpeg", "--compare-filter", "showwaves", "--size", "64x36", "--compare-seconds", "1",
                             "--compare-rounds", "1", "--encoder-preset", "ultrafast", "--min-ceiling-share", "0", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let compare = try #require(object["compare"] as? [[String: Any]])
        #expect(compare.map { $0["filter"] as? String } == ["showwaves"])
        let share = try #require(compare.first?["share_of_ceiling"] as? Double)
        #expect(share > 0)
        // The encoders alone on our own pictures: our frames drawn first, then encoded by the render's own
        // sink, which writes the render's very bytes.
        #expect((compare.first?["share_of_own_ceiling"] as? Double ?? 0) > 0)
        #expect(compare.first?["own_pictures_same_bytes"] as? Bool == true)
        #expect(r.stderr.contains("ok   64x36 x264 ultrafast: ours reaches"), "\(r.stderr)")
        #expect(!r.stderr.contains("ffmpeg showcqt") && r.stderr.contains("ffmpeg showwaves"))
        for bad in [["--compare-filter", "showspectrum"], ["--min-ceiling-share", "2"], ["--min-own-ceiling-share", "-1"],
                    ["--min-ceiling-share", "0.5"]] {
            let e = try CLI.run(["bench"] + (bad[1] == "0.5" ? [] : ["--compare-ffmpeg"]) + bad)
            #expect(e.status == 2, "\(bad): \(e.stderr)")
            #expect(e.stderr.split(separator: "\n").count == 1, "\(bad): \(e.stderr)")
        }
    }

    @Test("--clock thread-cpu times one render thread's CPU; a bad clock, or thread-cpu with two threads, is exit 2")
    func clock() throws {
        let r = try CLI.run(["bench", "--size", "64x36", "--threads", "1", "--clock", "thread-cpu", "--frames", "2",
                             "--warmup", "0", "--filter", "solid", "--kind", "shader", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("solid"))
        for (bad, words) in [(["--clock", "sundial"], "--clock sundial"), (["--clock", "thread-cpu", "--threads", "2"], "--threads 1")] {
            let e = try CLI.run(["bench", "--size", "64x36"] + bad)
            #expect(e.status == 2, "\(bad): \(e.stderr)")
            #expect(e.stderr.contains(words) && e.stderr.split(separator: "\n").count == 1, "\(e.stderr)")
        }
    }

    @Test("--guard without a baseline says how to make one")
    func guardWithoutBaseline() throws {
        let r = try CLI.run(["bench", "--guard", "--baseline", "/nonexistent/baseline.json"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--write-baseline"))
    }
}

@Suite("marble bench --engines", .ownThread)
struct BenchEnginesTests {
    @Test("reports analysis speed and Granite throughput as JSON")
    func engines() throws {
        let r = try CLI.run(["bench", "--engines", "--json", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: [String: Double]])
        let analysis = try #require(object["analysis"]), granite = try #require(object["granite"])
        #expect((analysis["x_real_time"] ?? 0) > 1, "analysis must be faster than real time even in debug")
        #expect((analysis["live_ms_per_frame"] ?? -1) > 0)
        #expect((granite["events_per_second"] ?? 0) > 1000)
        #expect((granite["latency_p50_us"] ?? -1) > 0)
    }
}
