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
/// function of the inputs and options.
public final class RenderJob {
    /// The options as the job runs them: validated, and with `input` (and `background`) naming the temporary copy when the input could be read only once.
    public let options: RenderOptions
    /// The layers drawn: the preset's, plus `options.effects` on top, with the media picture at the bottom when the input has video or a background was given.
    public let scene: Preset
    private let format: OutputFormat
    /// Whether the input has its own pictures (a video with sound), found when `init` opened it.
    private let inputHasVideo: Bool
    /// Inputs that could be read only once (a pipe, a FIFO, `-`), kept as temporary copies while the job lives.
    private let inputFiles: [InputFile]

    /// Validates options, loads the preset and checks the input before anything is written. An input
    /// that can be read only once (a pipe, a FIFO, `-` for standard input) is copied first (see
    /// `InputFile`), while `cancel` can still stop it; `options.input` then names the copy.
    public init(options userOptions: RenderOptions, cancel: CancellationFlag = CancellationFlag()) throws(MarbleError) {
        try userOptions.validate()
        var options = userOptions
        format = OutputFormat(path: options.output)!
        let preset: Preset
        if let scene = options.scene { preset = scene } else { preset = try PresetLibrary.load(options.preset) }
        // The output must not be one of the inputs (same device and inode, however the path is spelled):
        // the render would replace what it reads.
        var inputs = [(path: options.input, role: "the input")]
        if let background = options.background { inputs.append((path: background, role: "the --background picture")) }
        try OutputFile.checkNotAnInput(options.output, inputs: inputs)
        _ = try OutputFile.checkReplaceable(options.output)
        let input = try InputFile(options.input, shouldContinue: { !cancel.isCancelled })
        let background = try options.background.map { path throws(MarbleError) in try InputFile(path, shouldContinue: { !cancel.isCancelled }) }
        inputFiles = [input] + (background.map { [$0] } ?? [])
        options.input = input.path
        options.background = background?.path
        self.options = options
        // Open the inputs once now, so a bad file fails before the output is created.
        inputHasVideo = try AudioDecoder(path: options.input).input.hasVideo
        if let background = options.background { _ = try MediaInput(path: background) }
        scene = try SceneBuilder.layers(preset: preset, effects: options.effects,
                                        hasPicture: options.background != nil || inputHasVideo)
        try scene.validate()
    }

    /// Runs the job. `progress` is called from the calling thread at most every `progressInterval` seconds.
    public func run(cancel: CancellationFlag = CancellationFlag(), progressInterval: Double = 0.2,
                    progress: (RenderProgress) -> Void = { _ in }) throws(MarbleError) -> RenderSummary {
        let started = MonotonicClock.now()
        let o = options
        let decoder = try AudioDecoder(path: o.input)
        let expectedFrames = decoder.statedDuration.map { o.fps.frameCount(covering: $0) }
        let pictures: PictureSource?
        if let background = o.background {
            pictures = try PictureSource(path: background, width: o.width, height: o.height, fit: o.fit, loop: true)
        } else if inputHasVideo {
            // The input's own video keeps its place next to its sound: both follow the file's timeline.
            pictures = try PictureSource(path: o.input, width: o.width, height: o.height, fit: o.fit, loop: false,
                                         origin: decoder.timelineOrigin)
        } else {
            pictures = nil
        }
        let renderer = try FrameRenderer(scene: scene, width: o.width, height: o.height, fps: o.fps, threads: o.threads)
        var analysis = AnalysisConfiguration()
        analysis.bandCount = o.bandCount
        // Offline, the whole song is known: a first pass finds its tempo and beat grid, so beats land
        // on the music rather than where a causal tracker would guess them.
        var lastAnalysisReport = started
        let report = try MediaAnalysis.report(path: o.input, configuration: analysis, shouldContinue: { !cancel.isCancelled }) { seconds in
            let now = MonotonicClock.now()
            guard Double(now - lastAnalysisReport) >= progressInterval * 1e9 else { return }
            lastAnalysisReport = now
            progress(RenderProgress(phase: .analysing, frames: 0, expectedFrames: expectedFrames, mediaSeconds: seconds,
                                    expectedSeconds: decoder.statedDuration, wallSeconds: Double(now - started) / 1e9))
        }
        let extractor = try MediaAnalysis.extractor(sampleRate: decoder.sampleRate, fps: o.fps,
                                                    configuration: analysis, report: report)

        // A PNG is one frame: the one at --at, or the first.
        let targetFrame = format == .png ? o.fps.frame(at: o.at ?? 0) : nil
        let source = OfflineFileSource(decoder: decoder, extractor: extractor, pictures: pictures, fps: o.fps,
                                       targetFrame: targetFrame)
        let sink: any FrameSink
        var fileSink: EncodingSink?
        if format == .png {
            sink = PNGSink(path: o.output) { stopped in
                if stopped { return MarbleError(.cancelled, "stopped before the frame was drawn; no file written") }
                return MarbleError(.option, "--at \(o.at ?? 0)s is past the end of \(o.input) (\(String(format: "%.2f", source.durationSeconds)) s)")
            }
        } else {
            let settings = VideoEncoder.Settings(width: o.width, height: o.height, fps: o.fps, crf: o.crf,
                                                 preset: o.encoderPreset, threads: max(1, o.threads), globalHeader: false)
            let writer = try MediaWriter(path: o.output, format: format, settings: settings, audioFrom: o.input,
                                             audioBitrate: o.audioBitrate)
            let video = EncodingSink(writer: writer) { stopped in
                stopped ? MarbleError(.cancelled, "stopped before the first frame; no file written")
                        : MarbleError(.input, "\(o.input): no audio could be decoded")
            }
            fileSink = video
            sink = video
        }
        let pipeline = FramePipeline(source: source, renderer: renderer, sinks: [sink], policy: .offline)
        let statistics = try pipeline.run(cancel: cancel, progressInterval: progressInterval) { s in
            progress(RenderProgress(phase: .rendering, frames: s.frames, expectedFrames: expectedFrames,
                                    mediaSeconds: o.fps.seconds(ofFrame: s.frames), expectedSeconds: decoder.statedDuration,
                                    wallSeconds: s.wallSeconds))
        }

        var summary = RenderSummary(output: o.output, frames: statistics.frames, mediaSeconds: 0, wallSeconds: 0, bytes: 0,
                                    warnings: [], cancelled: cancel.isCancelled)
        summary.mediaSeconds = format == .png ? 0 : o.fps.seconds(ofFrame: summary.frames)
        summary.wallSeconds = Double(MonotonicClock.now() - started) / 1e9
        summary.bytes = (try? FileManager.default.attributesOfItem(atPath: o.output)[.size] as? Int) ?? 0
        summary.warnings = source.warnings + (fileSink?.writer.warnings ?? [])
        let frames = Double(max(1, summary.frames))
        summary.stageMilliseconds.decodeAnalysis = statistics.sourceMilliseconds / frames
        summary.stageMilliseconds.render = (statistics.renderMilliseconds - statistics.convertMilliseconds) / frames
        summary.stageMilliseconds.convert = statistics.convertMilliseconds / frames
        summary.stageMilliseconds.encode = (fileSink?.encodeMilliseconds ?? 0) / frames
        summary.stageMilliseconds.layers = zip(renderer.layerNames, renderer.layerMilliseconds).map { ($0, $1 / frames) }
        return summary
    }
}
