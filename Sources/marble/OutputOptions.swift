import ArgumentParser
import Foundation
import MarbleKit

/// The outputs of a live session (`marble live`, and `marble play` with outputs): -o files and
/// streams, the window, the stream's encoding.
struct OutputOptions: ParsableArguments {
    @Option(name: [.short, .long], help: ArgumentHelp("Add an output (repeatable): a file (.mp4, .mkv, .mov, .webm) or a stream (udp://HOST:PORT, srt://HOST:PORT, rtmp://HOST/APP/KEY).", valueName: "file|url"))
    var output: [String] = []

    @Flag(help: "Show the picture in a window (resizable; f fullscreen, the same keys as the terminal).")
    var window = false

    @Flag(help: "Open the window fullscreen (implies --window).")
    var fullscreen = false

    @Option(help: ArgumentHelp("Stream bitrate in kbit/s (100–100000; default about 0.1 bit per pixel and frame: 2800 at 720p30).", valueName: "kbps"))
    var bitrate: Int?

    @Option(help: ArgumentHelp("Seconds between a stream's keyframes (0.1–60).", valueName: "seconds"))
    var keyframe: Double = 2

    func apply(to options: inout LiveOptions) throws(MarbleError) {
        options.outputs = output
        options.window = window || fullscreen
        options.fullscreen = fullscreen
        options.bitrate = bitrate
        options.keyframeSeconds = keyframe
    }
}

/// What a live session tells the user on standard error: connection and stream changes (when no
/// terminal shows the status row), and the summary at the end.
enum LiveReports {
    /// `verb`: what the session does with its source ("capturing", "playing").
    static func reportChanges(of session: RealTimeSession, verb: String) {
        session.onConnectionChange = { connection in
            switch connection {
            case .capturing(let source): Console.writeErr("marble: \(verb) \(source)\n")
            case .reconnecting(let reason): Console.writeErr("marble: live: reconnecting (\(reason))\n")
            case .connecting: Console.writeErr("marble: live: waiting for a PulseAudio server\n")
            case .idle, .failed: break
            }
        }
        session.onSongChange = { title in Console.writeErr("marble: \(verb) \(title)\n") }
        session.onStreamChange = { url, state in
            switch state {
            case .sending: Console.writeErr("marble: \(url): sending\n")
            case .reconnecting(let reason): Console.writeErr("marble: \(url): reconnecting (\(reason))\n")
            case .connecting, .closed: break
            }
        }
    }

    /// Reports what a session's controls from outside do: where OSC is listened for, and a saved preset
    /// that did not load (on stderr, unless the picture is drawn in the terminal stderr goes to: the
    /// status line shows it there).
    static func reportControls(of session: RealTimeSession, terminal: Bool) {
        let quietTerminal = terminal && isatty(2) == 1
        session.onRemoteListening = { port in
            if !quietTerminal { Console.writeErr("marble: osc: listening on UDP port \(port)\n") }
        }
        session.onPresetError = { message in
            if !quietTerminal { Console.writeErr("marble: \(message)\n") }
        }
    }

    /// The warnings, then the figures; with `quiet`, only the outputs lost during the run (a file that
    /// is missing must be named whatever the verbosity).
    static func summarize(_ session: RealTimeSession, quiet: Bool = false) {
        guard !quiet else {
            for line in session.lostOutputs { Console.warning(line) }
            return
        }
        for w in session.warnings { Console.warning(w) }
        let s = session.statistics
        var line = String(format: "%@: %d frames in %.1f s (%.1f fps), %d dropped, %d idle",
                          session.sourceName ?? "live", s.frames, s.wallSeconds,
                          s.wallSeconds > 0 ? Double(s.frames) / s.wallSeconds : 0, s.dropped, s.idleSkipped)
        if let p50 = s.latencyPercentile(50), let p99 = s.latencyPercentile(99) {
            line += String(format: "; sound to picture %.1f ms p50, %.1f ms p99", p50, p99)
        }
        Console.writeErr(line + "\n")
        if s.outputs.count > 1 {
            for o in s.outputs {
                Console.writeErr("  \(o.label): \(o.consumed) frames, \(o.dropped) missed (behind)\n")
            }
        }
        if session.recordedBytes > 0 {
            // A recording lost during the run (a full disk) is named in a warning above, not here.
            let files = session.outputs.filter { (try? StreamURL($0)) == nil && FileManager.default.fileExists(atPath: $0) }
            Console.writeErr("  recorded \(files.joined(separator: ", ")) (\(Format.bytes(session.recordedBytes)))\n")
        }
        for (url, stream) in session.streamReports {
            var text = "  \(url): \(Format.bytes(Int(stream.bytesSent))) sent, \(stream.framesDropped) frames dropped"
            if stream.reconnects > 0 {
                text += ", reconnected \(stream.reconnects) time(s)"
                if let seconds = stream.lastReconnectSeconds { text += String(format: " (last in %.1f s)", seconds) }
            }
            Console.writeErr(text + "\n")
        }
        if let renderer = session.windowRenderer { Console.writeErr("  window: SDL \(renderer) renderer\n") }
    }

    /// The session blocks until it ends: it gets a thread of its own, not one of the cooperative
    /// threads the store's effects run on.
    static func runOnOwnThread(_ session: RealTimeSession, _ store: SessionComponent) async throws -> SessionOutcome {
        let box = SessionBox(session)
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                do throws(MarbleError) {
                    continuation.resume(returning: try box.session.run(store))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}

/// Hands the session to its thread. Safety of @unchecked Sendable: after the hand-over only that
/// thread uses the session until the continuation resumes the caller, which then only reads results.
private struct SessionBox: @unchecked Sendable {
    let session: RealTimeSession
    init(_ session: RealTimeSession) { self.session = session }
}
