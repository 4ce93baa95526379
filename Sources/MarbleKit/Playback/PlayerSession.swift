import Foundation

/// `marble play`: one file played live, through PulseAudio (or silently) with the visualization in
/// the terminal.
///
/// Threads: the audio thread (``AudioPump``) decodes and writes to the device, whose blocking writes
/// are the master clock; the frame loop (the thread that calls ``run(player:)``) reads keys, reads the
/// player's state snapshot and the ``AudioClock`` once per frame, analyses the audio being heard, and
/// draws. Control state lives in the ``PlayerComponent`` store; the loop only sends it events for keys,
/// a position update four times a second, and the end of the media.
public final class PlayerSession {
    public let options: PlayOptions
    private let decoder: AudioDecoder
    private let output: any AudioOutput

    /// Opens the file and the sound device, so that a bad file or a missing PulseAudio server fails
    /// with a one-line error before the terminal is touched.
    public init(options: PlayOptions) throws(MarbleError) {
        try options.validate()
        self.options = options
        decoder = try AudioDecoder(path: options.input)
        if options.noAudio {
            output = SilentAudioOutput(sampleRate: decoder.sampleRate, bufferSeconds: options.bufferSeconds)
        } else {
            let name = URL(fileURLWithPath: options.input).lastPathComponent
            output = try PulseAudioOutput(sampleRate: decoder.sampleRate, device: options.device, streamName: name,
                                          bufferSeconds: options.bufferSeconds)
        }
    }

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
    public func run(player: PlayerComponent) throws(MarbleError) -> PlayOutcome {
        let screen = try TerminalScreen()
        let signals = TerminalSignals()
        let visuals = try PlayerVisuals(sampleRate: decoder.sampleRate, fps: options.fps, threads: options.threads)
        let pump = AudioPump(decoder: decoder, output: output)
        try screen.enter()
        pump.start(paused: player.snapshot.status != .playing)
        defer { pump.stop() }  // runs after the restore below: the terminal comes back first
        defer { screen.restore() }
        var loop = FrameLoop(options: options, player: player, pump: pump, visuals: visuals, screen: screen,
                             signals: signals)
        defer { statistics = loop.statistics }
        return try loop.run()
    }
}

/// The frame loop's state: pacing, counters, input.
private struct FrameLoop {
    let options: PlayOptions
    let player: PlayerComponent
    let pump: AudioPump
    let visuals: PlayerVisuals
    let screen: TerminalScreen
    let signals: TerminalSignals
    let controls: PlayerControls
    var keys = KeyReader()
    var status = StatusLine()
    var statistics = PlayStatistics()

    init(options: PlayOptions, player: PlayerComponent, pump: AudioPump, visuals: PlayerVisuals,
         screen: TerminalScreen, signals: TerminalSignals) {
        self.options = options
        self.player = player
        self.pump = pump
        self.visuals = visuals
        self.screen = screen
        self.signals = signals
        controls = PlayerControls(player: player, pump: pump)
    }

    mutating func run() throws(MarbleError) -> PlayOutcome {
        let input = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 1)
        defer { input.deallocate() }
        let period = 1 / options.fps.doubleValue
        let nanos = { Double(MonotonicClock.now()) * 1e-9 }
        var next = nanos()
        let started = next
        defer { statistics.seconds = nanos() - started }
        var framesInWindow = 0, fpsTenths = 0
        var windowStart = next, lastReport = next
        var size = screen.size
        while true {
            if signals.stopRequested { return .interrupted }
            if let e = pump.error { throw e }

            // Keys: wait for one until the frame is due.
            let count = screen.read(into: input, waitingUpTo: next - nanos())
            var outcome: PlayOutcome?
            keys.feed(UnsafeRawBufferPointer(rebasing: input[0..<count])) { key in
                guard outcome == nil, let command = PlayerCommand(key: key) else { return }
                outcome = controls.apply(command, heard: pump.clock.position(of: pump.clock.reading))
            }
            if let outcome { return outcome }
            let now = nanos()
            if now < next { continue }

            // Pacing: a frame that is more than one period late is dropped, not drawn late.
            if now - next > period {
                let late = Int((now - next) / period)
                statistics.dropped += late
                next += Double(late) * period
            }
            next += period

            let reading = pump.clock.reading
            let heard = pump.clock.position(of: reading)
            let state = player.snapshot
            let current = controls.isCurrent(reading)
            if current {
                if reading.ended && state.status == .playing {
                    player.send(.reachedEnd)
                    if !options.keepOpen { return .ended }
                } else if now - lastReport >= 0.25 {
                    player.send(.positionAdvanced(to: heard))  // a few times a second
                    lastReport = now
                }
            }
            if signals.takeResized() { size = screen.size }

            try visuals.takeSamples(from: pump.handoff)
            visuals.analyse(at: heard, sensitivity: state.sensitivity)
            framesInWindow += 1
            if now - windowStart >= 1 {
                fpsTenths = Int((Double(framesInWindow) / (now - windowStart) * 10).rounded())
                framesInWindow = 0
                windowStart = now
            }
            let shownPosition = current ? heard : state.position
            status.update(StatusLine.Content(
                status: state.status, second: Int(shownPosition), duration: Int(state.duration.rounded()),
                preset: state.preset ?? "-", sensitivity: state.sensitivity, fpsTenths: fpsTenths, dropped: statistics.dropped))
            let bytes = try visuals.draw(preset: state.preset ?? PresetLibrary.defaultName, columns: size.columns,
                                         rows: max(1, size.rows - 1), status: status.bytes)
            let written = MonotonicClock.now()
            try screen.write(bytes)
            statistics.record(render: visuals.lastRenderMilliseconds, encode: visuals.lastEncodeMilliseconds,
                              write: MonotonicClock.milliseconds(since: written))
            statistics.columns = size.columns
            statistics.rows = max(1, size.rows - 1)
        }
    }
}
