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
/// Control state (connection, preset, sensitivity, outcome) lives in a ``LiveComponent``: connecting
/// is its effect, the capture's state changes and the keys are its events, and the session ends when
/// an outcome is reduced (q, Ctrl-C, `--duration`). The frame path reads its snapshot once a frame.
public final class LiveSession {
    /// The options the session was made with, validated.
    public let options: LiveOptions
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
    public var onConnectionChange: (@Sendable (LiveComponent.Connection) -> Void)?

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
    }

    /// Connects, then draws until q, Ctrl-C, `--duration`, the end of a playlist or an error; the
    /// terminal is restored, the window closed and every recording finished (or removed, after an
    /// error) on every way out.
    /// - Throws: `.device` when no PulseAudio server runs (without `--wait`) or no display can show the
    ///   window, `.option` for an unknown source (naming the available ones), `.output` for a stream
    ///   that cannot connect, and any error of the pipeline or its sinks.
    public func run() throws(MarbleError) -> LiveOutcome {
        let presets = PresetLibrary.names()
        let sound = try LiveSoundInput(options: options, pacer: pacer)
        let live = LiveComponent(availablePresets: presets, requestedSource: options.capture.source,
                                 preset: options.preset ?? PresetLibrary.defaultName, client: sound.client)
        sound.observe { live.send(.captureChanged($0)) }
        let signals = TerminalSignals()
        defer {
            live.stop()  // ends the session as interrupted if nothing else did: disconnects the sound
            sound.stop()
        }
        try connect(live, signals: signals)
        if let outcome = live.snapshot.outcome { return outcome }
        sourceName = sound.name ?? live.snapshot.connection.summary

        let screen = options.terminal ? try TerminalScreen() : nil
        let grid = screen.map { TerminalGrid(screen: $0) }
        let onKey: @Sendable (Key) -> Void = { key in if let event = LiveComponent.Event(key: key) { live.send(event) } }
        let window = options.window
            ? try WindowSink(title: "marble", size: options.size ?? (1280, 720), fullscreen: options.fullscreen,
                             onKey: onKey, onClose: { live.send(.quitRequested) })
            : nil
        // Shown only (no encoding, no --size), the picture follows the window, else the terminal.
        let follows = options.size == nil && options.outputs.isEmpty
        var sizing: (@Sendable () -> (width: Int, height: Int))?
        if follows, let window {
            sizing = window.sizing
        } else if follows, let grid {
            sizing = { grid.pixels }
        }
        let size = options.size ?? (follows ? sizing?() : nil) ?? (1280, 720)
        let preset = live.snapshot.preset ?? PresetLibrary.defaultName
        let starting = try StartingScene(fixed: options.scene, chosen: preset, current: { live.snapshot.preset })
        let scene = starting.scene, fixedName = starting.fixedName
        let renderer = try FrameRenderer(scene: scene, width: size.width, height: size.height, fps: options.fps,
                                         threads: options.threads, selection: starting.selection, selected: preset,
                                         sizing: sizing)
        // How far the source may fall behind before it drops frames. Nobody watching (outputs alone):
        // half a second. Watched alone: not at all (a frame shown late is worse than one skipped).
        // Watched and recorded or streamed: a tenth of a second, so a moment's contention (the window's
        // present, the encoder) costs the recording no frame; the window's worker still skips to the
        // newest frame when it is behind.
        let watched = screen != nil || window != nil
        let recorded = !options.outputs.isEmpty
        let lagAllowance = !watched ? Int(options.fps.doubleValue / 2) : recorded ? max(1, Int(options.fps.doubleValue / 10)) : 0
        // The starting preset says how to measure the sound (a later switch keeps this measure).
        let source = try CaptureFrameSource(buffer: sound.buffer, fps: options.fps,
                                            configuration: AnalysisConfiguration().applying(scene.analysis),
                                            frameLimit: options.frameLimit,
                                            lagAllowance: lagAllowance,
                                            idleAfter: options.idleAfter, sensitivity: { live.snapshot.sensitivity },
                                            fromStart: sound.startsAtZero,
                                            needs: PresetLibrary.featureNeeds(of: presets, with: scene))
        var sinks: [any FrameSink] = []
        let encodings = try LiveOutputs.encodings(options: options, width: size.width, height: size.height,
                                                  buffer: sound.buffer, startSample: source.startSample)
        self.encodings = encodings
        sinks += encodings as [any FrameSink]
        if let window { sinks.append(window) }
        let streams = encodings.flatMap(\.streams)
        let status = LiveStatus()
        if let screen, let grid {
            sinks.append(TerminalSink(screen: screen, grid: grid) {
                let state = live.snapshot
                status.frameShown()
                status.update {
                    $0.connection = state.connection.summary
                    $0.preset = fixedName ?? state.preset ?? "-"
                    $0.sensitivity = state.sensitivity
                    $0.idle = source.isIdle
                    $0.streams = LiveStatus.streamSummary(streams)
                }
                return status.bytes
            })
        }
        let reportStream = onStreamChange
        for stream in streams { stream.onStateChange = { [url = stream.url] in reportStream?(url, $0) } }

        let cancel = CancellationFlag()
        let ended = live.store.subscribe { state in if !state.isRunning { cancel.cancel() } }
        defer { ended.cancel() }
        let report = onConnectionChange
        let lastConnection = Mutex<LiveComponent.Connection?>(nil)
        let connections = live.store.subscribe { state in
            let changed = lastConnection.withLock { last in
                defer { last = state.connection }
                return last != state.connection
            }
            if changed { report?(state.connection) }
        }
        defer { connections.cancel() }
        try screen?.enter()
        defer { screen?.restore() }
        let input = TerminalInput(screen: screen, grid: grid, signals: signals, onKey: onKey,
                                  onStop: { live.send(.interrupted) })
        input.start()
        defer { input.stop() }

        // Everything is open: time 0 is now, for the source and the recordings alike.
        let start = source.startTimelineNow()
        for encoding in encodings { encoding.start(at: start) }
        let pipeline = FramePipeline(source: source, renderer: renderer, sinks: sinks,
                                     policy: watched ? .realtime : .realtimeBuffered)
        let recording = !encodings.isEmpty
        do {
            statistics = try pipeline.run(cancel: cancel, progressInterval: 0.5) { s in
                status.update {
                    $0.dropped = s.dropped
                    $0.latencyMilliseconds = Int((s.latencyPercentile(50) ?? 0).rounded())
                    if recording { $0.recordingSeconds = Int(self.options.fps.seconds(ofFrame: s.lastIndex + 1)) }
                }
            }
        } catch {
            live.send(.interrupted)
            throw error
        }
        windowRenderer = window?.rendererName
        warnings = sound.warnings + (window?.warnings ?? [])
        if !cancel.isCancelled { live.send(.durationReached) }  // --duration, or the playlist's end
        recordedBytes = encodings.flatMap(\.files).reduce(0) {
            $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0)
        }
        return live.snapshot.outcome ?? .interrupted
    }

    /// Starts the component, which connects the capture (its `onStart`), and waits for the connect effect's answer
    /// (a subscription wakes this thread; Ctrl-C meanwhile ends the session).
    private func connect(_ live: LiveComponent, signals: TerminalSignals) throws(MarbleError) {
        let answered = DispatchSemaphore(value: 0)
        let watch = live.store.subscribe { state in
            if state.captureStarted || !state.isRunning { answered.signal() }
        }
        defer { watch.cancel() }
        live.start()
        while answered.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if signals.stopRequested { live.send(.interrupted) }
        }
        if case .failed(let kind, let message) = live.snapshot.connection {
            throw MarbleError(MarbleError.Kind(rawValue: kind) ?? .device, message)
        }
    }
}
