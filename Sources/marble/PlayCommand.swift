import ArgumentParser
import Foundation
import MarbleKit

struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a media file through PulseAudio with a live visualization in the terminal.",
        discussion: """
            The picture fills the terminal window (truecolor half blocks, two pixels per cell) and follows \
            resizes; the frame shown matches what is heard (the sound card is the clock, corrected by the \
            latency PulseAudio reports).

            Keys: space pause/resume, ←/→ seek 5 s, n/p next/previous preset, +/- sensitivity, q quit.
            The preset and sensitivity you choose are remembered in $XDG_CONFIG_HOME/marble/player.json \
            (~/.config/marble/player.json).

            Examples:
              marble play song.mp3
              marble play song.flac --device alsa_output.usb-headset --fps 60
              marble play song.ogg --no-audio
            """)

    @Argument(help: "The media file to play.")
    var input: String

    @Option(help: ArgumentHelp("PulseAudio sink to play to (default: the default sink).", valueName: "name"))
    var device: String?

    @Flag(name: .customLong("no-audio"), help: "Do not play the sound: a monotonic clock drives the position.")
    var noAudio = false

    @Option(help: ArgumentHelp("Target frames per second in the terminal.", valueName: "rate"))
    var fps: String = "30"

    @Option(help: ArgumentHelp("Start with this bundled preset (see `marble effects`); remembered.", valueName: "name"))
    var preset: String?

    @Option(help: ArgumentHelp("Render threads (default: all cores).", valueName: "n"))
    var threads: Int = StripScheduler.availableCores

    @Flag(name: .customLong("keep-open"), help: "At the end, keep showing the last frame (space plays again) instead of exiting.")
    var keepOpen = false

    func run() async throws {
        try await runReportingErrors {
            // A FIFO or pipe is opened more than once below: copied once first (kept until the end).
            let file = try InputFile(input)
            defer { withExtendedLifetime(file) {} }
            var options = PlayOptions(input: file.path)
            options.fps = try OptionParsing.fps(fps)
            options.device = device
            options.noAudio = noAudio
            options.threads = threads
            options.keepOpen = keepOpen
            let presets = PresetLibrary.names()
            if let preset, !presets.contains(preset) {
                throw MarbleError(.preset, "unknown preset \"\(preset)\" (available: \(presets.joined(separator: ", ")))")
            }
            let session = try PlayerSession(options: options)
            let client = session.client  // the session opened the file: no second probe

            let settings = PlayerSettingsStore.make()
            let player = PlayerComponent(availablePresets: presets, settingsStore: settings, client: client)
            player.start()
            defer {
                player.stop()
                settings.stop()
            }
            if let preset {
                player.send(.presetSelected(name: preset))
            } else if settings.state.preset == nil, presets.contains(PresetLibrary.defaultName) {
                player.send(.presetSelected(name: PresetLibrary.defaultName))  // first run: the default look
            }
            player.send(.fileOpened(path: file.path))
            for await state in player.store.changes() where state.status != .loading { break }
            if case .failed(let message) = player.snapshot.status { throw MarbleError(.input, message) }

            let outcome = try await Self.runOnOwnThread(session, player)
            for w in session.warnings { Console.warning(w) }
            let s = session.statistics
            Console.writeErr(String(format: "%d frames in %.1f s (%.1f fps, %d dropped) at %dx%d cells: render %.2f ms, terminal %.2f ms per frame\n",
                                    s.frames, s.seconds, s.framesPerSecond, s.dropped, s.columns, s.rows,
                                    s.meanRender, s.meanTerminal))
            if outcome == .interrupted { throw ExitCode(130) }
        }
    }

    /// The frame loop blocks between frames: it gets a thread of its own, not one of the few
    /// cooperative threads the store's effects run on.
    private static func runOnOwnThread(_ session: PlayerSession, _ player: PlayerComponent) async throws -> PlayOutcome {
        let box = SessionBox(session)
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                do throws(MarbleError) {
                    continuation.resume(returning: try box.session.run(player: player))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}

/// Hands the session to the frame loop's thread. Safety of @unchecked Sendable: after the hand-over
/// only that thread uses the session, until the continuation resumes the caller, which then only reads
/// `warnings` (the threads are ordered by the continuation).
private struct SessionBox: @unchecked Sendable {
    let session: PlayerSession
    init(_ session: PlayerSession) { self.session = session }
}
