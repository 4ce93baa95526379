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
/// (``SegmentLabel``) for ``JoinJob``; stopped, it leaves no file.
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
    /// The input as the user named it (`options.input` may name a temporary copy).
    private let userInput: String

    /// Validates options, loads the preset and checks the input before anything is written. An input
    /// that can be read only once (a pipe, a FIFO, `-` for standard input) is copied first (see
    /// `InputFile`), while `cancel` can still stop it; `options.input` then names the copy.
    public init(options userOptions: RenderOptions, cancel: CancellationFlag = CancellationFlag()) throws(MarbleError) {
        try userOptions.validate()
        var options = userOptions
        userInput = userOptions.input
        format = OutputFormat(path: options.output)!
        let preset: Preset
        if let scene = options.scene { preset = scene } else { preset = try PresetLibrary.load(options.preset) }
        // The output must not be one of the inputs (same device and inode, however the path is spelled):
        // the render would replace what it reads.
        // `--background cover`: the input's own embedded picture, not a file.
        let backgroundFile = options.backgroundIsCover ? nil : options.background
        var inputs = [(path: options.input, role: "the input")]
        if let backgroundFile { inputs.append((path: backgroundFile, role: "the --background picture")) }
        try OutputFile.checkNotAnInput(options.output, inputs: inputs)
        _ = try OutputFile.checkReplaceable(options.output)
        try OutputFile.checkFolder(of: options.output)
        let input = try InputFile(options.input, shouldContinue: { !cancel.isCancelled })
        let background = try backgroundFile.map { path throws(MarbleError) in try InputFile(path, shouldContinue: { !cancel.isCancelled }) }
        inputFiles = [input] + (background.map { [$0] } ?? [])
        options.input = input.path
        if let background { options.background = background.path }
        self.options = options
        // Open the inputs once now, so a bad file fails before the output is created.
        inputHasVideo = try AudioDecoder(path: options.input).input.hasVideo
        if let background = background?.path { _ = try MediaInput(path: background) }
        if options.backgroundIsCover, try !CoverArt.hasPicture(in: options.input) {
            throw MarbleError(.input, "\(userInput): has no embedded cover picture for --background cover")
        }
        scene = try SceneBuilder.layers(preset: preset, effects: options.effects,
                                        hasPicture: options.background != nil || inputHasVideo, title: options.title)
        try scene.validate()
    }

    /// Runs the job. `progress` is called from the calling thread at most every `progressInterval` seconds.
    public func run(cancel: CancellationFlag = CancellationFlag(), progressInterval: Double = 0.2,
                    progress: (RenderProgress) -> Void = { _ in }) throws(MarbleError) -> RenderSummary {
        let started = MonotonicClock.now()
        let o = options
        let decoder = try AudioDecoder(path: o.input)
        var expectedFrames = decoder.statedDuration.map { o.fps.frameCount(covering: $0) }
        let pictures: PictureSource?
        var still: Texture?
        var coverWarnings: [String] = []
        if o.backgroundIsCover {
            pictures = nil
            let found = try CoverArt.picture(in: o.input, width: o.width, height: o.height, fit: o.fit)
            guard let picture = found.picture else {
                throw MarbleError(.input, "\(userInput): its cover picture cannot be used for --background cover (\(found.warning ?? "none found"))")
            }
            still = picture
        } else if let background = o.background {
            pictures = try PictureSource(path: background, width: o.width, height: o.height, fit: o.fit, loop: true)
        } else if inputHasVideo {
            // The input's own video keeps its place next to its sound: both follow the file's timeline.
            pictures = try PictureSource(path: o.input, width: o.width, height: o.height, fit: o.fit, loop: false,
                                         origin: decoder.timelineOrigin)
        } else {
            pictures = nil
        }
        // The preset says how to measure the sound for its layers; `--bands` on the command line wins.
        var analysis = AnalysisConfiguration().applying(scene.analysis)
        if let bands = o.bandCount { analysis.bandCount = bands }
        try analysis.validate()
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
        // The scene is built once the song is known: text fields and the cover read it.
        let cover = try CoverArt.picture(in: o.input)
        if let warning = cover.warning { coverWarnings.append(warning) }
        let song = SongInfo(tags: decoder.input.songTags(stream: decoder.streamIndex), duration: report.duration,
                            cover: cover.picture, overview: report.overview)
        let renderer = try FrameRenderer(scene: scene, width: o.width, height: o.height, fps: o.fps, threads: o.threads,
                                         song: song)
        let extractor = try MediaAnalysis.extractor(sampleRate: decoder.sampleRate, fps: o.fps,
                                                    configuration: analysis, report: report)
        try extractor.request(scene.featureNeeds)   // the spectrum or pitches, when a layer reads them
        let analysed = MonotonicClock.now()

        // The whole render's frame grid, from the sample count of the first pass.
        let totalFrames = o.fps.frameCount(samples: Int((report.duration * Double(report.sampleRate)).rounded()),
                                           sampleRate: report.sampleRate)
        // A PNG is one frame: the one at --at, or the first. A segment: its piece of the grid.
        let frames: Range<Int>?
        if format == .png {
            let target = o.fps.frame(at: o.at ?? 0)
            frames = target..<(target + 1)
        } else {
            frames = try o.segment?.range(totalFrames: totalFrames)
        }
        let source = OfflineFileSource(decoder: decoder, extractor: extractor, pictures: pictures, still: still,
                                       fps: o.fps, frames: frames)
        if let first = frames?.lowerBound, first > 0 {
            var lastReport = analysed
            let reached = try source.skip(to: first, cancel: cancel) { features, index in
                renderer.advance(features: features, index: index)
                guard index % 64 == 0 else { return }
                let now = MonotonicClock.now()
                guard Double(now - lastReport) >= progressInterval * 1e9 else { return }
                lastReport = now
                progress(RenderProgress(phase: .replaying, frames: index, expectedFrames: first,
                                        mediaSeconds: o.fps.seconds(ofFrame: index), expectedSeconds: o.fps.seconds(ofFrame: first),
                                        wallSeconds: Double(now - analysed) / 1e9))
            }
            if !reached && cancel.isCancelled { throw MarbleError(.cancelled, "stopped before the first frame; no file written") }
        }
        let replayed = MonotonicClock.now()
        let sink: any FrameSink
        var fileSink: EncodingSink?
        if format == .png {
            sink = PNGSink(path: o.output) { stopped in
                if stopped { return MarbleError(.cancelled, "stopped before the frame was drawn; no file written") }
                return MarbleError(.option, "--at \(o.at ?? 0)s is past the end of \(o.input) (\(String(format: "%.2f", source.durationSeconds)) s)")
            }
        } else {
            var settings = VideoEncoder.Settings(width: o.width, height: o.height, fps: o.fps, crf: o.crf,
                                                 preset: o.encoderPreset, threads: max(1, o.threads), globalHeader: false)
            settings.encoderThreads = o.encoderThreads
            let writer: MediaWriter
            if let segment = o.segment, let frames {
                let label = try segmentLabel(segment: segment, frames: frames, totalFrames: totalFrames)
                writer = try MediaWriter(segment: o.output, format: format, settings: settings,
                                         firstFrame: frames.lowerBound, tags: label.tags)
            } else {
                writer = try MediaWriter(path: o.output, format: format, settings: settings, audioFrom: o.input,
                                         audioBitrate: o.audioBitrate)
            }
            let piece = o.segment.map { "segment \($0)" }
            let video = EncodingSink(writer: writer, firstIndex: frames?.lowerBound ?? 0, keepsPartialFile: piece == nil) { stopped in
                if stopped, let piece { return MarbleError(.cancelled, "stopped: \(piece) not written (a piece is whole or absent)") }
                return stopped ? MarbleError(.cancelled, "stopped before the first frame; no file written")
                               : MarbleError(.input, "\(o.input): no audio could be decoded")
            }
            fileSink = video
            sink = video
        }
        if o.segment != nil { expectedFrames = frames?.count }
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
        summary.analysisSeconds = Double(analysed - started) / 1e9
        summary.replaySeconds = Double(replayed - analysed) / 1e9
        if o.segment != nil, let frames { summary.segment = (frames, totalFrames) }
        summary.bytes = (try? FileManager.default.attributesOfItem(atPath: o.output)[.size] as? Int) ?? 0
        summary.warnings = coverWarnings + source.warnings + (fileSink?.writer.warnings ?? [])
        let perFrame = Double(max(1, summary.frames))
        summary.stageMilliseconds.decodeAnalysis = statistics.sourceMilliseconds / perFrame
        summary.stageMilliseconds.render = (statistics.renderMilliseconds - statistics.convertMilliseconds) / perFrame
        summary.stageMilliseconds.convert = statistics.convertMilliseconds / perFrame
        summary.stageMilliseconds.encode = (fileSink?.encodeMilliseconds ?? 0) / perFrame
        summary.stageMilliseconds.layers = zip(renderer.layerNames, renderer.layerMilliseconds).map { ($0, $1 / perFrame) }
        return summary
    }

    /// The label a segment carries: its frames, and what identifies the render it belongs to (the
    /// settings that change pixels, and the input's bytes).
    private func segmentLabel(segment: RenderSegment, frames: Range<Int>, totalFrames: Int) throws(MarbleError) -> SegmentLabel {
        let o = options
        let codec = format == .webm ? "vp9" : "h264"
        var settings = "\(o.width)x\(o.height) \(o.fps)fps scene \(scene.name)#\(try Self.fingerprint(of: scene))"
        settings += " crf \(o.crf) \(o.encoderPreset.rawValue) \(codec) encoder-threads \(o.encoderThreads) bands \(o.bandCount.map(String.init) ?? "preset") fit \(o.fit.rawValue)"
        if o.backgroundIsCover {
            settings += " background cover"
        } else if let background = o.background {
            settings += " background \(try Fingerprint.of(file: background).prefix(16))"
        }
        // The input as the command named it, not made absolute: the same command on any machine (or in
        // any folder) writes the same bytes; `join` looks for it from where it runs.
        return SegmentLabel(frames: frames, totalFrames: totalFrames, fps: o.fps, segment: segment.description,
                            render: settings, input: userInput, inputID: try Fingerprint.of(file: o.input))
    }

    /// 8 hex digits naming the scene's layers, parameters and bindings (an edited preset changes it).
    private static func fingerprint(of scene: Preset) throws(MarbleError) -> String {
        let text = scene.layers.map { layer in
            let parameters = layer.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            let bindings = layer.bindings.sorted { $0.key < $1.key }.map { "\($0.key)~\($0.value)" }
            return "\(layer.shader) \(layer.blend) \(layer.opacity) \(parameters) \(bindings)"
        }.joined(separator: "\n") + (scene.analysis.isEmpty ? "" : "\nanalysis \(scene.analysis)")
        return String(try Fingerprint.of(text: text).prefix(8))
    }
}
