import ArgumentParser
import Foundation
import MarbleKit

struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a media file to an audio-reactive video (or one PNG frame).",
        discussion: """
            INPUT is any file FFmpeg reads with an audio stream: mp3, ogg, opus, flac, wav, m4a, or a video \
            with sound (its own pictures become the background). The output type follows the extension: \
            .mp4 (H.264 + AAC), .mkv (H.264 + the source audio), .mov, .webm (VP9 + Opus), .png (one frame, \
            see --at). The same command always gives the same bytes.

            Examples:
              marble render song.mp3 -o song.mp4
              marble render song.flac -o out.mp4 --size 1920x1080 --fps 60 --preset spectrum
              marble render clip.mp4 -o clip-fx.mp4 --effect ink
              marble render song.ogg -o out.mp4 --background cover.png
              marble render song.mp3 -o out.mp4 --background cover --fit contain    (its embedded picture)
              marble render song.mp3 -o look.png --at 42s
              marble render song.flac -o out.mp4 --title "{artist} — {title}"
              marble render mix.flac -o part-07.mp4 --segment 7/40    (then: marble join)
              marble render song.mp3 -o out.mp4 --milkdrop "/usr/share/projectM/presets/presets_stock/Rovastar - Space.milk"

            Exit codes: 0 done, 1 bad input, 2 bad options (neither is worth retrying), 75 failed \
            while running (a write or FFmpeg failure: retry), 130 stopped.
            """)

    @Argument(help: "The media file to visualize.")
    var input: String

    @Option(name: [.short, .long], help: "Output file: .mp4, .mkv, .mov, .webm, .png, or a PNG sequence like frames/%06d.png.")
    var output: String

    @Option(help: ArgumentHelp("Frame size WIDTHxHEIGHT (even numbers).", valueName: "WxH"))
    var size: String = "1280x720"

    @Option(help: ArgumentHelp("Frames per second: 24, 25, 30, 50, 60, or a fraction like 30000/1001.", valueName: "rate"))
    var fps: String = "60"

    @Option(help: ArgumentHelp("A bundled preset name (see `marble effects`) or a path to a preset .yaml file (default: \(PresetLibrary.defaultName)).", valueName: "name|file"))
    var preset: String?

    @OptionGroup(title: "MilkDrop presets")
    var milkdrop: MilkDropOptions

    @Option(name: .customLong("effect"), help: ArgumentHelp("Add an effect kernel over the picture (repeatable), e.g. ink.", valueName: "name"))
    var effects: [String] = []

    @Option(help: ArgumentHelp("Draw a title in the lower third: text with fields from the file's tags and clock, e.g. \"{artist} — {title}\" ({album}, {elapsed}, {remaining}, any tag; \\n for a new line).", valueName: "text"))
    var title: String?

    @Option(help: ArgumentHelp("Draw synced lyrics from an .lrc file (line and word times; also .srt, .vtt): the current line, the next dimmed, karaoke for word times. Default: the input's own lyrics tag, for a `lyrics` layer.", valueName: "file"))
    var lyrics: String?

    @Option(help: ArgumentHelp("Draw captions from an .srt or .vtt file, timed to the song.", valueName: "file"))
    var captions: String?

    @Option(help: ArgumentHelp("A picture or video drawn under the visuals (a shorter video loops), or `cover`: the input's embedded cover picture (a file named cover: ./cover).", valueName: "file|cover"))
    var background: String?

    @Option(help: ArgumentHelp("How pictures of another shape fill the frame: contain (whole picture, bars) or cover (crop).", valueName: "contain|cover"))
    var fit: String = "cover"

    @Option(help: ArgumentHelp("Quality: 0 best … 51 worst for H.264 (63 for VP9); x264's default 23; 18–20 for archiving.", valueName: "n"))
    var crf: Int = 23

    @Option(name: .customLong("encoder-preset"), help: ArgumentHelp("Encoder speed: ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow.", valueName: "speed"))
    var encoderPreset: String = EncoderPreset.superfast.rawValue

    @Option(name: .customLong("audio-bitrate"), help: ArgumentHelp("Sound bitrate in kbit/s (16–512); re-encodes even sound the container could take as it is. Default: copy where possible, else 160 (96 for mono).", valueName: "kbps"))
    var audioBitrate: Int?

    @Option(help: ArgumentHelp("For a .png output: the time of the frame, as 42s, 1:23, 83.5 or 1500ms.", valueName: "time"))
    var at: String?

    @Option(help: ArgumentHelp("Threads for rendering and encoding (default: all cores).", valueName: "n"))
    var threads: Int = StripScheduler.availableCores

    @Option(help: ArgumentHelp("Number of spectrum bands the analysis produces (8–512; default: the preset's, else 64).", valueName: "n"))
    var bands: Int?

    @Option(help: ArgumentHelp("Render only piece K of N (from 1) of the frames, for a farm: a video without sound, joined by `marble join`.", valueName: "K/N"))
    var segment: String?

    @Option(help: ArgumentHelp("Render only frames FIRST to LAST (from 0, both included), like --segment.", valueName: "FIRST-LAST"))
    var frames: String?

    @Option(name: .customLong("encoder-threads"), help: ArgumentHelp("Threads of the video encoder (1–16). Fixed, not the core count, so that the bytes are the same on any machine.", valueName: "n"))
    var encoderThreads: Int = RenderOptions.defaultEncoderThreads

    @Flag(help: "Keep alpha: drop the preset's background; write .mov (ProRes 4444), .webm (VP9), .png or frames/%06d.png.")
    var transparent = false

    @Option(help: ArgumentHelp("Video codec: h264, vp9 (.webm), prores (ProRes 4444 with alpha) or qtrle (QuickTime Animation with alpha), the last two in .mov.", valueName: "name"))
    var codec: String?

    @Flag(name: [.short, .long], help: "No progress bar and no summary (errors still print).")
    var quiet = false

    @Flag(help: "After the summary, print each stage's mean busy time per frame.")
    var stats = false

    @Option(help: ArgumentHelp("Write a timeline of the render to FILE (.json, Chrome's trace format: open it in Perfetto or chrome://tracing): every thread's work and waits, per frame, with wall and CPU time; a summary per thread is printed.", valueName: "file"))
    var trace: String?

    func run() async throws {
        try await runReportingErrors {
            let options = try makeOptions()
            let interrupt = InterruptHandler()
            if let trace { try TraceFile.check(trace, input: input) }
            if trace != nil { FrameTrace.start() }
            let sinceMain = Launch.seconds
            let job = try RenderJob(options: options, cancel: interrupt.flag)
            let bar = ProgressBar(quiet: quiet)
            let summary: RenderSummary
            do throws(MarbleError) {
                summary = try job.run(cancel: interrupt.flag) { bar.update($0) }
            } catch {
                bar.clear()
                if trace != nil { _ = FrameTrace.stop() }
                throw error.asFailureWhileRunning
            }
            bar.clear()
            if let trace { try TraceFile.write(FrameTrace.stop(), to: trace, frames: summary.frames, wallSeconds: summary.wallSeconds) }
            for w in summary.warnings { Console.warning(w) }
            if !quiet {
                if let segment = summary.segment, let piece = options.segment {
                    Console.writeErr(String(format: "segment %@: frames %d-%d of %d (%@) in %.1f s: %.0f fps → %@ (%@)\n",
                                            piece.description, segment.frames.lowerBound, segment.frames.upperBound - 1, segment.of,
                                            TimeFormat.clock(summary.mediaSeconds), summary.wallSeconds, summary.framesPerSecond,
                                            summary.output, Format.bytes(summary.bytes)))
                } else if options.output.lowercased().hasSuffix(".png") && !options.output.contains("%") {
                    Console.writeErr("wrote frame at \(options.at ?? 0) s → \(summary.output) (\(Format.bytes(summary.bytes)))\n")
                } else {
                    Console.writeErr(String(format: "%@%d frames (%@) in %.1f s: %.0f fps, %.2fx real time → %@ (%@)\n",
                                            summary.cancelled ? "stopped: " : "", summary.frames, TimeFormat.clock(summary.mediaSeconds),
                                            summary.wallSeconds, summary.framesPerSecond, summary.realTimeFactor,
                                            summary.output, Format.bytes(summary.bytes)))
                }
            }
            if stats {
                Console.writeErr(String(format: "before the first frame: analysis %.2f s, replay %.2f s\n",
                                        summary.analysisSeconds, summary.replaySeconds))
                if let first = summary.firstFrameSeconds, let after = summary.afterLastFrameSeconds {
                    Console.writeErr(String(format: "first frame encoded %.3f s after main started (%.3f s after the job did); after the last frame: %.3f s (encoder flush, sound, file closed)\n",
                                            sinceMain + first, first, after))
                }
                let s = summary.stageMilliseconds
                Console.writeErr(String(format: "stages, ms per frame: decode+analysis %.2f, render %.2f, convert %.2f, encode+mux %.2f\n",
                                        s.decodeAnalysis, s.render, s.convert, s.encode))
                Console.writeErr("render by layer, ms per frame: " + s.layers.map { String(format: "%@ %.2f", $0.name, $0.milliseconds) }.joined(separator: ", ") + "\n")
            }
            if summary.cancelled { throw ExitCode(130) }
        }
    }

    func makeOptions() throws(MarbleError) -> RenderOptions {
        var o = RenderOptions(input: input, output: output)
        let frameSize = try OptionParsing.size(size)
        o.width = frameSize.width
        o.height = frameSize.height
        o.fps = try OptionParsing.fps(fps)
        o.preset = preset ?? PresetLibrary.defaultName
        o.scene = try milkdrop.scene(besides: preset)
        o.effects = effects
        o.background = background
        o.title = title
        o.lyricsFile = lyrics
        o.captionsFile = captions
        guard let f = Fit(rawValue: fit) else { throw MarbleError(.option, "--fit \(fit): expected contain or cover") }
        o.fit = f
        o.crf = crf
        o.encoderPreset = try OptionParsing.encoderPreset(encoderPreset)
        o.audioBitrate = audioBitrate
        if let at {
            o.at = try OptionParsing.seconds(at, "--at")
        }
        o.threads = threads
        o.bandCount = bands
        o.encoderThreads = encoderThreads
        o.transparent = transparent
        if let codec {
            guard let c = VideoCodec(rawValue: codec) else { throw MarbleError(.option, "--codec \(codec): expected h264, vp9, prores or qtrle") }
            o.codec = c
        }
        if segment != nil, frames != nil { throw MarbleError(.option, "--segment and --frames: give one of them") }
        if let segment { o.segment = try RenderSegment.piece(parsing: segment) }
        if let frames { o.segment = try RenderSegment.frames(parsing: frames) }
        return o
    }
}

/// Parses user-written times: "42", "42s", "42.5s", "1500ms", "10m", "1.5h", "1:23", "1:02:03".
enum TimeParser {
    static func seconds(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if t.hasSuffix("ms"), let v = Double(t.dropLast(2)) { return v / 1000 }
        if t.hasSuffix("s"), let v = Double(t.dropLast()) { return v }
        if t.hasSuffix("m"), let v = Double(t.dropLast()) { return v * 60 }
        if t.hasSuffix("h"), let v = Double(t.dropLast()) { return v * 3600 }
        if t.contains(":") {
            let parts = t.split(separator: ":").map { Double($0) }
            guard parts.count <= 3, parts.allSatisfy({ $0 != nil }) else { return nil }
            return parts.reduce(0) { $0 * 60 + $1! }
        }
        return Double(t)
    }
}
