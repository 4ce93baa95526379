import Granite
import MarbleAnalysis
import MarbleCore

/// The two engines that are not per-frame picture work: the audio analysis (x real time offline, ms per
/// frame live) and the Granite store (events per second, send → subscriber latency).
package enum EngineBenchmarks {
    package struct Report: Codable, Sendable {
        package struct Analysis: Codable, Sendable {
            package var audio_seconds: Double
            package var sample_rate: Int
            package var seconds: Double
            package var x_real_time: Double
            package var live_ms_per_frame: Double
        }
        package struct Store: Codable, Sendable {
            package var events_per_second: Double
            package var events_per_second_with_subscriber: Double
            package var latency_p50_us: Double
            package var latency_p99_us: Double
        }
        package var analysis: Analysis
        package var granite: Store

        /// Two human lines.
        package var summary: String {
            String(format: "analysis: %.0f s of %.1f kHz stereo in %.3f s on one core (%.0f× real time); live %.3f ms per frame\n",
                   analysis.audio_seconds, Double(analysis.sample_rate) / 1000, analysis.seconds, analysis.x_real_time,
                   analysis.live_ms_per_frame)
            + String(format: "granite: %.1f M events/s through one store (trivial reducer), %.1f M/s with a subscriber; send → subscriber p50 %.1f µs, p99 %.1f µs",
                     granite.events_per_second / 1e6, granite.events_per_second_with_subscriber / 1e6,
                     granite.latency_p50_us, granite.latency_p99_us)
        }
    }

    package static func run() async throws(MarbleError) -> Report {
        let a = try AnalysisBenchmark.run(seconds: 60, sampleRate: 44_100, repetitions: 3)
        let bare = await GraniteBenchmark.throughput(events: 2_000_000)
        let subscribed = await GraniteBenchmark.throughput(events: 500_000, subscribers: 1)
        let latency = await GraniteBenchmark.latency(samples: 5_000, warmup: 500)
        return Report(
            analysis: .init(audio_seconds: a.audioSeconds, sample_rate: a.sampleRate, seconds: a.seconds, x_real_time: a.realTimeFactor,
                            live_ms_per_frame: a.liveMillisecondsPerFrame),
            granite: .init(events_per_second: bare.eventsPerSecond, events_per_second_with_subscriber: subscribed.eventsPerSecond,
                           latency_p50_us: latency.p50Microseconds, latency_p99_us: latency.p99Microseconds))
    }
}
