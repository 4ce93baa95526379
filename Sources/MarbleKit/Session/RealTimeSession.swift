import Foundation
import Granite
import Synchronization
import MarbleControl
import MarbleCore
import MarbleMedia
import MarblePipeline

/// A real-time session: `marble play` (a file or a playlist, with or without outputs) and `marble live`
/// (a capture). One sound input (``SessionInput``), one set of outputs (the speakers, the terminal, a
/// window, recordings and streams, as its ``SessionPlan`` says), one store (``SessionComponent``).
///
/// It plans, then runs: `init` validates the options, decides the plan and opens the input's engine
/// (so a bad file, a missing sound server or an unknown preset fails before the terminal is touched);
/// ``run(_:)`` starts the store (the first song loads, or the capture connects), opens the screens,
/// builds the frame path (the engine's source and sinks, the renderer, the screens' sinks) and draws
/// until the store ends the session (q, Ctrl-C, the end of the media, `--duration`) or the source ends.
/// The terminal is restored, the window closed and every recording finished on every way out.
///
/// The outputs are neighbours, not a chain: one that fails (a recording on a full disk, a window whose
/// X server went away or froze, a stream that stalls) is closed on its own, its partial file removed
/// and a warning naming it kept in ``warnings`` (``lostOutputs``), while the others go on to a whole
/// end; the session fails only when every output has failed. Every stop signal `render` handles
/// (`StopSignals`) ends it like `q`, with finished recordings, except SIGUSR1, which reloads the
/// preset's file (as a save of it does: `PresetReload`). With `--osc`, a `SessionRemote` turns OSC
/// messages into the store's control events.
///
/// The engine follows the input: songs with no outputs play through the speakers with the sound card
/// as the clock and a transport (`PlayerEngine`); a capture, or songs with outputs, fill a live
/// buffer that the recordings and streams share (`LiveEngine`).
public final class RealTimeSession {
    /// What the session opens and how it draws, decided from the options.
    public let plan: SessionPlan
    /// What the session plays or captures.
    public var input: SessionInput { plan.input }
    private let fps: Rational
    private let threads: Int
    private let scene: Preset?
    private let engine: any SessionEngine
    /// Frame counts, drops and latencies of the last ``run(_:)``.
    public private(set) var statistics = PipelineStatistics()
    /// The terminal's last picture size in cells (0 without a terminal).
    public private(set) var cells = (columns: 0, rows: 0)
    /// What was heard (a capture source, the song playing), for the summary.
    public private(set) var sourceName: String?
    /// The renderer SDL chose for the window (nil without one).
    public private(set) var windowRenderer: String?
    /// Songs skipped, damaged packets, window warnings, outputs lost during the run.
    public private(set) var warnings: [String] = []
    /// The outputs (a path, a URL, "window") that failed during the last run and were closed while the
    /// others went on, one line each saying what happened.
    public private(set) var lostOutputs: [String] = []
    /// What the scenes reported (presets skipped, MilkDrop code out of its work budget).
    private var sceneWarnings: [String] = []
    /// Called (on the store's notification thread) when a capture's connection changes: capturing from
    /// a source, reconnecting.
    public var onConnectionChange: (@Sendable (SessionComponent.Connection) -> Void)?
    /// Called (on the store's notification thread) when a song starts, with its title.
    public var onSongChange: (@Sendable (String) -> Void)?
    /// Called (on the watcher's or the signal's thread) when a saved preset does not load: the last good
    /// look stays, and the message names the file and line (the status line shows it too).
    public var onPresetError: (@Sendable (String) -> Void)?
    /// Called once the OSC listener is bound (`--osc`), with its UDP port.
    public var onRemoteListening: (@Sendable (UInt16) -> Void)?
    /// Where OSC messages are listened for (`--osc`), or nil.
    private let osc: OSCListener.Address?

    /// `marble play` without outputs: the songs through the speakers (or silently), with a transport.
    /// Opens the first song and the sound device.
    /// - Throws: `.input` for a file that cannot be played, `.device` without a sound server.
    public convenience init(play options: PlayOptions) throws(MarbleError) {
        try self.init(play: options, pacer: .system())
    }

    /// The same on `pacer`'s clock (a test clock in tests): the silent device, the audio thread's pause
    /// and the frame clock all wait on it.
    package init(play options: PlayOptions, pacer: RealTimePacer) throws(MarbleError) {
        try options.validate()
        plan = .play(options)
        (fps, threads, scene) = (options.fps, options.threads, options.scene)
        osc = try options.osc.map { text throws(MarbleError) in try OSCListener.Address(parsing: text) }
        engine = try PlayerEngine(options: options, pacer: pacer)
    }

    /// `marble live`, and `marble play` with outputs: a capture, or songs at real-time pace, drawn,
    /// recorded and streamed at once.
    /// - Throws: `.option`, `.preset` for invalid options or an unknown preset, `.input` for a missing song.
    public convenience init(live options: LiveOptions) throws(MarbleError) {
        try self.init(live: options, pacer: .system())
    }

    /// The same with songs played on `pacer`'s clock (a test clock in tests).
    package init(live options: LiveOptions, pacer: RealTimePacer) throws(MarbleError) {
        try options.validate()
        if let preset = options.preset, !PresetLibrary.isPath(preset), !PresetLibrary.names().contains(preset) {
            let available = PresetLibrary.names().joined(separator: ", ")
            throw MarbleError(.preset, "unknown preset \"\(preset)\" (available: \(available))")
        }
        plan = .live(options)
        (fps, threads, scene) = (options.fps, options.threads, options.scene)
        osc = try options.osc.map { text throws(MarbleError) in try OSCListener.Address(parsing: text) }
        engine = try LiveEngine(options: options, plan: plan, pacer: pacer)
    }

    /// The store's side effects backed by this session's engine (tests drive a store with it).
    public var client: SessionClient { engine.client }

    /// The session's store over `availablePresets`, starting from `settings`, wired to this session's input.
    public func makeStore(availablePresets: [String], settings: PlayerSettings = PlayerSettings(),
                          keepOpen: Bool = false) -> SessionComponent {
        SessionComponent(input: input, availablePresets: availablePresets, settings: settings, keepOpen: keepOpen,
                         client: client)
    }

    /// The same starting from the settings in `settingsStore`, where every later change is recorded.
    public func makeStore(availablePresets: [String], settingsStore: GraniteStore<PlayerSettingsCenter>,
                          keepOpen: Bool = false) -> SessionComponent {
        SessionComponent(input: input, availablePresets: availablePresets, settingsStore: settingsStore,
                         keepOpen: keepOpen, client: client)
    }

    /// Starts `store` (made by ``makeStore(availablePresets:settings:keepOpen:)``), then draws until it
    /// ends the session or the source ends; stops the store and the input on every way out.
    /// - Throws: the input's error when it cannot start (`.input` for a song, `.device` or `.option`
    ///   for a capture), `.device` when neither a terminal nor a display can show the picture, and any
    ///   error of the frame path or its sinks.
    public func run(_ store: SessionComponent) throws(MarbleError) -> SessionOutcome {
        // Reloading on save is a convenience: a folder that cannot be watched (inotify's limit reached)
        // is a warning, not a session that does not start.
        var watchWarning: String?
        let reload: PresetReload?
        do {
            reload = try PresetReload(presets: scene == nil ? store.availablePresets : [], store: store,
                                      report: { [onPresetError] in onPresetError?($0) })
        } catch {
            reload = nil
            watchWarning = "presets will not reload on save: \(error.message)"
        }
        let remote = try osc.map { address throws(MarbleError) in
            try SessionRemote(address: address, presets: store.availablePresets, fixedScene: scene)
        }
        if let remote { onRemoteListening?(remote.port) }
        let signals = TerminalSignals(reload: { reload?.reloadCurrent() })
        engine.report(to: store)
        reload?.start()
        remote?.start(store)
        defer {
            remote?.stop()
            reload?.stop()
            store.stop()  // ends the session as interrupted if nothing else did: disconnects the input
            engine.stop()
            if let line = remote?.summary { warnings.append(line) }
            if let watchWarning { warnings.append(watchWarning) }
        }
        try startInput(store, signals: signals)
        if let outcome = store.snapshot.outcome { return outcome }
        sourceName = engine.name ?? store.snapshot.heard
        let onKey = engine.keys(store)
        let screens = try SessionScreens(plan: plan, onKey: onKey, onClose: { store.send(.controls(.quitRequested)) })
        defer {
            windowRenderer = screens.windowRenderer
            lostOutputs = Self.lostOutputLines(statistics.failedOutputs, inside: engine.lostOutputs)
            warnings = engine.warnings + store.snapshot.skipped + sceneWarnings + screens.windowWarnings + lostOutputs
        }
        guard try draw(store, screens: screens, signals: signals, onKey: onKey) else {
            return store.snapshot.outcome ?? .interrupted
        }
        // The source ran out (a paced playlist's end, `--duration`): a fact for the store. Whatever it
        // decides, this source has nothing more to draw.
        engine.sourceEnded(store: store)
        return store.snapshot.outcome ?? .ended
    }

    /// Builds the frame path and runs it until the store ends the session (false) or the source ends
    /// (true): the store's end and reports are watched, the terminal entered and its keys read, the
    /// engine started at the frame path's time 0.
    private func draw(_ store: SessionComponent, screens: SessionScreens, signals: TerminalSignals,
                      onKey: @escaping @Sendable (Key) -> Void) throws(MarbleError) -> Bool {
        let presets = PresetLibrary.names()
        let starting = try StartingScene(fixed: scene, current: { store.snapshot.sceneChoice })
        let size = screens.size
        let path = try engine.framePath(store: store, size: size, starting: starting, presets: presets)
        let renderer = try screens.renderer(starting, size: size, fps: fps, threads: threads)
        defer { sceneWarnings = renderer.warnings }
        let terminal = screens.terminalSink(status: path.status)
        let cancel = CancellationFlag()
        let ended = store.store.subscribe { state in if !state.isRunning { cancel.cancel() } }
        defer { ended.cancel() }
        let reports = watchReports(store)
        defer { reports.cancel() }
        try screens.screen?.enter()
        defer { screens.screen?.restore() }
        let input = screens.input(signals: signals, onKey: onKey, onStop: { store.send(.controls(.interrupted)) })
        input.start()
        defer { input.stop() }
        engine.start(store: store)
        let pipeline = FramePipeline(source: path.source, renderer: renderer,
                                     sinks: path.sinks + screens.sinks(terminal: terminal), policy: plan.policy,
                                     sinkFailures: .closesSink)
        do {
            statistics = try pipeline.run(cancel: cancel, progressInterval: path.progressInterval,
                                          progress: path.progress)
        } catch {
            store.send(.controls(.interrupted))
            throw error
        }
        cells = (terminal?.columns ?? 0, terminal?.rows ?? 0)
        return !cancel.isCancelled
    }

    /// One line per output lost during the run: the sinks the pipeline closed on their own, and the
    /// files an encoding dropped while its other outputs went on; each names the output.
    static func lostOutputLines(_ sinks: [PipelineStatistics.FailedOutput], inside encodings: [MarbleError]) -> [String] {
        let closed = sinks.map { $0.message.hasPrefix($0.label) ? $0.message : "\($0.label): \($0.message)" }
        return (encodings.map(\.message) + closed).map { $0 + " (closed; the other outputs went on)" }
    }

    /// Starts the store, which loads the first song or connects the capture (its `onStart`), and
    /// waits for the effect's answer (a subscription wakes this thread; Ctrl-C meanwhile ends the
    /// session). A song that cannot be loaded, or a capture that cannot connect, is thrown.
    private func startInput(_ store: SessionComponent, signals: TerminalSignals) throws(MarbleError) {
        let answered = DispatchSemaphore(value: 0)
        let watch = store.store.subscribe { state in
            if state.captureStarted || state.status.hasMedia || !state.isRunning { answered.signal() }
        }
        defer { watch.cancel() }
        store.start()
        while answered.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if signals.stopRequested { store.send(.controls(.interrupted)) }
        }
        let state = store.snapshot
        if case .failed(let kind, let message) = state.connection {
            throw MarbleError(MarbleError.Kind(rawValue: kind) ?? .device, message)
        }
        if case .failed(let message) = state.status { throw MarbleError(.input, message) }
    }

    /// Reports each change of a capture's connection to ``onConnectionChange`` and each song that
    /// starts to ``onSongChange`` (once per change).
    private func watchReports(_ store: SessionComponent) -> GraniteSubscription {
        let report = onConnectionChange, reportSong = onSongChange
        let last = Mutex<(connection: SessionComponent.Connection?, song: Int?, title: String?)>((nil, nil, nil))
        return store.store.subscribe { state in
            let (connection, song) = last.withLock { last in
                defer { last = (state.connection, state.song, state.title) }
                return (last.connection != state.connection, last.song != state.song || last.title != state.title)
            }
            if connection && state.capturing { report?(state.connection) }
            if song, let title = state.title { reportSong?(title) }
        }
    }
}

extension RealTimeSession {
    /// What `marble play` prints after a session: frames, time, cells, mean costs.
    public var playStatistics: PlayStatistics { PlayStatistics(pipeline: statistics, cells: cells) }

    /// The recordings' size in bytes after a run that recorded.
    public var recordedBytes: Int { (engine as? LiveEngine)?.recordedBytes ?? 0 }

    /// Each stream of the last run: its URL, frames dropped, reconnects.
    package var streamReports: [(url: String, snapshot: StreamStatus.Snapshot)] {
        ((engine as? LiveEngine)?.encodings ?? []).flatMap(\.streams).map { ($0.url, $0.current) }
    }

    /// Called (on a stream's thread) when a stream's state changes: sending, reconnecting.
    package var onStreamChange: (@Sendable (String, StreamStatus.State) -> Void)? {
        get { (engine as? LiveEngine)?.onStreamChange }
        set { (engine as? LiveEngine)?.onStreamChange = newValue }
    }

    /// The outputs (files, streams) the session records to.
    public var outputs: [String] { plan.outputs }
}
