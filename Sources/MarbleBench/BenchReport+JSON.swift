import Foundation
import MarblePipeline

extension BenchReport {
    /// One JSON object: `machine`, `configuration`, `results` (one entry per benchmark with its stages)
    /// and `compare` (the FFmpeg comparisons). Times are milliseconds; keys are snake_case.
    package func json() -> String {
        let document = Document(
            machine: .init(cpu: machine.cpu, cores: machine.cores, os: machine.os, build: machine.swiftBuild, load: machine.load,
                           peak_rss_mb: results.map(\.peakRSSMegabytes).max() ?? MachineInfo.peakRSSMegabytes()),
            configuration: .init(frames: configuration.frames, warmup: configuration.warmup,
                                 fps: configuration.fps.doubleValue, budget_ms: budget, encode: configuration.encode,
                                 encoder_preset: configuration.encoderPreset.rawValue, clock: configuration.clock.rawValue,
                                 allocations_counted: allocationsCounted),
            results: results.map { r in
                Entry(name: r.name, kind: r.kind.rawValue, width: r.width, height: r.height, threads: r.threads,
                      frames: r.frames, p50_ms: r.total.p50, p95_ms: r.total.p95, p99_ms: r.total.p99,
                      max_ms: r.total.max, mean_ms: r.total.mean, fps: r.fps, budget_share: r.budgetShare(budget),
                      allocs_per_frame: allocationsCounted ? r.allocationsPerFrame : nil,
                      peak_rss_mb: r.peakRSSMegabytes, note: r.note, stages: r.stages)
            },
            compare: comparisons.map { c in
                Compare(filter: c.filter, width: c.width, height: c.height, fps: c.fps, encoder_preset: c.encoderPreset,
                        song_seconds: c.songSeconds, ours_seconds: c.oursSeconds, ffmpeg_seconds: c.ffmpegSeconds,
                        ours_speed: c.oursSpeed, ffmpeg_speed: c.ffmpegSpeed, ratio: c.ratio,
                        ours_cpu_seconds: c.oursCPUSeconds, ffmpeg_cpu_seconds: c.ffmpegCPUSeconds, rounds: c.rounds,
                        encoder_only_seconds: c.encoderOnlySeconds > 0 ? c.encoderOnlySeconds : nil,
                        encoder_only_cpu_seconds: c.encoderOnlySeconds > 0 ? c.encoderOnlyCPUSeconds : nil,
                        ratio_ceiling: c.ratioCeiling, share_of_ceiling: c.shareOfCeiling,
                        own_pictures_seconds: c.ownPicturesSeconds > 0 ? c.ownPicturesSeconds : nil,
                        own_pictures_cpu_seconds: c.ownPicturesSeconds > 0 ? c.ownPicturesCPUSeconds : nil,
                        own_pictures_same_bytes: c.ownPicturesSameBytes, share_of_own_ceiling: c.shareOfOwnCeiling)
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(document) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    // The JSON shapes; property names are the keys.
    struct Document: Encodable {
        var machine: Machine
        var configuration: Configuration
        var results: [Entry]
        var compare: [Compare]
    }
    struct Machine: Encodable {
        var cpu: String, cores: Int, os: String, build: String, load: Double?, peak_rss_mb: Double
    }
    struct Configuration: Encodable {
        var frames: Int, warmup: Int, fps: Double, budget_ms: Double, encode: Bool, encoder_preset: String, clock: String
        var allocations_counted: Bool
    }
    struct Entry: Encodable {
        var name: String, kind: String, width: Int, height: Int, threads: Int, frames: Int
        var p50_ms: Double, p95_ms: Double, p99_ms: Double, max_ms: Double, mean_ms: Double
        var fps: Double, budget_share: Double, allocs_per_frame: Double?, peak_rss_mb: Double
        var note: String?
        var stages: [StageStats]

        func encode(to encoder: Encoder) throws {
            // Written by hand so that `allocs_per_frame` is present (null) even when not counted.
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(name, forKey: .init("name")); try c.encode(kind, forKey: .init("kind"))
            try c.encode(width, forKey: .init("width")); try c.encode(height, forKey: .init("height"))
            try c.encode(threads, forKey: .init("threads")); try c.encode(frames, forKey: .init("frames"))
            try c.encode(p50_ms, forKey: .init("p50_ms")); try c.encode(p95_ms, forKey: .init("p95_ms"))
            try c.encode(p99_ms, forKey: .init("p99_ms")); try c.encode(max_ms, forKey: .init("max_ms"))
            try c.encode(mean_ms, forKey: .init("mean_ms")); try c.encode(fps, forKey: .init("fps"))
            try c.encode(budget_share, forKey: .init("budget_share"))
            try c.encode(allocs_per_frame, forKey: .init("allocs_per_frame"))
            try c.encode(peak_rss_mb, forKey: .init("peak_rss_mb"))
            try c.encodeIfPresent(note, forKey: .init("note"))
            try c.encode(stages, forKey: .init("stages"))
        }
    }
    struct Compare: Encodable {
        var filter: String, width: Int, height: Int, fps: Double, encoder_preset: String, song_seconds: Double
        var ours_seconds: Double, ffmpeg_seconds: Double, ours_speed: Double, ffmpeg_speed: Double, ratio: Double
        var ours_cpu_seconds: Double, ffmpeg_cpu_seconds: Double, rounds: Int
        var encoder_only_seconds: Double?, encoder_only_cpu_seconds: Double?, ratio_ceiling: Double?, share_of_ceiling: Double?
        var own_pictures_seconds: Double?, own_pictures_cpu_seconds: Double?, own_pictures_same_bytes: Bool?
        var share_of_own_ceiling: Double?
    }
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
