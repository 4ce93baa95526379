import MarbleAnalysis
import MarbleCore
import MarbleMedia
import MarblePipeline
import MarbleRender

/// A render's frames drawn on demand, at whatever moment another clock asks for (`marble studio`'s
/// page, whose audio element plays the song): the same ``RenderJob`` opens the song (its plan, the whole
/// song's analysis and beat grid, the renderer with the song's tags and cover, the pictures), and this
/// steps the sound to the asked moment instead of from the start.
///
/// Stepping: a moment a little ahead of the last frame drawn (at most ``catchUpSeconds``) is reached by
/// analysing the frames between without drawing them, as a segment's replay does, so the picture's
/// state (smoothing, particles, feedback) flows on as in the render. A moment behind, or further ahead,
/// starts over ``warmUpSeconds`` before it: the decoder seeks there, a new feature extractor starts
/// with the beat grid moved to its timeline, and the frames of the warm-up pass through the scene
/// without being drawn. So a jump costs at most the warm-up's analysis, whatever the song's length; the
/// frames after it differ from the one-pass render only in state older than the warm-up.
///
/// A new look (``show(_:)``) applies from the next frame: numbers in place, anything else with a new
/// compositor. Not thread-safe: one caller at a time (the studio's socket handler).
package final class PreviewSession {
    /// How far behind the moment asked for a jump starts, so that smoothing and loudness settle.
    package static let warmUpSeconds = 2.0
    /// The furthest ahead a moment is reached by stepping on rather than by a jump.
    package static let catchUpSeconds = 1.0

    package let job: RenderJob
    package let report: AnalysisReport
    package let fps: Rational
    package let width: Int, height: Int
    /// The frames of the song (the last one starts before the end of the sound).
    package let totalFrames: Int
    private let renderer: FrameRenderer
    private let decoder: AudioDecoder
    private var pictures: PictureSource?
    private let still: Texture?
    private let slot: FrameSlot
    private var extractor: FeatureExtractor
    /// The frame the extractor's frame 0 is, and the sample the decoder was at then.
    private var baseFrame = 0, baseSample = 0
    private var ended = false
    /// The next frame the extractor computes (absolute), and the last one drawn (-1: none).
    private var nextFrame = 0
    package private(set) var lastDrawn = -1
    /// Frames analysed without being drawn, and jumps, since the session opened (for the tests and the stats).
    package private(set) var framesStepped = 0, jumps = 0

    /// Opens `options` as a render would (`options.output` names a picture that is never written; it
    /// must pass the render's checks) and reuses `report` when the caller has the song's analysis already
    /// (the studio keeps it per song).
    package init(options: RenderOptions, report: AnalysisReport? = nil) throws(MarbleError) {
        job = try RenderJob(options: options)
        let plan = job.plan
        fps = options.fps
        (width, height) = (options.width, options.height)
        decoder = try AudioDecoder(path: plan.input)
        if let report { self.report = report } else {
            self.report = try MediaAnalysis.report(path: plan.input, configuration: plan.analysis)
        }
        totalFrames = max(1, fps.frameCount(samples: Int((self.report.duration * Double(self.report.sampleRate)).rounded()),
                                            sampleRate: self.report.sampleRate))
        let opened = try job.openPictures(timelineOrigin: decoder.timelineOrigin)
        (pictures, still) = (opened.source, opened.still)
        (renderer, _) = try job.makeRenderer(decoder: decoder, report: self.report)
        extractor = try Self.extractor(plan: plan, decoder: decoder, fps: fps, report: self.report, from: 0)
        slot = try FrameSlot(width: width, height: height, features: extractor.makeFeatures(),
                             hasPicture: pictures != nil, needs: .rgba)
    }

    /// The song's length in seconds.
    package var duration: Double { report.duration }

    /// The picture of the last frame drawn (premultiplied RGBA over black).
    package var picture: TextureView { slot.canvas!.view }

    /// Draws the frame at `seconds` (clamped to the song), or the frame it shows already when that is
    /// the one asked for and `redraw` is false. Returns the frame's index and time.
    @discardableResult
    package func draw(at seconds: Double, redraw: Bool = false) throws(MarbleError) -> (index: Int, time: Double) {
        // Clamped before the conversion to a frame index, which a huge or NaN moment would overflow.
        let moment = seconds.isNaN ? 0 : min(max(0, seconds), fps.seconds(ofFrame: totalFrames))
        let target = min(fps.frame(at: moment), totalFrames - 1)
        if target == lastDrawn && !redraw { return (target, fps.seconds(ofFrame: target)) }
        let ahead = target - nextFrame
        if target < nextFrame || Double(ahead) > Self.catchUpSeconds * fps.doubleValue {
            // The frame shown, again with the scene as it is now (a change while paused).
            if target == lastDrawn { return try render(frame: target) }
            try restart(at: max(0, target - Int(Self.warmUpSeconds * fps.doubleValue)))
        }
        while nextFrame < target {
            try step(into: &slot.features)
            renderer.advance(features: slot.features, index: nextFrame - 1)
            framesStepped += 1
        }
        try step(into: &slot.features)
        return try render(frame: target)
    }

    /// Shows `scene` from the next frame drawn (see ``FrameRenderer/show(_:)``).
    /// - Throws: `.preset` for a scene that does not validate, or that reads features this session's
    ///   analysis does not compute (see ``canShow(_:)``).
    package func show(_ scene: Preset) throws(MarbleError) {
        guard canShow(scene) else { throw MarbleError(.preset, "the look reads features this preview does not compute: open it again") }
        try renderer.show(scene)
    }

    /// Whether `scene` reads only features this session computes (the optional spectrum and pitches are
    /// computed only when the opening scene read them) and analyses the sound the same way.
    package func canShow(_ scene: Preset) -> Bool {
        job.plan.scene.featureNeeds.isSuperset(of: scene.featureNeeds)
            && AnalysisConfiguration().applying(scene.analysis) == job.plan.analysis
    }

    /// New compositors built for new looks (a changed number builds none).
    package var sceneRebuilds: Int { renderer.sceneRebuilds }

    /// The scene as a render of these options draws it (the look with the title and picture layers).
    package func scene(for look: Preset) throws(MarbleError) -> Preset {
        var options = job.options
        options.scene = look
        return try RenderPlan(options: options, preset: look, inputHasVideo: job.plan.pictures == .inputVideo).scene
    }

    // MARK: - Steps

    private func render(frame: Int) throws(MarbleError) -> (index: Int, time: Double) {
        slot.index = frame
        slot.time = fps.seconds(ofFrame: frame)
        slot.features.time = slot.time
        if let still {
            slot.pictureView = still.view
        } else if let pictures, let texture = slot.picture {
            if let s = pictures.still { slot.pictureView = s.view } else {
                try pictures.picture(at: slot.time, into: texture)
                slot.pictureView = texture.view
            }
        }
        try renderer.render(slot)
        lastDrawn = frame
        return (frame, slot.time)
    }

    /// Computes frame ``nextFrame``'s features (decoding what it needs) and moves on.
    private func step(into features: inout AudioFeatures) throws(MarbleError) {
        let relative = nextFrame - baseFrame
        let needed = extractor.samplesNeeded(forFrame: relative)
        while !ended && decoder.samplesDelivered - baseSample < needed {
            let extractor = extractor
            if try !decoder.decodeNext({ left, right in extractor.append(left: left, right: right) }) {
                ended = true
                extractor.finish()
            }
        }
        extractor.computeFeatures(forFrame: relative, into: &features)
        features.time = fps.seconds(ofFrame: nextFrame)
        nextFrame += 1
    }

    /// Starts the sound over at `frame`: the decoder seeks there, and a new extractor starts with the
    /// beat grid on its timeline. A picture source that would have to go back is opened again.
    private func restart(at frame: Int) throws(MarbleError) {
        let seconds = fps.seconds(ofFrame: frame)
        try decoder.seek(to: seconds)
        baseFrame = frame
        baseSample = decoder.samplesDelivered
        ended = false
        nextFrame = frame
        extractor = try Self.extractor(plan: job.plan, decoder: decoder, fps: fps, report: report, from: seconds)
        if frame < lastDrawn, pictures != nil {
            pictures = try job.openPictures(timelineOrigin: decoder.timelineOrigin).source
        }
        try pictures?.skip(to: seconds)
        jumps += 1
    }

    /// An extractor for the sound from `seconds` on: the render's own (``MediaAnalysis/extractor``),
    /// with the song's beat grid moved so that its time 0 is `seconds`.
    private static func extractor(plan: RenderPlan, decoder: AudioDecoder, fps: Rational, report: AnalysisReport,
                                  from seconds: Double) throws(MarbleError) -> FeatureExtractor {
        let extractor = try MediaAnalysis.extractor(sampleRate: decoder.sampleRate, fps: fps, configuration: plan.analysis,
                                                    report: report)
        if seconds > 0 {
            extractor.setBeatGrid(times: report.beats.map { $0 - seconds }, tempo: report.tempo,
                                  downbeats: report.downbeats.map { $0 - seconds })
        }
        // What the scene reads (the spectrum, pitches: a look that needs more opens a new session).
        try extractor.request(plan.scene.featureNeeds)
        return extractor
    }
}
