import ArgumentParser
import Foundation
import MarbleKit

struct JoinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Join the pieces of a render made with --segment into one video (no re-encoding).",
        discussion: """
            Checks that the pieces belong to one render (same input, same settings) and hold every frame \
            exactly once, naming any piece that is missing, doubled or foreign; then copies their video \
            as it is and adds the sound once. The result has the one-pass render's frames and timestamps.

            Examples:
              marble join part-*.mp4 -o mix.mp4                   (the sound: the pieces' input)
              marble join part-*.mp4 --audio mix.flac -o mix.mp4
              marble join part-*.mkv --no-audio -o silent.mkv

            Exit codes: 0 done, 1 bad or incomplete pieces, 2 bad options (neither is worth retrying), \
            75 failed while writing (retry), 130 stopped.
            """)

    @Argument(help: "The pieces, in any order.")
    var pieces: [String] = []

    @Option(name: [.short, .long], help: "The joined video: .mp4, .mkv or .mov (.webm or .mkv for VP9 pieces).")
    var output: String

    @Option(help: ArgumentHelp("The sound to add: the file the pieces were rendered from (default: where their label says it is).", valueName: "file"))
    var audio: String?

    @Flag(name: .customLong("no-audio"), help: "Write the video without sound.")
    var noAudio = false

    @Option(name: .customLong("audio-bitrate"), help: ArgumentHelp("Sound bitrate in kbit/s (16–512), as for render. Default: copy where possible.", valueName: "kbps"))
    var audioBitrate: Int?

    @Flag(name: [.short, .long], help: "No summary (errors still print).")
    var quiet = false

    func run() async throws {
        try await runReportingErrors {
            var options = JoinOptions(pieces: pieces, output: output)
            options.audio = audio
            options.noAudio = noAudio
            options.audioBitrate = audioBitrate
            let interrupt = InterruptHandler()
            let job = try JoinJob(options: options)
            let summary: JoinSummary
            do throws(MarbleError) {
                summary = try job.run(cancel: interrupt.flag)
            } catch {
                throw error.asFailureWhileRunning
            }
            for w in summary.warnings { Console.warning(w) }
            if !quiet {
                Console.writeErr(String(format: "joined %d pieces: %d frames (%@)%@ in %.1f s → %@ (%@)\n",
                                        summary.pieces, summary.frames, TimeFormat.clock(summary.mediaSeconds),
                                        summary.audio.map { " + sound of \($0)" } ?? ", no sound",
                                        summary.wallSeconds, summary.output, Format.bytes(summary.bytes)))
            }
        }
    }
}
