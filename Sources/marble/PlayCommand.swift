import ArgumentParser
import Foundation
import MarbleKit

struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play media with a live visualization: in the terminal or a window, or streamed and recorded.",
        discussion: """
            The picture fills the terminal window (truecolor half blocks, two pixels per cell) and follows \
            resizes; the frame shown matches what is heard (the sound card is the clock, corrected by the \
            latency PulseAudio reports).

            Keys: space pause/resume, ←/→ seek 5 s, n/p next/previous preset, +/- sensitivity, q quit.
            The preset and sensitivity you choose are remembered in $XDG_CONFIG_HOME/marble/player.json \
            (~/.config/marble/player.json). --window shows the picture in a window too (f fullscreen).

            Several songs, an M3U playlist or --loop play one after another through the speakers, with \
            the same keys: a seek stays within the song (← at its start plays it again from 0:00), and \
            the next song follows the end of each.

            With -o (files and streams, as in `marble live`) the songs play at real-time pace on the \
            system clock, with one continuous timeline (no pause, no seek). Their sound goes to the \
            outputs, and to the speakers only when --device names a sink: a visualizer channel stays \
            silent here.

            The preset's file (--preset FILE.yaml, or a bundled one) reloads when it is saved, and on \
            SIGUSR1; a save with an error keeps the last good look and shows the error. --osc PORT takes \
            OSC messages over UDP: /marble/preset NAME, /marble/next, /marble/param LAYER NAME VALUE, \
            /marble/sensitivity V, /marble/flash, /marble/milkdrop/next (see docs/CONTROL.md).

            Examples:
              marble play song.mp3
              marble play song.flac --device alsa_output.usb-headset --fps 60
              marble play song.ogg --no-audio
              marble play song.mp3 --window
              marble play song.mp3 -o udp://127.0.0.1:5000
              marble play playlist.m3u -o rtmp://server/app/key --loop
            """)

    @Argument(help: "The media files to play, or M3U playlists.")
    var inputs: [String]

    @OptionGroup var outputs: OutputOptions

    @Flag(help: "Play the songs again from the first when the last ends (with outputs: a 24/7 channel).")
    var loop = false

    @Option(help: ArgumentHelp("Frame size WIDTHxHEIGHT for outputs (default 1280x720).", valueName: "WxH"))
    var size: String?

    @Option(name: .customLong("encoder-preset"), help: ArgumentHelp("Encoder speed for outputs (default superfast).", valueName: "speed"))
    var encoderPreset: String = EncoderPreset.superfast.rawValue

    @Option(name: .customLong("audio-bitrate"), help: ArgumentHelp("Outputs' sound bitrate in kbit/s (16–512; default 160).", valueName: "kbps"))
    var audioBitrate: Int?

    @Option(help: ArgumentHelp("PulseAudio sink to play to (default: the default sink).", valueName: "name"))
    var device: String?

    @Flag(name: .customLong("no-audio"), help: "Do not play the sound: a monotonic clock drives the position.")
    var noAudio = false

    @Option(help: ArgumentHelp("Target frames per second in the terminal.", valueName: "rate"))
    var fps: String = "30"

    @Option(help: ArgumentHelp("Start with this bundled preset (see `marble effects`) or a preset .yaml file, which reloads when saved; remembered.", valueName: "name|file"))
    var preset: String?

    @Option(help: ArgumentHelp("Listen for OSC control on this UDP port (127.0.0.1), or HOST:PORT (see docs/CONTROL.md).", valueName: "port"))
    var osc: String?

    @OptionGroup(title: "MilkDrop presets")
    var milkdrop: MilkDropOptions

    @Option(help: ArgumentHelp("Render threads (default: all cores).", valueName: "n"))
    var threads: Int = StripScheduler.availableCores

    @Flag(name: .customLong("keep-open"), help: "At the end, keep showing the last frame (space plays again) instead of exiting.")
    var keepOpen = false

    func run() async throws {
        try await runReportingErrors {
            let songs = try Playlist.expand(inputs)
            if !outputs.output.isEmpty { return try await playThroughOutputs(songs) }
            // A FIFO or pipe is opened more than once (its duration, then its sound): copied once first
            // (kept until the end).
            let file = songs.count == 1 ? try InputFile(songs[0]) : nil
            defer { withExtendedLifetime(file) {} }
            let options = try playOptions(file.map { [$0.path] } ?? songs)
            let presets = try PresetLibrary.cycle(including: preset)
            let session = try RealTimeSession(play: options)
            LiveReports.reportControls(of: session, terminal: options.terminal)
            let settings = PlayerSettingsStore.make()
            defer { settings.stop() }  // writes a pending save
            let player = session.makeStore(availablePresets: presets, settingsStore: settings, keepOpen: keepOpen)
            if let preset {
                player.send(.controls(.presetSelected(name: preset)))
            } else if settings.state.preset == nil, presets.contains(PresetLibrary.defaultName) {
                player.send(.controls(.presetSelected(name: PresetLibrary.defaultName)))  // first run: the default look
            }
            let outcome = try await LiveReports.runOnOwnThread(session, player)
            for w in session.warnings { Console.warning(w) }
            let s = session.playStatistics
            let cells = s.columns > 0 ? " at \(s.columns)x\(s.rows) cells" : ""
            Console.writeErr(String(format: "%d frames in %.1f s (%.1f fps, %d dropped)%@: render %.2f ms, outputs %.2f ms per frame\n",
                                    s.frames, s.seconds, s.framesPerSecond, s.dropped, cells, s.meanRender, s.meanTerminal))
            if let renderer = session.windowRenderer { Console.writeErr("window: SDL \(renderer) renderer\n") }
            if outcome == .interrupted { throw ExitCode(130) }
        }
    }

    /// The options of songs played through the speakers (no outputs): a file, or a playlist with its
    /// transport (seek and pause work in every song).
    private func playOptions(_ songs: [String]) throws(MarbleError) -> PlayOptions {
        var options = PlayOptions(songs: songs)
        options.loop = loop
        options.fps = try OptionParsing.fps(fps)
        options.device = device
        options.noAudio = noAudio
        options.threads = threads
        options.keepOpen = keepOpen
        options.osc = osc
        options.scene = try milkdrop.scene(besides: preset)
        options.terminal = isatty(0) == 1 && isatty(1) == 1
        options.window = outputs.window || outputs.fullscreen
        options.fullscreen = outputs.fullscreen
        if outputs.bitrate != nil { throw MarbleError(.option, "--bitrate: only for streams (-o udp://…, srt://…, rtmp://…)") }
        return options
    }

    /// Outputs: the live frame path with the songs as its sound, at real-time pace (one continuous
    /// timeline for the recordings and streams, so no transport).
    private func playThroughOutputs(_ songs: [String]) async throws {
        var o = LiveOptions()
        o.sound = .playlist(paths: songs, loop: loop)
        if !noAudio && (outputs.output.isEmpty || device != nil) { o.speakers = LiveOptions.Speakers(device: device) }
        try outputs.apply(to: &o)
        o.fps = try OptionParsing.fps(fps)
        if let size {
            let s = try OptionParsing.size(size)
            o.size = (s.width, s.height)
        }
        o.preset = preset
        o.scene = try milkdrop.scene(besides: preset)
        o.osc = osc
        o.threads = threads
        o.encoderPreset = try OptionParsing.encoderPreset(encoderPreset)
        o.audioBitrate = audioBitrate
        o.terminal = isatty(0) == 1 && isatty(1) == 1
        o.idleAfter = .infinity  // a song's quiet passage is part of the show
        let presets = try PresetLibrary.cycle(including: preset)
        let session = try RealTimeSession(live: o)
        if !o.terminal { LiveReports.reportChanges(of: session, verb: "playing") }
        LiveReports.reportControls(of: session, terminal: o.terminal)
        let store = session.makeStore(availablePresets: presets,
                                      settings: PlayerSettings(preset: o.preset ?? PresetLibrary.defaultName))
        let outcome = try await LiveReports.runOnOwnThread(session, store)
        LiveReports.summarize(session)
        if outcome == .interrupted { throw ExitCode(130) }
    }
}
