import Foundation
import MarbleAnalysis
import MarbleCore
import MarbleMedia
import MarblePipeline
import MarbleRender

/// `marble play`: one file played live, through PulseAudio (or silently) with the visualization in
/// the terminal.
///
/// Threads: the audio thread (`AudioPump`) decodes and writes to the device, whose blocking writes
/// are the master clock; the pipeline's three threads (`PlaybackFrameSource` → `FrameRenderer` →
/// `TerminalSink`, see ``run(player:)``) read the player's state snapshot and the `AudioClock` once
/// per frame; the input thread turns keys into events. Control state lives in the ``SessionComponent``
/// store, whose effects drive the audio thread; the frame path only sends it a position update four
/// times a second and the end of the media.
public final class PlayerSession {
    /// The options the session was made with, validated.
    public let options: PlayOptions
    /// What the session opens and how it draws, decided from the options.
    public let plan: SessionPlan
    private let decoder: AudioDecoder
    private let output: any AudioOutput
    /// The audio thread (started by ``run(player:)``), which follows the store's transport.
    private let pump: AudioPump

    /// Opens the file and the sound device, so that a bad file or a missing PulseAudio server fails
    /// with a one-line error before the terminal is touched.
    public convenience init(options: PlayOptions) throws(MarbleError) {
        try self.init(options: options, pacer: .system())
    }

    /// The same on `pacer`'s clock (a test clock in tests): the silent device, the audio thread's pause
    /// and the frame clock all wait on it.
    package init(options: PlayOptions, pacer: RealTimePacer) throws(MarbleError) {
        try options.validate()
        self.options = options
        plan = .play(options)
        decoder = try AudioDecoder(path: options.input)
        let wake = RealTimePacer.Wake()
        if options.noAudio {
            output = SilentAudioOutput(sampleRate: decoder.sampleRate, bufferSeconds: options.bufferSeconds, pacer: pacer,
                                       wake: wake)
        } else {
            let name = URL(fileURLWithPath: options.input).lastPathComponent
            output = try PulseAudioOutput(sampleRate: decoder.sampleRate, device: options.device, streamName: name,
                                          bufferSeconds: options.bufferSeconds)
        }
        pump = AudioPump(decoder: decoder, output: output, pacer: pacer, wake: wake)
    }

    /// The player's dependencies backed by this session: loading the file the session opened gives the
    /// duration read then (another path is an error: a session plays the one file it opened), and the
    /// audio thread follows the transport (pause, resume, seek).
    public var client: SessionClient {
        let duration = self.duration, input = options.input
        return SessionClient(load: { path in
            guard path == input else {
                throw MarbleError(.input, "\(path): this session plays \(input)")
            }
            return duration
        }, follow: { [pump] transport in pump.follow(transport) })
    }

    /// The renderer SDL chose for the window (nil without one).
    public private(set) var windowRenderer: String?

    /// Frame counts and times of the last ``run(player:)``.
    public private(set) var statistics = PlayStatistics()

    /// The file's audio duration in seconds (0 when unknown), from the decoder the session plays with.
    public var duration: Double {
        decoder.statedDuration ?? decoder.input.duration(ofStream: decoder.streamIndex) ?? 0
    }

    /// Decoder warnings gathered while playing (damaged packets), for after the terminal is restored.
    public var warnings: [String] { decoder.warnings }

    /// Plays until q, the end (unless `keepOpen`), Ctrl-C or an error. The terminal is restored on
    /// every way out. `player` must have the file loaded (status playing or paused).
    ///
    /// The real-time configuration of the `FramePipeline`: a `PlaybackFrameSource` (the sound being
    /// heard, on the monotonic frame clock) → the `FrameRenderer` (the preset chosen now, at the
    /// window's size) → a `TerminalSink`. Keys arrive on the `TerminalInput` thread.
    public func run(player: SessionComponent) throws(MarbleError) -> SessionOutcome {
        let signals = TerminalSignals()
        let pump = self.pump
        let controls = PlayerControls(player: player, clock: pump.clock)
        let onKey: @Sendable (Key) -> Void = { key in
            guard let command = PlayerCommand(key: key) else { return }
            controls.apply(command, heard: pump.clock.position(of: pump.clock.reading))
        }
        // No terminal and no window: the terminal says so (after the device was opened, so that a
        // missing sound server is the error reported first).
        let screens = try SessionScreens(plan: plan, onKey: onKey, onClose: { player.send(.controls(.quitRequested)) })
        let preset = player.snapshot.preset ?? PresetLibrary.defaultName
        let starting = try StartingScene(fixed: options.scene, chosen: preset, current: { player.snapshot.preset })
        let scene = starting.scene, fixedName = starting.fixedName
        // The starting preset says how to measure the sound (a later switch keeps this measure); the
        // analysis computes what any preset the keys can switch to reads (the spectrum, pitches).
        let source = try PlaybackFrameSource(pump: pump, player: player, sampleRate: decoder.sampleRate,
                                             fps: options.fps,
                                             configuration: AnalysisConfiguration().applying(scene.analysis),
                                             needs: PresetLibrary.featureNeeds(of: PresetLibrary.names(), with: scene))
        let renderer = try screens.renderer(starting, preset: preset, size: screens.size, fps: options.fps,
                                            threads: options.threads)
        var status = StatusLine()
        let terminal = screens.terminalSink {
            let state = player.snapshot
            let reading = pump.clock.reading
            let shown = controls.isCurrent(reading) ? pump.clock.position(of: reading) : state.position
            status.update(StatusLine.Content(
                status: state.status, second: Int(shown), duration: Int(state.duration.rounded()),
                preset: fixedName ?? state.preset ?? "-", sensitivity: state.sensitivity, fpsTenths: status.fpsTenths,
                dropped: status.dropped))
            return status.bytes
        }
        let cancel = CancellationFlag()
        let ended = player.store.subscribe { state in if state.outcome != nil { cancel.cancel() } }
        defer { ended.cancel() }
        let input = screens.input(signals: signals, onKey: onKey, onStop: { player.send(.controls(.interrupted)) })
        try screens.screen?.enter()
        pump.start(paused: player.snapshot.status != .playing)
        defer { pump.stop() }  // runs after the restore below: the terminal comes back first
        defer { screens.screen?.restore() }
        input.start()
        defer { input.stop() }
        let pipeline = FramePipeline(source: source, renderer: renderer, sinks: screens.sinks(terminal: terminal),
                                     policy: plan.policy)
        let result = try pipeline.run(cancel: cancel, progressInterval: 0.25) { s in
            status.measured(frames: s.frames, dropped: s.dropped, wallSeconds: s.wallSeconds)
        }
        statistics = PlayStatistics(pipeline: result, terminal: terminal)
        windowRenderer = screens.windowRenderer
        return player.snapshot.outcome ?? .interrupted
    }
}
