import Foundation

/// Renders a media file to a video file (or one PNG frame): the spine of MarbleKit.
///
/// Three stages run concurrently, joined by bounded queues of pooled ``FrameSlot``s:
/// 1. decode + analysis (this job's producer thread): audio → features for each frame; the picture for
///    the frame (video or still) scaled to the output size;
/// 2. render (its own thread, fanning out over row strips): the compositor draws the scene;
/// 3. convert + encode (the calling thread): RGBA → YUV 4:2:0, encoder, muxer, sound.
/// Frame n is at exactly n / fps seconds, and the output is a pure function of the inputs and options.
public final class RenderJob {
    public let options: RenderOptions
    public let scene: Preset
    private let format: OutputFormat
    /// Whether the input has its own pictures (a video with sound), found when `init` opened it.
    private let inputHasVideo: Bool

    /// Validates options, loads the preset and checks the input before anything is written.
    public init(options: RenderOptions) throws(MarbleError) {
        try options.validate()
        self.options = options
        format = OutputFormat(path: options.output)!
        let preset = try PresetLibrary.load(options.preset)
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
            pictures = try PictureSource(path: o.input, width: o.width, height: o.height, fit: o.fit, loop: false)
        } else {
            pictures = nil
        }
        let compositor = try Compositor(preset: scene, width: o.width, height: o.height, threads: o.threads)
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

        let poolSize = 4
        let free = BoundedQueue<FrameSlot>(capacity: poolSize)
        let toRender = BoundedQueue<FrameSlot>(capacity: poolSize)
        let toEncode = BoundedQueue<FrameSlot>(capacity: poolSize)
        for _ in 0..<poolSize {
            free.push(try FrameSlot(width: o.width, height: o.height, features: extractor.makeFeatures(),
                                    hasPicture: pictures != nil && pictures?.still == nil, encoded: format != .png))
        }
        let failure = FirstError()
        let stopAll: @Sendable () -> Void = { free.close(); toRender.close(); toEncode.close() }
        let producerDone = DispatchSemaphore(value: 0)
        let renderDone = DispatchSemaphore(value: 0)
        var joined = false
        func join() {
            guard !joined else { return }
            producerDone.wait()
            renderDone.wait()
            joined = true
        }
        // A PNG is one frame: the one at --at, or the first.
        let targetFrame = format == .png ? o.fps.frame(at: o.at ?? 0) : nil
        let producer = Producer(decoder: decoder, extractor: extractor, pictures: pictures, fps: o.fps,
                                targetFrame: targetFrame, cancel: cancel)
        let renderer = RenderStage(compositor: compositor, fps: o.fps, width: o.width, height: o.height)

        Thread.detachNewThread {
            do throws(MarbleError) { try producer.run(free: free, out: toRender) } catch { failure.record(error); stopAll() }
            toRender.close()
            producerDone.signal()
        }
        Thread.detachNewThread {
            renderer.run(input: toRender, output: toEncode, failure: failure)
            if failure.error != nil { stopAll() }
            toEncode.close()
            renderDone.signal()
        }

        var summary = RenderSummary(output: o.output, frames: 0, mediaSeconds: 0, wallSeconds: 0, bytes: 0,
                                    warnings: [], cancelled: false)
        do throws(MarbleError) {
            if format == .png {
                guard let slot = toEncode.pop() else {
                    join()
                    if let e = failure.error { throw e }
                    if cancel.isCancelled { throw MarbleError(.cancelled, "stopped before the frame was drawn; no file written") }
                    let duration = producer.durationSeconds
                    throw MarbleError(.option, "--at \(o.at ?? 0)s is past the end of \(o.input) (\(String(format: "%.2f", duration)) s)")
                }
                try PNGWriter.write(slot.canvas!, to: o.output)
                summary.frames = 1
                stopAll()
            } else {
                let settings = VideoEncoder.Settings(width: o.width, height: o.height, fps: o.fps, crf: o.crf,
                                                     preset: o.encoderPreset, threads: max(1, o.threads), globalHeader: false)
                let writer = try VideoFileWriter(path: o.output, format: format, settings: settings, audioFrom: o.input,
                                                 audioBitrate: o.audioBitrate)
                var lastReport = started
                let renderStarted = MonotonicClock.now()
                var encodeTotal = 0.0
                do throws(MarbleError) {
                    while let slot = toEncode.pop() {
                        try writer.write(slot.yuv!)
                        encodeTotal += writer.lastEncodeMs
                        free.push(slot)
                        let now = MonotonicClock.now()
                        if Double(now - lastReport) >= progressInterval * 1e9 {
                            lastReport = now
                            progress(RenderProgress(phase: .rendering, frames: writer.framesWritten, expectedFrames: expectedFrames,
                                                    mediaSeconds: o.fps.seconds(ofFrame: writer.framesWritten),
                                                    expectedSeconds: decoder.statedDuration,
                                                    wallSeconds: Double(now - renderStarted) / 1e9))
                        }
                    }
                    join()
                    if let e = failure.error { throw e }
                    guard writer.framesWritten > 0 else {
                        throw cancel.isCancelled ? MarbleError(.cancelled, "stopped before the first frame; no file written")
                                                 : MarbleError(.input, "\(o.input): no audio could be decoded")
                    }
                    try writer.finish(trimAudio: cancel.isCancelled)
                } catch {
                    stopAll()
                    writer.abort()
                    throw error
                }
                summary.frames = writer.framesWritten
                summary.warnings += writer.warnings
                let n = Double(max(1, writer.framesWritten))
                summary.stageMilliseconds.encode = encodeTotal / n
            }
        } catch {
            stopAll()
            join()
            throw error
        }
        join()
        summary.mediaSeconds = format == .png ? 0 : o.fps.seconds(ofFrame: summary.frames)
        summary.wallSeconds = Double(MonotonicClock.now() - started) / 1e9
        summary.bytes = (try? FileManager.default.attributesOfItem(atPath: o.output)[.size] as? Int) ?? 0
        summary.warnings = producer.warnings + summary.warnings
        summary.cancelled = cancel.isCancelled
        let frames = Double(max(1, summary.frames))
        summary.stageMilliseconds.decodeAnalysis = producer.busyMilliseconds / frames
        summary.stageMilliseconds.render = (renderer.busyMilliseconds - renderer.convertMilliseconds) / frames
        summary.stageMilliseconds.convert = renderer.convertMilliseconds / frames
        summary.stageMilliseconds.layers = zip(compositor.layerNames, renderer.layerMilliseconds).map { ($0, $1 / frames) }
        return summary
    }
}

/// Stage 1: decodes audio, computes each frame's features, and fetches its picture.
private final class Producer: @unchecked Sendable {
    // Safety of @unchecked Sendable: used by the producer thread only, read by the caller after that
    // thread has signalled completion.
    let decoder: AudioDecoder
    let extractor: FeatureExtractor
    let pictures: PictureSource?
    let fps: Rational
    let targetFrame: Int?
    let cancel: CancellationFlag
    private(set) var durationSeconds = 0.0
    /// Time spent working (not waiting for a free slot), for stage timings.
    private(set) var busyMilliseconds = 0.0

    var warnings: [String] { decoder.warnings + (pictures?.warnings ?? []) }

    init(decoder: AudioDecoder, extractor: FeatureExtractor, pictures: PictureSource?, fps: Rational,
         targetFrame: Int?, cancel: CancellationFlag) {
        self.decoder = decoder
        self.extractor = extractor
        self.pictures = pictures
        self.fps = fps
        self.targetFrame = targetFrame
        self.cancel = cancel
    }

    func run(free: BoundedQueue<FrameSlot>, out: BoundedQueue<FrameSlot>) throws(MarbleError) {
        var ended = false
        var frame = 0
        let rate = Double(decoder.sampleRate)
        var scratch: AudioFeatures?
        var start = MonotonicClock.now()
        while !cancel.isCancelled {
            let needed = extractor.samplesNeeded(forFrame: frame)
            while !ended && decoder.samplesDelivered < needed {
                let more = try decoder.decodeNext { left, right in extractor.append(left: left, right: right) }
                if !more {
                    ended = true
                    extractor.finish()
                }
            }
            durationSeconds = Double(decoder.samplesDelivered) / rate
            // Frame n exists while it starts before the end of the sound: ceil(duration · fps) frames.
            if ended && fps.seconds(ofFrame: frame) >= durationSeconds - 1e-9 { return }
            if let target = targetFrame, frame < target {
                if scratch == nil { scratch = extractor.makeFeatures() }
                extractor.computeFeatures(forFrame: frame, into: &scratch!)
                frame += 1
                continue
            }
            busyMilliseconds += MonotonicClock.milliseconds(since: start)
            guard let slot = free.pop() else { return }
            start = MonotonicClock.now()
            slot.index = frame
            slot.time = fps.seconds(ofFrame: frame)
            extractor.computeFeatures(forFrame: frame, into: &slot.features)
            slot.features.time = slot.time
            if let pictures {
                if let still = pictures.still {
                    slot.pictureView = still.view
                } else if let texture = slot.picture {
                    try pictures.picture(at: slot.time, into: texture)
                    slot.pictureView = texture.view
                }
            }
            busyMilliseconds += MonotonicClock.milliseconds(since: start)
            guard out.push(slot) else { return }
            start = MonotonicClock.now()
            frame += 1
            if targetFrame != nil { return }
        }
    }
}

/// Stage 2: draws each slot's frame: into its YUV frame for the encoder, or its canvas for a PNG.
private final class RenderStage: @unchecked Sendable {
    // Safety of @unchecked Sendable: used by the render thread only.
    let compositor: Compositor
    /// The RGBA picture of a frame bound for the encoder, when the scene needs one whole (a filter);
    /// banded scenes draw in the compositor's band scratch and never touch it. One for the stage: the
    /// frame leaves as YUV, so the next frame can reuse it.
    private lazy var workingCanvas = Texture(width: width, height: height)
    let fps: Rational
    let width: Int, height: Int
    private(set) var busyMilliseconds = 0.0
    private(set) var convertMilliseconds = 0.0
    private(set) var layerMilliseconds: [Double]

    init(compositor: Compositor, fps: Rational, width: Int, height: Int) {
        self.compositor = compositor
        layerMilliseconds = [Double](repeating: 0, count: compositor.layerNames.count)
        self.fps = fps
        self.width = width
        self.height = height
    }

    func run(input: BoundedQueue<FrameSlot>, output: BoundedQueue<FrameSlot>, failure: FirstError) {
        while let slot = input.pop() {
            let uniforms = FrameUniforms(time: slot.time, frameIndex: slot.index, fps: fps, width: width,
                                         height: height, features: slot.features, input: slot.pictureView)
            let start = MonotonicClock.now()
            if let yuv = slot.yuv {
                // Colour conversion happens here, band by band while the rows are still in cache.
                do throws(MarbleError) { try yuv.prepareForWriting() } catch { failure.record(error); return }
                compositor.render(uniforms, into: compositor.isBanded ? nil : workingCanvas, convertingInto: yuv.planes)
                convertMilliseconds += compositor.lastConvertTime
            } else {
                compositor.render(uniforms, into: slot.canvas!)
            }
            busyMilliseconds += MonotonicClock.milliseconds(since: start)
            for i in layerMilliseconds.indices { layerMilliseconds[i] += compositor.lastLayerTimes[i] }
            guard output.push(slot) else { return }
        }
    }
}
