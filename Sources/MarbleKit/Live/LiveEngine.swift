import Foundation
import MarbleAnalysis
import MarbleCore
import MarbleMedia
import MarblePipeline

/// A live sound buffer: what a capture source hears, or songs played at real-time pace on the system
/// clock (``LiveSoundInput``), drawn as it comes and recorded and streamed at once (`marble live`,
/// and `marble play` with outputs). The source is a `CaptureFrameSource`; each H.264 or WebM encoding
/// (``LiveOutputs``) is a sink on its own thread.
///
/// A recording or a stream has one continuous timeline, so there is no transport: the keys are the
/// shared ones. A capture's state changes and a playlist's songs are reported to the store as events;
/// connecting (or starting the songs) and disconnecting are its effects.
final class LiveEngine: SessionEngine {
    let options: LiveOptions
    let plan: SessionPlan
    private let sound: LiveSoundInput
    /// The encodings of the run (files and streams), for the summary.
    private(set) var encodings: [LiveEncodingSink] = []
    /// Called (on a stream's thread) when a stream's state changes: sending, reconnecting.
    var onStreamChange: (@Sendable (String, StreamStatus.State) -> Void)?
    private var source: CaptureFrameSource?

    /// Opens the input `options` ask for (the capture, or the songs and the speakers); nothing is
    /// captured or played until the store connects.
    init(options: LiveOptions, plan: SessionPlan, pacer: RealTimePacer) throws(MarbleError) {
        self.options = options
        self.plan = plan
        sound = try LiveSoundInput(options: options, pacer: pacer)
    }

    var client: SessionClient { sound.client }
    var name: String? { sound.name }
    var warnings: [String] { sound.warnings }

    func report(to store: SessionComponent) { sound.report(to: store) }

    func keys(_ store: SessionComponent) -> @Sendable (Key) -> Void {
        { key in if let control = ControlEvent(key: key) { store.send(.controls(control)) } }
    }

    /// The source over the sound's buffer (the starting preset says how to measure the sound; a later
    /// switch keeps this measure), the encodings, and the status row: source, preset, sensitivity,
    /// measured fps, dropped frames, latency, recording time, streams.
    func framePath(store: SessionComponent, size: (width: Int, height: Int), starting: StartingScene,
                   presets: [String]) throws(MarbleError) -> EnginePath {
        let source = try CaptureFrameSource(buffer: sound.buffer, fps: options.fps,
                                            configuration: AnalysisConfiguration().applying(starting.scene.analysis),
                                            frameLimit: options.frameLimit, lagAllowance: plan.lagAllowance,
                                            idleAfter: options.idleAfter, sensitivity: { store.snapshot.sensitivity },
                                            fromStart: sound.startsAtZero,
                                            needs: PresetLibrary.featureNeeds(of: presets, with: starting.scene))
        self.source = source
        encodings = try LiveOutputs.encodings(options: options, width: size.width, height: size.height,
                                              buffer: sound.buffer, startSample: source.startSample)
        let streams = encodings.flatMap(\.streams)
        let reportStream = onStreamChange
        for stream in streams { stream.onStateChange = { [url = stream.url] in reportStream?(url, $0) } }
        let status = LiveStatus(), fixedName = starting.fixedName
        let recording = !encodings.isEmpty, fps = options.fps
        return EnginePath(source: source, sinks: encodings, status: {
            let state = store.snapshot
            status.frameShown()
            status.update {
                $0.connection = state.heard
                $0.preset = state.presetLabel(fixed: fixedName)
                $0.sensitivity = state.sensitivity
                $0.idle = source.isIdle
                $0.streams = LiveStatus.streamSummary(streams)
            }
            return status.bytes
        }, progressInterval: 0.5, progress: { s in
            status.update {
                $0.dropped = s.dropped
                $0.latencyMilliseconds = Int((s.latencyPercentile(50) ?? 0).rounded())
                if recording { $0.recordingSeconds = Int(fps.seconds(ofFrame: s.lastIndex + 1)) }
            }
        })
    }

    /// Time 0 for the source and the recordings alike.
    func start(store: SessionComponent) {
        guard let source else { return }
        let start = source.startTimelineNow()
        for encoding in encodings { encoding.start(at: start) }
    }

    /// The source ran out: a playlist played to its end, or `--duration` was reached.
    func sourceEnded(store: SessionComponent) { store.send(sound.hasEnded ? .mediaEnded : .durationReached) }

    func stop() { sound.stop() }

    /// The outputs that failed inside an encoding shared with others (see ``LiveEncodingSink/lostOutputs``).
    var lostOutputs: [MarbleError] { encodings.flatMap(\.lostOutputs) }

    /// The recordings' size in bytes.
    var recordedBytes: Int {
        encodings.flatMap(\.files).reduce(0) {
            $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0)
        }
    }
}
