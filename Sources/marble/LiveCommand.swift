import ArgumentParser
import Foundation
import MarbleKit

struct LiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Visualize what the machine is playing (or any capture source), live, in the terminal or to a file.",
        discussion: """
            By default the sound is the monitor of PulseAudio's (or PipeWire's) default sink: whatever any \
            app is playing, not the microphone. It follows a switch of the default sink (headphones ↔ \
            speakers) unless --source names one. If the server goes away the picture goes on (silence) and \
            capture resumes by itself when it is back.

            In a terminal the picture fills the window; keys: n/p next/previous preset, +/- sensitivity, \
            q quit. With -o the visuals and the captured sound are recorded (H.264 + AAC, constant frame \
            rate) until q, Ctrl-C or --duration; without a terminal, -o is required.

            Examples:
              marble live
              marble live --list-sources
              marble live --source alsa_input.usb-mic
              marble live -o set.mp4 --size 1280x720
              marble live --preset synthwave --duration 10m -o set.mp4
            """)

    @Flag(name: .customLong("list-sources"), help: "List the capture sources (the default monitor marked) and exit.")
    var listSources = false

    @Option(help: ArgumentHelp("Capture source name (see --list-sources). Default: the default sink's monitor, followed when it changes.", valueName: "name"))
    var source: String?

    @Flag(help: "If no PulseAudio server is running, wait for one instead of failing.")
    var wait = false

    @Option(name: [.short, .long], help: ArgumentHelp("Record to this file: .mp4, .mkv, .mov or .webm.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Frame size WIDTHxHEIGHT (default: 1280x720 when recording, else the terminal).", valueName: "WxH"))
    var size: String?

    @Option(help: ArgumentHelp("Frames per second (1–240).", valueName: "rate"))
    var fps: String = "30"

    @Option(help: ArgumentHelp("Start with this bundled preset (see `marble effects`).", valueName: "name"))
    var preset: String?

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
            let session = try LiveSession(options: options)
            if !options.terminal && !quiet {
                session.onConnectionChange = { connection in
                    switch connection {
                    case .capturing(let source): Console.writeErr("marble: live: capturing \(source)\n")
                    case .reconnecting(let reason): Console.writeErr("marble: live: reconnecting (\(reason))\n")
                    case .connecting: Console.writeErr("marble: live: waiting for a PulseAudio server\n")
                    case .idle, .failed: break
                    }
                }
            }
            let outcome = try await Self.runOnOwnThread(session)
            if !quiet { summarize(session, outcome) }
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
        o.output = output
        if let size {
            let s = try OptionParsing.size(size)
            o.size = (s.width, s.height)
        }
        o.fps = try OptionParsing.fps(fps)
        o.preset = preset
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

    func summarize(_ session: LiveSession, _ outcome: LiveOutcome) {
        let s = session.statistics
        var line = String(format: "%@: %d frames in %.1f s (%.1f fps), %d dropped, %d idle",
                          session.sourceName ?? "live", s.frames, s.wallSeconds,
                          s.wallSeconds > 0 ? Double(s.frames) / s.wallSeconds : 0, s.dropped, s.idleSkipped)
        if let p50 = s.latencyPercentile(50), let p99 = s.latencyPercentile(99) {
            line += String(format: "; sound to picture %.1f ms p50, %.1f ms p99", p50, p99)
        }
        if let output = session.options.output, session.recordedBytes > 0 {
            line += " → \(output) (\(Format.bytes(session.recordedBytes)))"
        }
        Console.writeErr(line + "\n")
    }

    /// The session blocks until it ends: it gets a thread of its own, not one of the cooperative
    /// threads the store's effects run on.
    private static func runOnOwnThread(_ session: LiveSession) async throws -> LiveOutcome {
        let box = LiveSessionBox(session)
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                do throws(MarbleError) {
                    continuation.resume(returning: try box.session.run())
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}

/// Hands the session to its thread. Safety of @unchecked Sendable: after the hand-over only that
/// thread uses the session until the continuation resumes the caller, which then only reads results.
private struct LiveSessionBox: @unchecked Sendable {
    let session: LiveSession
    init(_ session: LiveSession) { self.session = session }
}
