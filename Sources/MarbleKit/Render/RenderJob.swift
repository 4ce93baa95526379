import Foundation
import MarbleAnalysis
import MarbleCore
import MarbleMedia
import MarblePipeline
import MarbleRender

/// Renders a media file to a video file (or one PNG frame): the offline configuration of the
/// `FramePipeline`.
///
/// Source: an `OfflineFileSource` (the file decoded and analysed, with the beat grid of a first
/// pass over the whole song, and its picture scaled to the output size). Renderer: the compositor,
/// converting to YUV 4:2:0 band by band. Sink: a `EncodingSink` (encoder, muxer, sound) or a
/// `PNGSink`. Policy: offline, so frame n is at exactly n / fps seconds and the output is a pure
/// function of the inputs and options: the same bytes on any machine (the renderer's threads change
/// nothing, and the encoder runs a fixed number of threads, ``RenderOptions/encoderThreads``).
///
/// Some of the frames (one PNG, a segment): the frames before the first are replayed, analysed and
/// passed through the scene's bindings without being drawn, so the first frame drawn is the one-pass
/// render's. A segment is a video without sound, its timestamps those of the whole render, labelled
/// (`SegmentLabel`) for `JoinJob`; stopped, it leaves no file.
public final class RenderJob {
    /// The options as the job runs them: validated, and with `input` (and `background`) naming the temporary copy when the input could be read only once.
    public let options: RenderOptions
    /// What the job does: the scene, the sound's analysis, the pictures, the frames and the output.
    package let plan: RenderPlan
    /// The layers drawn: the preset's, plus `options.effects` on top, with the media picture at the bottom when the input has video or a background was given.
    public var scene: Preset { plan.scene }
    /// Inputs that could be read only once (a pipe, a FIFO, `-`), kept as temporary copies while the job lives.
    private let inputFiles: [InputFile]
    /// The input as the user named it (`options.input` may name a temporary copy).
    let userInput: String
    /// The `--lyrics` or `--captions` file's lines, read before anything is written.
    let timedText: Lyrics?
    /// When the job was made (``MonotonicClock``): the start of ``RenderSummary/firstFrameSeconds``.
    let created = MonotonicClock.now()

    /// Validates options, loads the preset and checks the input before anything is written. An input
    /// that can be read only once (a pipe, a FIFO, `-` for standard input) is copied first (see
    /// `InputFile`), while `cancel` can still stop it; `options.input` then names the copy.
    public init(options userOptions: RenderOptions, cancel: CancellationFlag = CancellationFlag()) throws(MarbleError) {
        try userOptions.validate()
        var options = userOptions
        userInput = userOptions.input
        let preset: Preset
        if let scene = options.scene { preset = scene } else { preset = try PresetLibrary.load(options.preset) }
        // `--background cover`: the input's own embedded picture, not a file.
        let backgroundFile = options.backgroundIsCover ? nil : options.background
        try Self.checkOutput(options.output, input: options.input, background: backgroundFile)
        let input = try InputFile(options.input, shouldContinue: { !cancel.isCancelled })
        let background = try backgroundFile.map { path throws(MarbleError) in try InputFile(path, shouldContinue: { !cancel.isCancelled }) }
        inputFiles = [input] + (background.map { [$0] } ?? [])
        options.input = input.path
        if let background { options.background = background.path }
        self.options = options
        // Open the inputs once now, so a bad file fails before the output is created.
        let inputHasVideo = try AudioDecoder(path: options.input).input.hasVideo
        if let background = background?.path { _ = try MediaInput(path: background) }
        if options.backgroundIsCover, try !CoverArt.hasPicture(in: options.input) {
            throw MarbleError(.input, "\(userInput): has no embedded cover picture for --background cover")
        }
        plan = try RenderPlan(options: options, preset: preset, inputHasVideo: inputHasVideo)
        timedText = try options.readTimedText()
    }

    /// The output must not be one of the inputs (same device and inode, however the path is spelled):
    /// the render would replace what it reads. It must be replaceable, in a folder that exists.
    private static func checkOutput(_ output: String, input: String, background: String?) throws(MarbleError) {
        var inputs = [(path: input, role: "the input")]
        if let background { inputs.append((path: background, role: "the --background picture")) }
        try OutputFile.checkNotAnInput(output, inputs: inputs)
        _ = try OutputFile.checkReplaceable(output)
        try OutputFile.checkFolder(of: output)
    }

    /// Runs the job: opens its stages (`open(cancel:progressInterval:progress:)`: the first pass over
    /// the song, the renderer, the source, the replay before a segment), then the pipeline to the
    /// output. `progress` is called from the calling thread at most every `progressInterval` seconds.
    public func run(cancel: CancellationFlag = CancellationFlag(), progressInterval: Double = 0.2,
                    progress: (RenderProgress) -> Void = { _ in }) throws(MarbleError) -> RenderSummary {
        let stages = try open(cancel: cancel, progressInterval: progressInterval, progress: progress)
        let openSpan = FrameTrace.begin()
        let output = try makeSink(for: stages)
        FrameTrace.end(.open, openSpan)
        let pipeline = FramePipeline(source: stages.source, renderer: stages.renderer, sinks: [output.sink], policy: .offline)
        let statistics = try pipeline.run(cancel: cancel, progressInterval: progressInterval) { s in
            progress(stages.progress(rendered: s))
        }
        var summary = summary(of: stages, statistics: statistics, encoding: output.encoding, cancelled: cancel.isCancelled)
        if let sequence = output.sink as? PNGSequenceSink {
            summary.bytes = sequence.writer.bytesWritten
            summary.warnings.append("\(sequence.label): a PNG sequence holds no sound (render a .mov or .webm to keep it)")
        }
        return summary
    }

    /// What the run did: frames, times, size, warnings, and each stage's milliseconds per frame.
    private func summary(of stages: RenderStages, statistics: PipelineStatistics, encoding: EncodingSink?,
                         cancelled: Bool) -> RenderSummary {
        let output = plan.outputPath
        var summary = RenderSummary(output: output, frames: statistics.frames, mediaSeconds: 0, wallSeconds: 0, bytes: 0,
                                    warnings: [], cancelled: cancelled)
        if case .picture = plan.output {} else { summary.mediaSeconds = options.fps.seconds(ofFrame: summary.frames) }
        summary.wallSeconds = Double(MonotonicClock.now() - stages.started) / 1e9
        summary.analysisSeconds = Double(stages.analysed - stages.started) / 1e9
        summary.replaySeconds = Double(stages.replayed - stages.analysed) / 1e9
        if let encoding, encoding.firstWritten != 0 {
            summary.firstFrameSeconds = Double(encoding.firstWritten &- created) / 1e9
            summary.afterLastFrameSeconds = Double(MonotonicClock.now() &- encoding.lastWritten) / 1e9
        }
        if case .segment = plan.output, let frames = stages.frames { summary.segment = (frames, stages.totalFrames) }
        summary.bytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        summary.warnings = stages.coverWarnings + stages.source.warnings + stages.renderer.warnings
            + (encoding?.writer.warnings ?? [])
        let perFrame = Double(max(1, summary.frames))
        summary.stageMilliseconds.decodeAnalysis = statistics.sourceMilliseconds / perFrame
        summary.stageMilliseconds.render = (statistics.renderMilliseconds - statistics.convertMilliseconds) / perFrame
        summary.stageMilliseconds.convert = statistics.convertMilliseconds / perFrame
        summary.stageMilliseconds.encode = (encoding?.encodeMilliseconds ?? 0) / perFrame
        let renderer = stages.renderer
        summary.stageMilliseconds.layers = zip(renderer.layerNames, renderer.layerMilliseconds).map { ($0, $1 / perFrame) }
        return summary
    }
}
