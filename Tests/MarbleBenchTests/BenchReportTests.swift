import Foundation
@testable import MarbleAnalysis
@testable import MarbleBench
import MarbleCore
@testable import MarbleRender
import Shaders
import Testing

@Suite("BenchReport")
struct BenchReportTests {
    static func report(counted: Bool = true) -> BenchReport {
        let frame = StageStats(name: "frame", p50: 4, p95: 5, p99: 6.5, max: 9, mean: 4.2, allocationsPerFrame: 0)
        let stages = [StageStats(name: "decode", p50: 0.1, p95: 0.2, p99: 0.3, max: 0.4, mean: 0.1, allocationsPerFrame: 4),
                      StageStats(name: "layer 1: bars", p50: 3, p95: 4, p99: 5, max: 6, mean: 3)]
        let results = [
            BenchResult(name: "solid", kind: .shader, width: 1920, height: 1080, threads: 2, frames: 100, total: frame,
                        stages: [frame], fps: 238, allocationsPerFrame: 0, peakRSSMegabytes: 60),
            BenchResult(name: "spectrum", kind: .preset, width: 1280, height: 720, threads: 1, frames: 100, total: frame,
                        stages: stages, fps: 238, allocationsPerFrame: 0, peakRSSMegabytes: 70),
        ]
        var c = BenchConfiguration()
        c.frames = 100
        c.warmup = 10
        let compare = FFmpegComparisonResult(filter: "showcqt", width: 1280, height: 720, fps: 60, encoderPreset: "ultrafast",
                                             songSeconds: 10, oursSeconds: 4, ffmpegSeconds: 5, oursCPUSeconds: 7.5,
                                             ffmpegCPUSeconds: 8.25, encoderOnlySeconds: 3.2, encoderOnlyCPUSeconds: 6.5,
                                             ownPicturesSeconds: 3.6, ownPicturesCPUSeconds: 7, ownPicturesSameBytes: true, rounds: 3)
        return BenchReport(machine: MachineInfo(cpu: "Test CPU 9000", cores: 2, os: "Debian GNU/Linux 12", swiftBuild: "release"),
                           configuration: c, results: results, comparisons: [compare], allocationsCounted: counted)
    }

    @Test("JSON has a results array with the required keys and compare entries")
    func json() throws {
        let text = Self.report().json()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.count == 2)
        for entry in results {
            for key in ["name", "kind", "width", "height", "threads", "p50_ms", "p99_ms", "fps", "allocs_per_frame"] {
                #expect(entry[key] != nil, "missing \(key)")
            }
        }
        #expect(results[0]["kind"] as? String == "shader")
        #expect(results[1]["kind"] as? String == "preset")
        #expect(results[1]["p99_ms"] as? Double == 6.5)
        let stages = try #require(results[1]["stages"] as? [[String: Any]])
        #expect(stages.first?["name"] as? String == "decode")
        #expect(stages.first?["allocs_per_frame"] as? Double == 4)
        let compare = try #require(object["compare"] as? [[String: Any]])
        #expect(compare.first?["filter"] as? String == "showcqt")
        #expect(compare.first?["ratio"] as? Double == 1.25)
        #expect(compare.first?["ours_cpu_seconds"] as? Double == 7.5)
        #expect(compare.first?["ffmpeg_cpu_seconds"] as? Double == 8.25)
        #expect(compare.first?["rounds"] as? Int == 3)
        #expect(compare.first?["encoder_only_cpu_seconds"] as? Double == 6.5)
        #expect(compare.first?["share_of_ceiling"] as? Double == 0.8)
        #expect(compare.first?["share_of_own_ceiling"] as? Double == 0.9)
        #expect(compare.first?["own_pictures_same_bytes"] as? Bool == true)
        let machine = try #require(object["machine"] as? [String: Any])
        #expect(machine["cpu"] as? String == "Test CPU 9000")
    }

    @Test("without the allocation counter, allocs_per_frame is present and null")
    func jsonNotCounted() throws {
        let text = Self.report(counted: false).json()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let first = try #require((object["results"] as? [[String: Any]])?.first)
        #expect(first["allocs_per_frame"] is NSNull)
    }

    @Test("the terminal table aligns columns and indents preset stages")
    func table() {
        let lines = Self.report().table().split(separator: "\n").map(String.init)
        #expect(lines[0].contains("Test CPU 9000"))
        #expect(lines[1].hasPrefix("benchmark"))
        #expect(lines[1].contains("p50 ms") && lines[1].contains("allocs/frame") && lines[1].contains("budget"))
        let rows = lines.filter { $0.hasPrefix("solid") || $0.hasPrefix("spectrum") || $0.hasPrefix("  decode") }
        #expect(rows.count == 3)
        #expect(Set(rows.map(\.count)).count == 1, "rows have one width")
        // 4 ms of a 16.7 ms budget.
        #expect(rows[0].contains("24%"))
        #expect(lines.contains { $0.contains("showcqt") && $0.contains("ratio 1.25") })
    }

    @Test("Markdown names the machine and has one row per result and stage")
    func markdown() {
        let md = Self.report().markdown()
        #expect(md.contains("Test CPU 9000, 2 cores, Debian GNU/Linux 12"))
        #expect(md.contains("| benchmark | kind | size | threads | p50 ms |"))
        #expect(md.contains("| **solid** | shader | 1920x1080 | 2 | 4.00 |"))
        #expect(md.contains("| spectrum · decode |"))
        // ours 2.50x, FFmpeg 2.00x, ceiling 3.12x; ours / FFmpeg, ceiling / FFmpeg, ours / ceiling; the CPU seconds.
        #expect(md.contains("| ours / FFmpeg | ceiling / FFmpeg | ours / ceiling | ceiling on our pictures (x real time) | ours / that |"))
        #expect(md.contains("| showcqt | 1280x720@60 | x264 ultrafast | 2.50 | 2.00 | 3.12 | 1.25 | 1.56 | 80 % | 2.78 | 90 % | 7.5 | 8.2 | 6.5 | 7.0 |"))
        #expect(md.split(separator: "\n").filter { $0.hasPrefix("| **") || $0.hasPrefix("| spectrum ·") }.count == 4)
    }
}
