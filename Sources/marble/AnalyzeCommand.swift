import ArgumentParser
import Foundation
import MarbleKit

struct AnalyzeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Analyse a media file's sound: tempo, beats, onsets, loudness, pitch classes.",
        discussion: """
            Prints a summary by default. --json prints one object with duration (s), tempo (BPM), beats and \
            onsets (arrays of seconds), loudness.integrated (LUFS), loudness.range (LU), peak, dominant pitch \
            classes and chroma; --frames adds the features of every video frame at --fps, exactly the values \
            `marble render` draws with.
            """)

    @Argument(help: "The media file to analyse (any file with an audio stream).")
    var input: String

    @Option(help: ArgumentHelp("Frame rate of the per-frame features (--frames).", valueName: "rate"))
    var fps: String = "60"

    @Option(help: ArgumentHelp("Number of spectrum bands (8–512).", valueName: "n"))
    var bands: Int = 64

    @Flag(help: "Print one JSON object instead of the summary.")
    var json = false

    @Flag(help: "Add every frame's features (JSON: a `frames` array; text: one line per frame).")
    var frames = false

    func run() async throws {
        try await runReportingErrors {
            let rate = try OptionParsing.fps(fps)
            guard (8...512).contains(bands) else { throw MarbleError(.option, "--bands \(bands): must be between 8 and 512") }
            var configuration = AnalysisConfiguration()
            configuration.bandCount = bands
            // A pipe or FIFO (or `-`) is read twice below: copied once first.
            let file = try InputFile(input)
            var report = try MediaAnalysis.report(path: file.path, configuration: configuration)
            if frames {
                report.frames = try MediaAnalysis.frames(path: file.path, fps: rate, configuration: configuration, report: report)
                report.frameRate = rate.description
            }
            if json {
                let data: Data
                do { data = try report.jsonData() } catch { throw MarbleError(.output, "cannot encode the report: \(error)") }
                Console.print(String(decoding: data, as: UTF8.self))
                return
            }
            Console.print(report.summary())
            if let list = report.frames {
                Console.print("\nframe\ttime\tlevel\tbass\tmid\ttreble\tonset\tbeat\tphase")
                for (i, f) in list.enumerated() {
                    Console.print(String(format: "%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%@\t%.2f", i, f.time, f.level, f.bass,
                                         f.mid, f.treble, f.onset, f.isBeat ? "beat" : "-", f.beatPhase))
                }
            }
        }
    }
}
