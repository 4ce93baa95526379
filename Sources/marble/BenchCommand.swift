import ArgumentParser
import Foundation
import MarbleBench
import MarbleKit

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure every shader, preset and the whole pipeline: frame-time percentiles, fps, allocations.",
        discussion: """
            Renders a fixed synthetic song (tones and 120 BPM kicks, analysed by the real feature extractor) \
            without encoding, or with --encode through x264 too, and reports per stage p50/p95/p99/max in ms, \
            fps, the share of the frame budget (16.7 ms at 60 fps) and mallocs per frame. Build with \
            `swift build -c release` first: debug timings mean nothing.

            Examples:
              marble bench
              marble bench --size 1920x1080 --threads 1 --threads 2 --filter bars
              marble bench --encode --json > bench.json
              marble bench --markdown
              marble bench --compare-ffmpeg   (720p, 1080p and 2160p; --size for others)
              marble bench --guard            (CI: exits 1 on a regression against Tests/Bench/baseline.json)
              marble bench --write-baseline   (after a deliberate change in cost)
              marble bench --engines          (audio analysis and Granite store throughput)
              marble bench --live             (live mode on the running PulseAudio: latency, pacing, beat lock)
              marble bench --control          (OSC message or saved preset → the first frame that shows it)
            """)

    @Option(help: ArgumentHelp("Frame size WIDTHxHEIGHT (repeatable; default 1280x720 and 1920x1080).", valueName: "WxH"))
    var size: [String] = []

    @Option(help: ArgumentHelp("Render threads (repeatable; default: all cores).", valueName: "n"))
    var threads: [Int] = []

    @Option(help: ArgumentHelp("Measured frames per benchmark.", valueName: "n"))
    var frames: Int = 240

    @Option(help: ArgumentHelp("What frame times are read from: wall (default), or thread-cpu, the render thread's CPU time (blind to time it spent preempted on a busy machine; one render thread only: --threads 1).", valueName: "clock"))
    var clock: String = BenchClock.wall.rawValue

    @Option(help: ArgumentHelp("Frames rendered before measuring.", valueName: "n"))
    var warmup: Int = 30

    @Option(help: ArgumentHelp("Frame rate of the media time and of the budget.", valueName: "rate"))
    var fps: String = "60"

    @Option(help: ArgumentHelp("Only benchmarks whose name contains this text.", valueName: "text"))
    var filter: String?

    @Option(help: ArgumentHelp("Only these kinds (repeatable): shader, preset, milkdrop (a fixed set of Debian's MilkDrop presets, when projectm-data is installed), pipeline.", valueName: "kind"))
    var kind: [String] = []

    @Flag(help: "Also encode (x264) in the preset benchmarks, and time the whole pipeline (RenderJob → MP4).")
    var encode = false

    @Option(name: .customLong("encoder-preset"), help: ArgumentHelp("x264 speed for --encode and --compare-ffmpeg.", valueName: "speed"))
    var encoderPreset: String = EncoderPreset.ultrafast.rawValue

    @Option(help: ArgumentHelp("x264 quality for --encode and --compare-ffmpeg.", valueName: "n"))
    var crf: Int = 20

    @Flag(help: "Print one JSON object (results, compare) instead of the table.")
    var json = false

    @Flag(help: "Print the Markdown table docs/BENCHMARKS.md carries (with the machine).")
    var markdown = false

    @Option(name: .customLong("save-json"), help: ArgumentHelp("Also write the JSON object to this file.", valueName: "path"))
    var saveJSON: String?

    @Flag(name: .customLong("compare-ffmpeg"), help: "Only compare: time the same song → MP4 job through ffmpeg's showcqt, showfreqs and showwaves, alternating with ours (skipped when ffmpeg is missing).")
    var compareFFmpeg = false

    @Option(name: .customLong("compare-seconds"), help: ArgumentHelp("Length of the song for --compare-ffmpeg.", valueName: "s"))
    var compareSeconds: Double = 10

    @Option(name: .customLong("compare-rounds"), help: ArgumentHelp("Alternating rounds for --compare-ffmpeg (the median counts).", valueName: "n"))
    var compareRounds: Int = 3

    @Option(name: .customLong("min-ceiling-share"), help: ArgumentHelp("With --compare-ffmpeg: fail when our render reaches less than this share (0–1) of the encoders alone's speed at any size: the CI guard of a render at its encoder's ceiling, a ratio within one alternating run.", valueName: "share"))
    var minCeilingShare: Double?

    @Option(name: .customLong("min-own-ceiling-share"), help: ArgumentHelp("With --compare-ffmpeg: the same against the encoders alone on our own pictures (our frames drawn beforehand, only the encoding timed): what the pipeline around the encoder costs.", valueName: "share"))
    var minOwnCeilingShare: Double?

    @Option(name: .customLong("compare-filter"), help: ArgumentHelp("With --compare-ffmpeg: only this FFmpeg filter (repeatable): showcqt, showfreqs or showwaves (default: all three).", valueName: "name"))
    var compareFilters: [String] = []

    @Flag(name: .customLong("guard"), help: "Regression guard: 0 allocations per frame in the render path, and kernel costs relative to a trivial reference kernel within the baseline's margin; exits 1 otherwise.")
    var runGuard = false

    @Flag(name: .customLong("write-baseline"), help: "Measure as --guard does and write the baseline file.")
    var writeBaseline = false

    @Option(help: ArgumentHelp("The guard's baseline file.", valueName: "path"))
    var baseline: String = Baseline.defaultPath

    @Flag(name: [.short, .long], help: "No progress lines on stderr.")
    var quiet = false

    @Flag(help: "Only the engines: audio analysis (x real time offline, ms per frame live) and the Granite store (events/s, latency).")
    var engines = false

    @Flag(help: "Only live mode, on the running PulseAudio server: capture-to-frame latency (step signal), frame pacing, drops, and beat lock on click tracks played into the default sink.")
    var live = false

    @Flag(help: "With --live: also show the frames in a window, as `marble live --window` does, and report capture → shown (needs a display).")
    var window = false

    @Flag(help: "Only the controls from outside: an OSC message on loopback, or a preset file saved, to the end of the first frame drawn with the change (p50/p99 over 30 sends each).")
    var control = false

    @Option(name: .customLong("live-seconds"), help: ArgumentHelp("Length of each click track for --live.", valueName: "s"))
    var liveSeconds: Double = 20

    func run() async throws {
        try await runReportingErrors {
            if live { try runLive(); return }
            if control { try runControl(); return }
            AllocationPreload.reexecIfNeeded()
            if runGuard || writeBaseline { try guardOrWriteBaseline(); return }
            if engines {
                let report = try await EngineBenchmarks.run()
                if json {
                    printJSON(report)
                } else {
                    Console.print(report.summary)
                }
                return
            }
            let configuration = try makeConfiguration()
            if !AllocationCounter.isCounting && !quiet {
                Console.warning("allocations are not counted: libMarbleAllocationCounter.so was not found next to the executable or in ../lib/marble")
            }
            if BuildInfo.configuration == "debug" && !quiet {
                Console.warning("this is a debug build: timings mean little (swift build -c release)")
            }
            var report: BenchReport
            if compareFFmpeg {
                report = BenchReport(machine: .current(), configuration: configuration, results: [], comparisons: [],
                                     allocationsCounted: AllocationCounter.isCounting)
                report.comparisons = try compare(configuration)
            } else {
                let runner = try BenchRunner(configuration: configuration)
                runner.onResult = { r in
                    if !quiet { progress(String(format: "%@ %@ %@ ×%d: p50 %.2f ms, p99 %.2f ms", r.kind.rawValue, r.name, r.size, r.threads, r.total.p50, r.total.p99)) }
                }
                report = try runner.run()
            }
            if let saveJSON {
                // Atomically over a regular file; written through to a device or FIFO, never renamed over it.
                try OutputFile.write(Data(report.json().utf8), to: saveJSON)
            }
            Console.print(json ? report.json() : markdown ? report.markdown() : report.table())
            if let minCeilingShare { try Self.checkCeilingShare(report.comparisons, atLeast: minCeilingShare, ownPictures: false) }
            if let minOwnCeilingShare { try Self.checkCeilingShare(report.comparisons, atLeast: minOwnCeilingShare, ownPictures: true) }
        }
    }

    /// `--min-ceiling-share`: every size's share of the encoders alone's speed at least `share`.
    static func checkCeilingShare(_ comparisons: [FFmpegComparisonResult], atLeast share: Double, ownPictures: Bool) throws(MarbleError) {
        let verdict = FFmpegComparison.ceilingShares(comparisons, atLeast: share, ownPictures: ownPictures)
        for line in verdict.lines { Console.writeErr("  \(line)\n") }
        guard verdict.below.isEmpty else {
            let option = ownPictures ? "--min-own-ceiling-share" : "--min-ceiling-share"
            let what = ownPictures ? "the encoders alone on our pictures" : "the encoders alone"
            throw MarbleError(.media, "bench \(option): below \(Int((share * 100).rounded())) % of \(what) at \(verdict.below.joined(separator: ", "))")
        }
    }

    func runLive() throws(MarbleError) {
        var c = LiveBench.Configuration()
        if let first = size.first {
            let s = try OptionParsing.size(first)
            c.width = s.width
            c.height = s.height
        }
        c.fps = try OptionParsing.fps(fps == "60" ? "30" : fps)
        if let t = threads.first { c.threads = try Limits.check(t, in: Limits.threads, "--threads") }
        c.clickSeconds = try Limits.check(liveSeconds, in: 5...600, "--live-seconds", unit: " s")
        c.window = window
        let quiet = self.quiet
        let report = try LiveBench.run(c) { line in if !quiet { Console.writeErr("bench: \(line)\n") } }
        if json {
            printJSON(report)
        } else {
            Console.print(report.summary)
        }
    }

    func runControl() throws(MarbleError) {
        var width = 1280, height = 720
        if let first = size.first {
            let s = try OptionParsing.size(first)
            (width, height) = (s.width, s.height)
        }
        let rate = try OptionParsing.fps(fps)
        let cores = try threads.first.map { t throws(MarbleError) in try Limits.check(t, in: Limits.threads, "--threads") }
        let quiet = self.quiet
        let report = try ControlBench.run(width: width, height: height, fps: rate, threads: cores ?? StripScheduler.availableCores,
                                          rounds: 30) { line in if !quiet { Console.writeErr("bench: \(line)\n") } }
        if json {
            printJSON(report)
        } else {
            Console.print(report.summary)
        }
    }

    func progress(_ line: String) { Console.writeErr("bench: \(line)\n") }

    /// Prints `report` as JSON with sorted keys (`--engines`, `--live`, `--control`).
    func printJSON(_ report: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        Console.print(String(decoding: (try? encoder.encode(report)) ?? Data(), as: UTF8.self))
    }

    func compare(_ c: BenchConfiguration) throws(MarbleError) -> [FFmpegComparisonResult] {
        guard let ffmpeg = FFmpegComparison.ffmpegPath() else {
            Console.warning("--compare-ffmpeg: ffmpeg is not installed (not on PATH): comparison skipped")
            return []
        }
        // Without --size: 720p, 1080p and 2160p (the benchmarks' own default has no 2160p).
        var comparison = FFmpegComparison(sizes: size.isEmpty ? FFmpegComparison.defaultSizes : c.sizes, fps: c.fps, encoderPreset: c.encoderPreset, crf: c.crf,
                                          threads: c.threads.first ?? StripScheduler.availableCores,
                                          songSeconds: compareSeconds, rounds: compareRounds)
        if !compareFilters.isEmpty { comparison.compared = compareFilters }
        let quiet = self.quiet
        comparison.onRun = { if !quiet { Console.writeErr("bench: \($0)\n") } }
        return try comparison.run(ffmpeg: ffmpeg)
    }

    func guardOrWriteBaseline() throws(MarbleError) {
        // The guard needs the file (load throws the "no baseline" message); writing may start afresh.
        let base = runGuard || FileManager.default.fileExists(atPath: baseline) ? try Baseline.load(baseline) : Baseline()
        let benchGuard = BenchGuard(baseline: base)
        let quiet = self.quiet
        let progress = { (line: String) in if !quiet { Console.writeErr("bench guard: \(line)\n") } }
        if writeBaseline {
            let measured = try benchGuard.measure(filter: filter, progress: progress)
            let updated = benchGuard.updated(with: measured)
            try updated.write(to: baseline)
            Console.print("wrote \(baseline): \(updated.ratios.count) ratios to \(updated.reference) at \(updated.width)x\(updated.height), \(updated.threads) thread(s), margin +\(Int(updated.margin * 100))%")
            return
        }
        let outcome = try benchGuard.run(filter: filter, progress: progress)
        if !quiet { Console.writeErr(String(format: "  a %dx%d frame copy costs %.2fx %@\n", base.width, base.height, outcome.copyCost, base.reference)) }
        if !quiet { for note in outcome.notes { Console.writeErr("  ok  \(note)\n") } }
        for failure in outcome.failures { Console.writeErr("  FAIL \(failure)\n") }
        if outcome.passed {
            Console.print("bench guard: passed (\(outcome.ratios.count - 1) costs within +\(Int(base.margin * 100))% of \(baseline), 0 allocations per frame)")
        } else {
            throw MarbleError(.media, "bench guard: \(outcome.failures.count) regression(s) against \(baseline) (refresh it with `marble bench --write-baseline` if intended)")
        }
    }

    func makeConfiguration() throws(MarbleError) -> BenchConfiguration {
        // Checked whether or not they are used, so a typo never passes silently.
        _ = try Limits.check(compareSeconds, in: 1...3600, "--compare-seconds", unit: " s")
        _ = try Limits.check(compareRounds, in: 1...100, "--compare-rounds")
        for (share, option) in [(minCeilingShare, "--min-ceiling-share"), (minOwnCeilingShare, "--min-own-ceiling-share")] {
            guard let share else { continue }
            guard compareFFmpeg else { throw MarbleError(.option, "\(option): only with --compare-ffmpeg") }
            _ = try Limits.check(share, in: 0...1, option)
        }
        for name in compareFilters where !FFmpegComparison.filters.contains(name) {
            throw MarbleError(.option, "--compare-filter \(name): expected one of \(FFmpegComparison.filters.joined(separator: ", "))")
        }
        _ = try Limits.check(liveSeconds, in: 5...600, "--live-seconds", unit: " s")
        if window { throw MarbleError(.option, "--window: only with --live (the window's latency is a live measurement)") }
        var c = BenchConfiguration()
        if !size.isEmpty { c.sizes = try size.map { text throws(MarbleError) in try OptionParsing.size(text) } }
        if !threads.isEmpty { c.threads = threads }
        c.frames = frames
        c.warmup = warmup
        c.fps = try OptionParsing.fps(fps)
        c.filter = filter
        guard let chosen = BenchClock(rawValue: clock) else {
            throw MarbleError(.option, "--clock \(clock): expected wall or thread-cpu")
        }
        if chosen == .threadCPU && c.threads != [1] {
            throw MarbleError(.option, "--clock thread-cpu: only with --threads 1 (other threads' work is not on the calling thread's clock)")
        }
        c.clock = chosen
        c.encode = encode
        c.encoderPreset = try OptionParsing.encoderPreset(encoderPreset)
        guard (0...51).contains(crf) else { throw MarbleError(.option, "--crf \(crf): must be between 0 and 51") }
        c.crf = crf
        if !kind.isEmpty {
            let known = ["shader", "preset", "milkdrop", "pipeline"]
            for k in kind where !known.contains(k) {
                throw MarbleError(.option, "--kind \(k): expected shader, preset, milkdrop or pipeline")
            }
            c.includeShaders = kind.contains("shader")
            c.includePresets = kind.contains("preset")
            c.includePipeline = kind.contains("pipeline")
            c.includeMilkDrop = kind.contains("milkdrop")
            if c.includePipeline && !c.encode { c.encode = true }
        }
        try c.validate()
        return c
    }
}
