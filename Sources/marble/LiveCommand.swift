import ArgumentParser
import Foundation
import MarbleKit

struct LiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Visualize what the machine is playing (or any capture source), live: in the terminal, a window, files and streams.",
        discussion: """
            By default the sound is the monitor of PulseAudio's (or PipeWire's) default sink: whatever any \
            app is playing, not the microphone. It follows a switch of the default sink (headphones ↔ \
            speakers) unless --source names one. If the server goes away the picture goes on (silence) and \
            capture resumes by itself when it is back.

            In a terminal the picture fills the window; keys: n/p next/previous preset, +/- sensitivity, \
            q quit. --window shows it in a window of its own (SDL2; resizable, f fullscreen, the same keys).

            -o (repeatable) adds an output: a file (.mp4, .mkv, .mov, .webm: the visuals with the captured \
            sound, constant frame rate) or a stream: udp://HOST:PORT and srt://HOST:PORT (MPEG-TS), \
            rtmp://HOST/APP/KEY (FLV). All come from one render; H.264 outputs share one encoding (with a \
            stream: --bitrate, a keyframe every --keyframe seconds, x264 zerolatency). A stream that \
            stalls drops frames and reconnects by itself while the others go on. Without a terminal or \
            a window, -o is required.

            The preset's file (--preset FILE.yaml, or a bundled one) reloads when it is saved, and on \
            SIGUSR1; a save with an error keeps the last good look and shows the error. --osc PORT takes \
            OSC messages over UDP: /marble/preset NAME, /marble/next, /marble/param LAYER NAME VALUE, \
            /marble/sensitivity V, /marble/flash, /marble/milkdrop/next (see docs/CONTROL.md).

            Examples:
              marble live
              marble live --window
              marble live --list-sources
              marble live --source alsa_input.usb-mic
              marble live -o set.mp4 --size 1280x720
              marble live --window -o rtmp://127.0.0.1/live/set -o set.mp4
              marble live --preset synthwave --duration 10m -o set.mp4
              marble live --milkdrop /usr/share/projectM/presets --shuffle --switch 30s
            """)

    @Flag(name: .customLong("list-sources"), help: "List the capture sources (the default monitor marked) and exit.")
    var listSources = false

    @Option(help: ArgumentHelp("Capture source name (see --list-sources). Default: the default sink's monitor, followed when it changes.", valueName: "name"))
    var source: String?

    @Flag(help: "If no PulseAudio server is running, wait for one instead of failing.")
    var wait = false

    @OptionGroup var outputs: OutputOptions

    @Option(help: ArgumentHelp("Frame size WIDTHxHEIGHT (default: 1280x720 with an output, else the window's or the terminal's).", valueName: "WxH"))
    var size: String?

    @Option(help: ArgumentHelp("Frames per second (1–240).", valueName: "rate"))
    var fps: String = "30"

    @Option(help: ArgumentHelp("Start with this bundled preset (see `marble effects`) or a preset .yaml file, which reloads when saved.", valueName: "name|file"))
    var preset: String?

    @Option(help: ArgumentHelp("Listen for OSC control on this UDP port (127.0.0.1), or HOST:PORT (see docs/CONTROL.md).", valueName: "port"))
    var osc: String?

    @OptionGroup(title: "MilkDrop presets")
    var milkdrop: MilkDropOptions

    @Option(help: ArgumentHelp("Stop after this long, e.g. 90s, 10m, 1:30:00.", valueName: "time"))
    var duration: String?

    @Option(help: ArgumentHelp("Capture fragment in milliseconds (5–50): smaller is sooner, larger is lighter.", valueName: "ms"))
    var fragment: Double = 10

    @Option(help: ArgumentHelp("Recording quality: 0 best … 51 worst (x264's default 23).", valueName: "n"))
    var crf: Int = 23

    @Option(name: .customLong("encoder-preset"), help: ArgumentHelp("Recording encoder speed (default superfast: keeps up while drawing on two cores).", valueName: "speed"))
    var encoderPreset: String = EncoderPreset.superfast.rawValue

    @Option(name: .customLong("audio-bitrate"), help: ArgumentHelp("Recording sound bitrate in kbit/s (16–512; default 160).", valueName: "kbps"))
    var audioBitrate: Int?

    @Option(help: ArgumentHelp("Render threads (default: all cores).", valueName: "n"))
    var threads: Int = StripScheduler.availableCores

    @Flag(name: [.short, .long], help: "No summary at the end (errors still print).")
    var quiet = false

    func run() async throws {
        try await runReportingErrors {
            if listSources {
                try list()
                return
            }
            let options = try makeOptions()
            let presets = try PresetLibrary.cycle(including: options.preset)
            let session = try RealTimeSession(live: options)
            if !options.terminal && !quiet { LiveReports.reportChanges(of: session, verb: "capturing") }
            LiveReports.reportControls(of: session, terminal: options.terminal)
            let store = session.makeStore(availablePresets: presets,
                                          settings: PlayerSettings(preset: options.preset ?? PresetLibrary.defaultName))
            let outcome = try await LiveReports.runOnOwnThread(session, store)
            LiveReports.summarize(session, quiet: quiet)
            if outcome == .interrupted { throw ExitCode(130) }
        }
    }

    func list() throws(MarbleError) {
        let devices = try CaptureDevices.list()
        for d in devices {
            let mark = d.isDefaultMonitor ? "*" : " "
            let kind = d.isMonitor ? "monitor" : "input"
            Console.print("\(mark) \(d.name)\t\(kind), \(d.channels) ch, \(d.sampleRate) Hz\t\(d.description)")
        }
        if !quiet { Console.writeErr("* = the default sink's monitor (what is playing): what `marble live` captures without --source\n") }
    }

    func makeOptions() throws(MarbleError) -> LiveOptions {
        var o = LiveOptions()
        o.capture.source = source
        o.capture.waitForServer = wait
        o.capture.fragmentSeconds = try Limits.check(fragment, in: 5...50, "--fragment", unit: " ms") / 1000
        try outputs.apply(to: &o)
        if let size {
            let s = try OptionParsing.size(size)
            o.size = (s.width, s.height)
        }
        o.fps = try OptionParsing.fps(fps)
        o.preset = preset
        o.scene = try milkdrop.scene(besides: preset)
        o.osc = osc
        if let duration {
            o.duration = try OptionParsing.seconds(duration, "--duration")
        }
        o.crf = crf
        o.encoderPreset = try OptionParsing.encoderPreset(encoderPreset)
        o.audioBitrate = audioBitrate
        o.threads = threads
        o.terminal = isatty(0) == 1 && isatty(1) == 1
        return o
    }
}
