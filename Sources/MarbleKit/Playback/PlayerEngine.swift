import Foundation
import Synchronization
import MarbleAnalysis
import MarbleCore
import MarbleMedia
import MarblePipeline

/// Songs heard through the speakers (or silently), the sound card being the clock: a file or a
/// playlist with a transport (space pauses, ←/→ seek within the song), `marble play` without outputs.
///
/// Threads: the audio thread (`AudioPump`) decodes and writes to the device, whose blocking writes are
/// the master clock; the frame source (`PlaybackFrameSource`) reads the store's snapshot and the
/// `AudioClock` once a frame and reports the position a few times a second and the end of each song;
/// the store's effects drive the audio thread: `load` opens a song and hands it over, `follow` pauses,
/// resumes and seeks.
final class PlayerEngine: SessionEngine {
    let options: PlayOptions
    private let songs: [String]
    private let first: AudioDecoder
    private let pump: AudioPump
    /// Whether the first song still waits for its `load` (the pump holds its decoder already).
    private let firstPending = Flag()
    /// Whether the audio thread was started (and so must be stopped).
    private var started = false

    /// Opens the first song and the sound device, so that a bad file or a missing PulseAudio server
    /// fails with a one-line error before the terminal is touched. The device runs at the first
    /// song's rate; later songs are resampled to it.
    init(options: PlayOptions, pacer: RealTimePacer) throws(MarbleError) {
        self.options = options
        songs = options.songs
        first = try AudioDecoder(path: songs[0])
        let wake = RealTimePacer.Wake()
        let output: any AudioOutput
        if options.noAudio {
            output = SilentAudioOutput(sampleRate: first.sampleRate, bufferSeconds: options.bufferSeconds, pacer: pacer,
                                       wake: wake)
        } else {
            let name = URL(fileURLWithPath: songs[0]).lastPathComponent
            output = try PulseAudioOutput(sampleRate: first.sampleRate, device: options.device, streamName: name,
                                          bufferSeconds: options.bufferSeconds)
        }
        pump = AudioPump(decoder: first, output: output, pacer: pacer, wake: wake,
                         stereo: songs.count > 1 ? true : nil)
    }

    /// Loading the first song gives the duration of the decoder opened at `init`; any other path
    /// (the next song, the first again after a loop, a file picked) is opened now and handed to the
    /// audio thread. The audio thread follows the transport.
    var client: SessionClient {
        let firstPath = songs[0], firstDuration = Self.duration(of: first), pending = firstPending, pump = pump
        return SessionClient(load: { path in
            if path == firstPath && pending.take() { return firstDuration }
            let decoder = try AudioDecoder(path: path)
            let duration = Self.duration(of: decoder)
            try Task.checkCancellation()  // a newer load replaced this one: its decoder is not played
            pump.load(decoder)
            return duration
        }, follow: { transport in pump.follow(transport) })
    }

    /// A song's audio duration in seconds (0 when unknown).
    static func duration(of decoder: AudioDecoder) -> Double {
        decoder.statedDuration ?? decoder.input.duration(ofStream: decoder.streamIndex) ?? 0
    }

    var name: String? { nil }
    var warnings: [String] { first.warnings }
    var lostOutputs: [MarbleError] { [] }

    func report(to store: SessionComponent) {}  // the frame source reports the songs' ends

    func keys(_ store: SessionComponent) -> @Sendable (Key) -> Void {
        let pump = pump
        let controls = PlayerControls(player: store, clock: pump.clock)
        return { key in
            guard let command = PlayerCommand(key: key) else { return }
            controls.apply(command, heard: pump.clock.position(of: pump.clock.reading))
        }
    }

    /// The source over the sound being heard (the starting preset says how to measure it; a later
    /// switch keeps this measure; the analysis computes what any preset the keys can switch to reads),
    /// and the status row: transport, song, position, preset, sensitivity, measured fps.
    func framePath(store: SessionComponent, size: (width: Int, height: Int), starting: StartingScene,
                   presets: [String]) throws(MarbleError) -> EnginePath {
        let pump = pump
        let source = try PlaybackFrameSource(pump: pump, player: store, sampleRate: first.sampleRate, fps: options.fps,
                                             configuration: AnalysisConfiguration().applying(starting.scene.analysis),
                                             needs: PresetLibrary.featureNeeds(of: presets, with: starting.scene))
        let controls = source.controls, fixedName = starting.fixedName, titled = songs.count > 1
        var status = StatusLine()
        return EnginePath(source: source, sinks: [], status: {
            let state = store.snapshot
            let reading = pump.clock.reading
            let shown = controls.isCurrent(reading) ? pump.clock.position(of: reading) : state.position
            status.update(StatusLine.Content(
                status: state.status, title: titled ? state.title ?? "" : "", second: Int(shown),
                duration: Int(state.duration.rounded()), preset: state.presetLabel(fixed: fixedName),
                sensitivity: state.sensitivity, fpsTenths: status.fpsTenths, dropped: status.dropped))
            return status.bytes
        }, progressInterval: 0.25, progress: { s in
            status.measured(frames: s.frames, dropped: s.dropped, wallSeconds: s.wallSeconds)
        })
    }

    func start(store: SessionComponent) {
        pump.start(paused: store.snapshot.status != .playing)
        started = true
    }

    func sourceEnded(store: SessionComponent) {}

    func stop() {
        if started { pump.stop() }
    }
}

/// A flag raised once and taken once, from any thread.
private final class Flag: Sendable {
    private let raised = Atomic<Bool>(true)
    /// Whether the flag was still raised (it is lowered now).
    func take() -> Bool { raised.exchange(false, ordering: .acquiringAndReleasing) }
}
