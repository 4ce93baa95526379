import Foundation
import MarbleAnalysis
import MarbleCore
import MarbleKit
import MarbleMedia
import MarblePipeline
import MarbleRender

/// `marble bench --live`: the live configuration measured end to end on a real PulseAudio server.
///
/// A playback stream plays known signals into the default sink while `marble live`'s own pipeline
/// (capture of the default sink's monitor → causal analysis → the renderer) runs as in a session:
/// 1. **latency**: silence, then a tone, repeated. For each step the time its first sample is played
///    (the write time plus the playback latency PulseAudio reports) is compared with the time the
///    first frame that hears it is drawn: capture-to-frame-ready, display excluded;
/// 2. **pacing**: the spacing of finished frames against the frame period, and the frames dropped;
/// 3. **beats**: click tracks at several tempi; the clicks' true times come from the captured level
///    itself (a regular grid fitted to the frames where the clicks land), so no clock mapping is
///    needed. Reported: seconds until the beat tracker locks (every beat after it within ±70 ms of a
///    click), F-measure (±70 ms) after locking, and the tempo error;
/// 4. **window** (with ``Configuration/window``): the latency steps are also shown in a window, as
///    `marble live --window` does, and the time each frame's present returned gives capture → shown.
package enum LiveBench {
    package struct Configuration: Sendable {
        package var width = 1280, height = 720
        package var fps = Rational(30)
        package var preset = PresetLibrary.defaultName
        package var threads = StripScheduler.availableCores
        package var steps = 20
        /// Seconds of each click track.
        package var clickSeconds = 20.0
        package var tempi: [Double] = [96, 120, 140]
        package var fragmentSeconds = 0.010
        /// Also show the latency steps in a window (needs a display) and report capture → shown.
        package var window = false
        package init() {}
    }

    package struct BeatResult: Sendable, Codable {
        package var tempo: Double
        /// Seconds from the first click until the tracker locked (nil: never locked).
        package var lockSeconds: Double?
        package var fMeasure: Double
        package var tempoError: Double
    }

    package struct Report: Sendable, Codable {
        package var source: String
        package var size: String
        package var fps: Double
        package var fragmentMilliseconds: Double
        /// Heard → frame ready, ms (p50, p99, over the steps found): from the moment PulseAudio's
        /// playback clock says the step is heard. A monitor gets samples before they are audible (by
        /// the sink's latency), so this can be near zero.
        package var latencyP50: Double, latencyP99: Double
        /// Capture → frame ready, ms, an upper bound per step: from the arrival of the newest sample of
        /// the frame before the one that shows the step (the step arrived after it) to the ready frame.
        package var captureP50: Double, captureP99: Double
        package var stepsFound: Int, steps: Int
        /// Newest sample's arrival → frame ready (the pipeline's own share), ms.
        package var pipelineP50: Double, pipelineP99: Double
        /// |frame spacing − period|, ms.
        package var jitterP50: Double, jitterP99: Double
        package var frames: Int, dropped: Int
        /// The main analysis window, and how far its centre lags the newest sample it reads, ms.
        package var windowMilliseconds: Double, windowDelayMilliseconds: Double
        package var beats: [BeatResult]
        /// With a window: what showed the frames, and capture → shown (upper bound as above, to the
        /// return of the present), ms, over the steps whose frame (or a newer one) was shown.
        package var display: DisplayLatency?

        package var summary: String {
            var lines = [
                "live bench: \(source), \(size) at \(String(format: "%.0f", fps)) fps, capture fragment \(String(format: "%.0f", fragmentMilliseconds)) ms",
                String(format: "  capture → frame ready (upper bound): p50 %.1f ms, p99 %.1f ms over %d of %d steps",
                       captureP50, captureP99, stepsFound, steps),
                String(format: "  heard → frame ready (PulseAudio's playback clock): p50 %.1f ms, p99 %.1f ms; newest sample → frame ready: p50 %.1f ms, p99 %.1f ms",
                       latencyP50, latencyP99, pipelineP50, pipelineP99),
                String(format: "  budget: one fragment + one hop (10 ms) + one frame = %.1f ms", fragmentMilliseconds + 10 + 1000 / fps),
                String(format: "  frame pacing: |spacing − period| p50 %.2f ms, p99 %.2f ms; %d frames, %d dropped", jitterP50, jitterP99, frames, dropped),
                String(format: "  analysis window %.1f ms (its centre %.1f ms behind the newest sample; not in the figures above)",
                       windowMilliseconds, windowDelayMilliseconds),
            ]
            if let d = display {
                lines.append(String(format: "  capture → shown in the window (SDL %@, upper bound): p50 %.1f ms, p99 %.1f ms; heard → shown p50 %.1f ms, p99 %.1f ms; %d frames shown, %d missed",
                                    d.renderer, d.captureP50, d.captureP99, d.heardP50, d.heardP99, d.shown, d.missed))
            }
            for b in beats {
                lines.append(String(format: "  clicks at %.0f BPM: lock %@, F-measure (±70 ms) %.3f after lock, tempo error %.2f %%", b.tempo,
                                    b.lockSeconds.map { String(format: "%.2f s", $0) } ?? "never", b.fMeasure, b.tempoError * 100))
            }
            return lines.joined(separator: "\n")
        }
    }

    /// What `--window` adds: the window's renderer, capture → shown and heard → shown (ms), the frames
    /// the window showed and those it skipped.
    package struct DisplayLatency: Sendable, Codable {
        package var renderer: String
        package var captureP50: Double, captureP99: Double
        package var heardP50: Double, heardP99: Double
        package var shown: Int, missed: Int
    }

    /// Runs the measurement against the default PulseAudio server (its default sink and that sink's
    /// monitor). Takes about `steps` × 0.9 s + the click tracks.
    package static func run(_ c: Configuration, progress: @escaping @Sendable (String) -> Void = { _ in }) throws(MarbleError) -> Report {
        var capture = CaptureOptions()
        capture.fragmentSeconds = c.fragmentSeconds
        let input = try AudioCapture(options: capture)
        try input.start()
        defer { input.stop() }
        let source = input.sourceName ?? "default monitor"
        let rate = input.sampleRate

        progress("latency: \(c.steps) steps of silence → tone")
        let stepSignal = StepSignal(rate: rate, steps: c.steps)
        let latency = try measure(c, input: input, signal: stepSignal.samples, rate: rate, window: c.window)
        var found: [Double] = [], bound: [Double] = [], pipeline: [Double] = []
        var shownBound: [Double] = [], shownHeard: [Double] = []
        let frames = latency.frames
        for onset in stepSignal.onsets {
            guard let played = latency.playTime(ofSample: onset) else { continue }
            // The first frame drawn after the step that hears it (rms well above the silence).
            guard let k = frames.firstIndex(where: { $0.ready > played - 20_000_000 && $0.rms > 0.05 }) else { continue }
            found.append(Double(Int64(frames[k].ready) - Int64(played)) / 1e6)
            // The step's first sample arrived after the previous frame's newest one: an upper bound.
            if k > 0, frames[k - 1].arrival > 0 { bound.append(Double(frames[k].ready &- frames[k - 1].arrival) / 1e6) }
            // The first frame the window showed from that one on (a display skips to the newest).
            if let shown = latency.shown?.first(where: { $0.index >= frames[k].index }) {
                shownHeard.append(Double(Int64(shown.time) - Int64(played)) / 1e6)
                if k > 0, frames[k - 1].arrival > 0 { shownBound.append(Double(shown.time &- frames[k - 1].arrival) / 1e6) }
            }
        }
        for f in latency.frames where f.arrival > 0 { pipeline.append(Double(f.ready &- f.arrival) / 1e6) }
        let period = 1000 / c.fps.doubleValue
        var jitter: [Double] = []
        for i in 1..<max(1, latency.frames.count) where latency.frames[i].index == latency.frames[i - 1].index + 1 {
            jitter.append(abs(Double(latency.frames[i].ready &- latency.frames[i - 1].ready) / 1e6 - period))
        }

        var beats: [BeatResult] = []
        for tempo in c.tempi {
            progress("beats: clicks at \(Int(tempo)) BPM for \(Int(c.clickSeconds)) s")
            let clicks = ClickTrack(rate: rate, tempo: tempo, seconds: c.clickSeconds)
            let run = try measure(c, input: input, signal: clicks.samples, rate: rate)
            beats.append(BeatScore.score(run.frames, tempo: tempo, fps: c.fps.doubleValue))
        }
        let extractor = try FeatureExtractor(sampleRate: rate, fps: c.fps)
        let windowMs = Double(extractor.fftSize) / Double(rate) * 1000
        return Report(source: source, size: "\(c.width)x\(c.height)", fps: c.fps.doubleValue,
                      fragmentMilliseconds: c.fragmentSeconds * 1000,
                      latencyP50: percentile(found, 50), latencyP99: percentile(found, 99),
                      captureP50: percentile(bound, 50), captureP99: percentile(bound, 99),
                      stepsFound: found.count, steps: c.steps,
                      pipelineP50: percentile(pipeline, 50), pipelineP99: percentile(pipeline, 99),
                      jitterP50: percentile(jitter, 50), jitterP99: percentile(jitter, 99),
                      frames: latency.statistics.frames, dropped: latency.statistics.dropped,
                      windowMilliseconds: windowMs, windowDelayMilliseconds: windowMs / 2, beats: beats,
                      display: latency.window.map {
                          DisplayLatency(renderer: $0.renderer, captureP50: percentile(shownBound, 50), captureP99: percentile(shownBound, 99),
                                         heardP50: percentile(shownHeard, 50), heardP99: percentile(shownHeard, 99),
                                         shown: $0.shown, missed: $0.missed)
                      })
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted[max(0, min(sorted.count - 1, Int((p / 100 * Double(sorted.count - 1)).rounded())))]
    }

    /// Plays `signal` into the default sink while the live pipeline runs; returns what each frame saw.
    private static func measure(_ c: Configuration, input: AudioCapture, signal: [Float], rate: Int,
                                window: Bool = false) throws(MarbleError) -> Measurement {
        let cancel = CancellationFlag()
        let expected = Int(Double(signal.count) / Double(rate) * c.fps.doubleValue) + Int(c.fps.doubleValue)
        var display: ShownTimesSink?
        if window {
            display = ShownTimesSink(try WindowSink(title: "marble bench", size: (c.width, c.height), onKey: { _ in },
                                                    onClose: { cancel.cancel() }), capacity: expected + 64)
        }
        let source = try CaptureFrameSource(buffer: input.buffer, fps: c.fps, idleAfter: .infinity)
        let scene = try PresetLibrary.load(c.preset)
        let renderer = try FrameRenderer(scene: scene, width: c.width, height: c.height, fps: c.fps, threads: c.threads)
        let sink = MeasuringSink(capacity: expected + 64)
        let player = try SignalPlayer(rate: rate, signal: signal)
        let sinks: [any FrameSink] = [sink] + (display.map { [$0] } ?? [])
        source.startTimelineNow()
        player.start { cancel.cancel() }
        let statistics = try FramePipeline(source: source, renderer: renderer, sinks: sinks, policy: .realtime).run(cancel: cancel)
        if let e = player.finish() { throw e }
        let windowCounts = display.map { d in
            (renderer: d.window.rendererName, shown: d.times.count,
             missed: statistics.outputs.first { $0.label == d.label }?.dropped ?? 0)
        }
        return Measurement(frames: sink.frames, statistics: statistics, player: player, shown: display?.times, window: windowCounts)
    }

    struct Measurement {
        let frames: [MeasuringSink.Frame]
        let statistics: PipelineStatistics
        let player: SignalPlayer
        /// Frames the window showed, and when their present returned.
        var shown: [ShownTimesSink.Shown]? = nil
        var window: (renderer: String, shown: Int, missed: Int)? = nil
        func playTime(ofSample index: Int) -> UInt64? { player.playTime(ofSample: index) }
    }
}

/// Records what each frame saw and when it was ready, into arrays made once.
final class MeasuringSink: FrameSink {
    struct Frame: Sendable {
        var index: Int, ready: UInt64, arrival: UInt64
        var rms: Float, peak: Float, isBeat: Bool, tempo: Float
    }
    private(set) var frames: [Frame]

    init(capacity: Int) {
        frames = []
        frames.reserveCapacity(capacity)
    }

    var needs: FrameNeeds { .rgba }

    func consume(_ slot: FrameSlot) throws(MarbleError) {
        guard frames.count < frames.capacity else { return }
        let f = slot.features
        frames.append(Frame(index: slot.index, ready: slot.readyTime, arrival: slot.sourceTime,
                            rms: f.rms, peak: f.peak, isBeat: f.isBeat, tempo: f.tempo))
    }

    func finish(stopped: Bool) throws(MarbleError) {}
    func abort() {}
}

/// A window sink that notes when each frame's present returned, into an array made once.
final class ShownTimesSink: FrameSink {
    struct Shown: Sendable { var index: Int, time: UInt64 }
    let window: WindowSink
    private(set) var times: [Shown]

    init(_ window: WindowSink, capacity: Int) {
        self.window = window
        times = []
        times.reserveCapacity(capacity)
    }

    var needs: FrameNeeds { window.needs }
    var label: String { window.label }
    var showsLatestOnly: Bool { window.showsLatestOnly }

    func consume(_ slot: FrameSlot) throws(MarbleError) {
        try window.consume(slot)
        if times.count < times.capacity { times.append(Shown(index: slot.index, time: MonotonicClock.now())) }
    }

    func finish(stopped: Bool) throws(MarbleError) { try window.finish(stopped: stopped) }
    func abort() { window.abort() }
}
