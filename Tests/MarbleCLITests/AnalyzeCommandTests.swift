import Foundation
import TestSupport
import Testing

@Suite("marble analyze (command line)", .ownThread, .serialized)
struct AnalyzeCommandTests {
    /// 4 s of clicks at 120 BPM (a beat every 0.5 s from 0.25 s).
    func clicks() throws -> String {
        let path = CLI.path("clicks120.wav")
        if !FileManager.default.fileExists(atPath: path) {
            try CLI.ffmpeg(["-f", "lavfi", "-i",
                            "aevalsrc=0.8*lt(mod(t-0.25\\,0.5)\\,0.01)*sin(2*PI*1500*t):s=44100:d=4", path])
        }
        return path
    }

    @Test("the summary names duration, tempo, loudness and pitch")
    func summary() throws {
        let r = try CLI.run(["analyze", try clicks()])
        #expect(r.status == 0, "\(r.stderr)")
        for word in ["Duration", "LUFS", "Pitch"] { #expect(r.stdout.contains(word), "\(r.stdout)") }
        // "Tempo      120.0 BPM, 4/4 (8 beats, 8 onsets)": the tempo line itself must say about 120 BPM.
        let tempoLine = try #require(r.stdout.split(separator: "\n").first { $0.hasPrefix("Tempo ") }, "\(r.stdout)")
        let words = tempoLine.split(separator: " ")
        #expect(words.count > 2 && words[2].hasPrefix("BPM"), "\(tempoLine)")
        let bpm = try #require(Double(words[1]), "\(tempoLine)")
        #expect(abs(bpm - 120) < 1.2, "\(tempoLine)")
    }

    @Test("--json has the documented keys and finds the beats")
    func json() throws {
        let r = try CLI.run(["analyze", try clicks(), "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let duration = try #require(object["duration"] as? Double)
        #expect(abs(duration - 4) < 0.01)
        let tempo = try #require(object["tempo"] as? Double)
        #expect(abs(tempo - 120) < 1.2)
        let beats = try #require(object["beats"] as? [Double])
        #expect(beats.count >= 6)
        #expect(object["onsets"] is [Double])
        let loudness = try #require(object["loudness"] as? [String: Any])
        #expect(loudness["integrated"] is Double && loudness["range"] is Double)
        #expect(object["frames"] == nil)
    }

    @Test("--frames gives ceil(duration·fps) frames")
    func frames() throws {
        let r = try CLI.run(["analyze", try clicks(), "--json", "--frames", "--fps", "25"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let frames = try #require(object["frames"] as? [[String: Any]])
        #expect(frames.count == 100)
        #expect(frames.contains { $0["beat"] as? Bool == true })
        let text = try CLI.run(["analyze", try clicks(), "--frames", "--fps", "10"])
        #expect(text.stdout.split(separator: "\n").filter { $0.first?.isNumber == true }.count == 40)
    }

    @Test("bad input: one line, non-zero exit", arguments: [
        (["analyze", "/no/such.flac"], "no such file"),
        (["analyze", "CLICKS", "--fps", "fast"], "--fps fast"),
        (["analyze", "CLICKS", "--bands", "3"], "--bands 3"),
    ])
    func errors(arguments: [String], words: String) throws {
        let args = try arguments.map { $0 == "CLICKS" ? try clicks() : $0 }
        let r = try CLI.run(args)
        #expect(r.status != 0)
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains(words), "\(r.stderr)")
    }
}
