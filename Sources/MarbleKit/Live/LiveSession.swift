import Foundation
import Granite
import Synchronization
import MarbleAnalysis
import MarbleCore
import MarbleMedia
import MarblePipeline
import MarbleRender

/// `marble live`: what the machine is playing (or any capture source), visualised as it plays, in the
/// terminal, a window, recordings and streams at once; and `marble play` with outputs, which plays a
/// playlist at real-time pace the same way (``LiveOptions/SoundInput``). The live configuration of the
/// `FramePipeline`: `CaptureFrameSource` → `FrameRenderer` (the preset chosen now) → any of
/// `TerminalSink`, `WindowSink` and `LiveEncodingSink`s (each on its own thread), real-time policy.
///
/// Control state (connection, preset, sensitivity, outcome) lives in a ``SessionComponent``: connecting
/// is its effect, the capture's state changes and the keys are its events, and the session ends when
/// an outcome is reduced (q, Ctrl-C, `--duration`). The frame path reads its snapshot once a frame.
public final class LiveSession {
    /// The options the session was made with, validated.
    public let options: LiveOptions
    /// What the session opens and how it draws, decided from the options.
    public let plan: SessionPlan
    /// The clock a playlist is played on.
    private let pacer: RealTimePacer
    /// Frame counts, drops and latencies of the last ``run()``.
    public private(set) var statistics = PipelineStatistics()
    /// The source that was captured (for the summary).
    public private(set) var sourceName: String?
    /// The recordings' size in bytes after a run that recorded.
    public private(set) var recordedBytes = 0
    /// The encodings of the last run (files and streams), for the summary.
    private var encodings: [LiveEncodingSink] = []
    /// The renderer SDL chose for the window (nil without one).
    public private(set) var windowRenderer: String?
    /// Songs skipped, window warnings.
    public private(set) var warnings: [String] = []
    /// Called (on a stream's thread) when a stream's state changes: sending, reconnecting.
    package var onStreamChange: (@Sendable (String, StreamStatus.State) -> Void)?

    /// Each stream of the last run: its URL, frames dropped, reconnects.
    package var streamReports: [(url: String, snapshot: StreamStatus.Snapshot)] {
        encodings.flatMap(\.streams).map { ($0.url, $0.current) }
    }
    /// Called (on the store's notification thread) when the connection changes: capturing from a
    /// source, reconnecting. A session without a terminal reports these lines on standard error.
    public var onConnectionChange: (@Sendable (SessionComponent.Connection) -> Void)?
    /// Called (on the store's notification thread) when a playlist's song starts, with its title.
    public var onSongChange: (@Sendable (String) -> Void)?

    /// Validates `options` and checks the preset name; nothing is captured, opened or drawn until `run()`.
    ///
    /// - Throws: `MarbleError` (`.option`, `.preset`) for invalid options or an unknown preset.
    public convenience init(options: LiveOptions) throws(MarbleError) {
        try self.init(options: options, pacer: .system())
    }

    /// The same with a playlist played on `pacer`'s clock (a test clock in tests).
    package init(options: LiveOptions, pacer: RealTimePacer) throws(MarbleError) {
        try options.validate()
        if let preset = options.preset, !PresetLibrary.names().contains(preset) {
            throw MarbleError(.preset, "unknown preset \"\(preset)\" (available: \(PresetLibrary.names().joined(separator: ", ")))")
        }
        self.options = options
        self.pacer = pacer
        plan = .live(options)
    }

    /// Connects, then draws until q, Ctrl-C, `--duration`, the end of a playlist or an error; the
    /// terminal is restored, the window closed and every recording finished (or removed, after an
    /// error) on every way out.
    /// - Throws: `.device` when no PulseAudio server runs (without `--wait`) or no display can show the
    ///   window, `.option` for an unknown source (naming the available ones), `.output` for a stream
    ///   that cannot connect, and any error of the pipeline or its sinks.
    public func run() throws(MarbleError) -> SessionOutcome {
        let presets = PresetLibrary.names()
        let sound = try LiveSoundInput(options: options, pacer: pacer)
        let live = SessionComponent(input: options.input, availablePresets: presets,
                                    settings: PlayerSettings(preset: options.preset ?? PresetLibrary.defaultName),
                                    client: sound.client)
        sound.report(to: live)
        let signals = TerminalSignals()
        defer {
            live.stop()  // ends the session as interrupted if nothing else did: disconnects the sound
            sound.stop()
        }
        try connect(live, signals: signals)
        if let outcome = live.snapshot.outcome { return outcome }
        sourceName = sound.name ?? live.snapshot.heard

        let onKey: @Sendable (Key) -> Void = { key in if let control = ControlEvent(key: key) { live.send(.controls(control)) } }
        let screens = try SessionScreens(plan: plan, onKey: onKey, onClose: { live.send(.controls(.quitRequested)) })
        let path = try framePath(screens: screens, live: live, sound: sound, presets: presets)
        defer {
            windowRenderer = screens.windowRenderer
            warnings = sound.warnings + screens.windowWarnings
        }
        try draw(path, screens: screens, live: live, signals: signals, onKey: onKey)
        if path.cancel.isCancelled == false { live.send(sound.hasEnded ? .mediaEnded : .durationReached) }  // the source's facts
        recordedBytes = encodings.flatMap(\.files).reduce(0) {
            $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0)
        }
        return live.snapshot.outcome ?? .interrupted
    }

    /// What one run draws with: the source, the renderer, the sinks, the status row, and the flag
    /// that ends the frame path.
    private struct FramePath {
        let source: CaptureFrameSource
        let renderer: FrameRenderer
        let sinks: [any FrameSink]
        let status: LiveStatus
        let cancel = CancellationFlag()
    }

    /// Builds the frame path of the plan: the source over the sound's buffer (the starting preset says
    /// how to measure the sound; a later switch keeps this measure), the renderer, the encodings, the
    /// window and the terminal with its status row.
    private func framePath(screens: SessionScreens, live: SessionComponent, sound: LiveSoundInput,
                           presets: [String]) throws(MarbleError) -> FramePath {
        let preset = live.snapshot.preset ?? PresetLibrary.defaultName
        let starting = try StartingScene(fixed: options.scene, chosen: preset, current: { live.snapshot.preset })
        let size = screens.size
        let renderer = try screens.renderer(starting, preset: preset, size: size, fps: options.fps, threads: options.threads)
        let source = try CaptureFrameSource(buffer: sound.buffer, fps: options.fps,
                                            configuration: AnalysisConfiguration().applying(starting.scene.analysis),
                                            frameLimit: options.frameLimit, lagAllowance: plan.lagAllowance,
                                            idleAfter: options.idleAfter, sensitivity: { live.snapshot.sensitivity },
                                            fromStart: sound.startsAtZero,
                                            needs: PresetLibrary.featureNeeds(of: presets, with: starting.scene))
        encodings = try LiveOutputs.encodings(options: options, width: size.width, height: size.height,
                                              buffer: sound.buffer, startSample: source.startSample)
        let streams = encodings.flatMap(\.streams)
        let reportStream = onStreamChange
        for stream in streams { stream.onStateChange = { [url = stream.url] in reportStream?(url, $0) } }
        let status = LiveStatus(), fixedName = starting.fixedName
        let terminal = screens.terminalSink {
            let state = live.snapshot
            status.frameShown()
            status.update {
                $0.connection = state.heard
                $0.preset = fixedName ?? state.preset ?? "-"
                $0.sensitivity = state.sensitivity
                $0.idle = source.isIdle
                $0.streams = LiveStatus.streamSummary(streams)
            }
            return status.bytes
        }
        // Outputs first, then the window, then the terminal.
        var sinks: [any FrameSink] = encodings
        if let window = screens.window { sinks.append(window) }
        if let terminal { sinks.append(terminal) }
        return FramePath(source: source, renderer: renderer, sinks: sinks, status: status)
    }

    /// Runs the frame path until the store ends the session or the source ends: the store's end and
    /// connection changes are watched, the terminal entered and its keys read, time 0 set for the
    /// source and the recordings alike.
    private func draw(_ path: FramePath, screens: SessionScreens, live: SessionComponent, signals: TerminalSignals,
                      onKey: @escaping @Sendable (Key) -> Void) throws(MarbleError) {
        let cancel = path.cancel
        let ended = live.store.subscribe { state in if !state.isRunning { cancel.cancel() } }
        defer { ended.cancel() }
        let connections = watchConnection(live)
        defer { connections.cancel() }
        try screens.screen?.enter()
        defer { screens.screen?.restore() }
        let input = screens.input(signals: signals, onKey: onKey, onStop: { live.send(.controls(.interrupted)) })
        input.start()
        defer { input.stop() }

        let start = path.source.startTimelineNow()
        for encoding in encodings { encoding.start(at: start) }
        let pipeline = FramePipeline(source: path.source, renderer: path.renderer, sinks: path.sinks, policy: plan.policy)
        let recording = !encodings.isEmpty, fps = options.fps, status = path.status
        do {
            statistics = try pipeline.run(cancel: cancel, progressInterval: 0.5) { s in
                status.update {
                    $0.dropped = s.dropped
                    $0.latencyMilliseconds = Int((s.latencyPercentile(50) ?? 0).rounded())
                    if recording { $0.recordingSeconds = Int(fps.seconds(ofFrame: s.lastIndex + 1)) }
                }
            }
        } catch {
            live.send(.controls(.interrupted))
            throw error
        }
    }

    /// Reports each change of the connection to ``onConnectionChange`` and each song that starts to
    /// ``onSongChange`` (once per change).
    private func watchConnection(_ live: SessionComponent) -> GraniteSubscription {
        let report = onConnectionChange, reportSong = onSongChange
        let last = Mutex<(connection: SessionComponent.Connection?, song: Int?, title: String?)>((nil, nil, nil))
        return live.store.subscribe { state in
            let (connection, song) = last.withLock { last in
                defer { last = (state.connection, state.song, state.title) }
                return (last.connection != state.connection, last.song != state.song || last.title != state.title)
            }
            if connection && state.capturing { report?(state.connection) }
            if song, let title = state.title { reportSong?(title) }
        }
    }

    /// Starts the component, which connects the capture (its `onStart`), and waits for the connect effect's answer
    /// (a subscription wakes this thread; Ctrl-C meanwhile ends the session).
    private func connect(_ live: SessionComponent, signals: TerminalSignals) throws(MarbleError) {
        let answered = DispatchSemaphore(value: 0)
        let watch = live.store.subscribe { state in
            if state.captureStarted || state.status == .playing || !state.isRunning { answered.signal() }
        }
        defer { watch.cancel() }
        live.start()
        while answered.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if signals.stopRequested { live.send(.controls(.interrupted)) }
        }
        if case .failed(let kind, let message) = live.snapshot.connection {
            throw MarbleError(MarbleError.Kind(rawValue: kind) ?? .device, message)
        }
        if case .failed(let message) = live.snapshot.status { throw MarbleError(.input, message) }
    }
}
