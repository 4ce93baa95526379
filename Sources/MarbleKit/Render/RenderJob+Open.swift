import MarbleAnalysis
import MarbleCore
import MarbleMedia
import MarblePipeline
import MarbleRender

extension RenderJob {
    /// Carries out the plan up to the first frame drawn: opens the sound and the pictures, analyses the
    /// whole song (tempo, beat grid, loudness: beats land on the music rather than where a causal tracker
    /// would guess them), builds the renderer for the song and the source that steps through it, and
    /// replays a segment's earlier frames. `progress` reports the analysing and replaying phases.
    package func open(cancel: CancellationFlag = CancellationFlag(), progressInterval: Double = 0.2,
                      progress: (RenderProgress) -> Void = { _ in }) throws(MarbleError) -> RenderStages {
        let started = MonotonicClock.now()
        let decoder = try AudioDecoder(path: plan.input)
        let pictures = try openPictures(timelineOrigin: decoder.timelineOrigin)
        let expectedFrames = decoder.statedDuration.map { options.fps.frameCount(covering: $0) }
        var lastReport = started
        let analysisSpan = FrameTrace.begin()
        let report = try MediaAnalysis.report(path: plan.input, configuration: plan.analysis,
                                              shouldContinue: { !cancel.isCancelled }) { seconds in
            let now = MonotonicClock.now()
            guard Double(now - lastReport) >= progressInterval * 1e9 else { return }
            lastReport = now
            progress(RenderProgress(phase: .analysing, frames: 0, expectedFrames: expectedFrames, mediaSeconds: seconds,
                                    expectedSeconds: decoder.statedDuration, wallSeconds: Double(now - started) / 1e9))
        }
        FrameTrace.end(.analysis, analysisSpan)
        let openSpan = FrameTrace.begin()
        let (renderer, coverWarnings) = try makeRenderer(decoder: decoder, report: report)
        let extractor = try MediaAnalysis.extractor(sampleRate: decoder.sampleRate, fps: options.fps,
                                                    configuration: plan.analysis, report: report)
        try extractor.request(plan.scene.featureNeeds)   // the spectrum or pitches, when a layer reads them
        FrameTrace.end(.open, openSpan)
        let analysed = MonotonicClock.now()
        // The whole render's frame grid, from the sample count of the first pass.
        let totalFrames = options.fps.frameCount(samples: Int((report.duration * Double(report.sampleRate)).rounded()),
                                                 sampleRate: report.sampleRate)
        let frames = try plan.frames(totalFrames: totalFrames)
        let source = OfflineFileSource(stepper: OfflineStepper(decoder: decoder, extractor: extractor, fps: options.fps),
                                       pictures: pictures.source, still: pictures.still, frames: frames)
        if let first = frames?.lowerBound, first > 0 {
            let replaySpan = FrameTrace.begin()
            defer { FrameTrace.end(.replay, replaySpan) }
            try replay(source, into: renderer, to: first, since: analysed, cancel: cancel,
                       progressInterval: progressInterval, progress: progress)
        }
        let drawn = frames.map { $0.count }
        return RenderStages(source: source, renderer: renderer, frames: frames, totalFrames: totalFrames,
                            coverWarnings: coverWarnings,
                            expectedFrames: plan.isSegment ? drawn : expectedFrames, expectedSeconds: decoder.statedDuration,
                            started: started, analysed: analysed, replayed: MonotonicClock.now())
    }

    /// The pictures under the scene, at the output size: a decoded video or picture file, or a still.
    func openPictures(timelineOrigin: Double) throws(MarbleError) -> (source: PictureSource?, still: Texture?) {
        let o = options
        switch plan.pictures {
        case .none:
            return (nil, nil)
        case .cover:
            let found = try CoverArt.picture(in: plan.input, width: o.width, height: o.height, fit: o.fit)
            guard let picture = found.picture else {
                throw MarbleError(.input, "\(userInput): its cover picture cannot be used for --background cover (\(found.warning ?? "none found"))")
            }
            return (nil, picture)
        case .background(let path):
            return (try PictureSource(path: path, width: o.width, height: o.height, fit: o.fit, loop: true), nil)
        case .inputVideo:
            // The input's own video keeps its place next to its sound: both follow the file's timeline.
            return (try PictureSource(path: plan.input, width: o.width, height: o.height, fit: o.fit, loop: false,
                                      origin: timelineOrigin), nil)
        }
    }

    /// The renderer, built once the song is known: text fields and the cover layer read its tags, length,
    /// cover and overview.
    func makeRenderer(decoder: AudioDecoder, report: AnalysisReport) throws(MarbleError) -> (FrameRenderer, [String]) {
        let o = options
        let cover = try CoverArt.picture(in: plan.input)
        let tags = decoder.input.songTags(stream: decoder.streamIndex)
        let drawsLyrics = plan.scene.layers.contains { $0.shader == "lyrics" }
        // The user's file, else the input's lyrics tag, else its subtitle stream (read only for a lyrics layer).
        var lyrics = timedText ?? (drawsLyrics ? EmbeddedLyrics.lyrics(in: tags) : nil)
        if lyrics == nil, drawsLyrics { lyrics = try SubtitleTrack.lyrics(in: plan.input, origin: decoder.timelineOrigin) }
        let song = SongInfo(tags: tags, duration: report.duration, cover: cover.picture, overview: report.overview, lyrics: lyrics)
        let renderer = try FrameRenderer(scene: plan.scene, width: o.width, height: o.height, fps: o.fps, threads: o.threads,
                                         song: song, transparent: plan.transparent)
        var warnings = cover.warning.map { [$0] } ?? []
        if lyrics == nil, drawsLyrics {
            warnings.append("the lyrics layer has nothing to draw: \(userInput) has no timed lyrics tag or text subtitles (give --lyrics FILE.lrc or --captions FILE.srt)")
        }
        return (renderer, warnings)
    }

    /// Replays the frames before `first`: analysed and passed through the scene's bindings, not drawn, so
    /// the first frame drawn is the one-pass render's. Stopped by `cancel`, it throws: no file is written.
    private func replay(_ source: OfflineFileSource, into renderer: FrameRenderer, to first: Int, since start: UInt64,
                        cancel: CancellationFlag, progressInterval: Double,
                        progress: (RenderProgress) -> Void) throws(MarbleError) {
        let fps = options.fps
        var lastReport = start
        let reached = try source.skip(to: first, cancel: cancel) { features, index in
            renderer.advance(features: features, index: index)
            guard index % 64 == 0 else { return }
            let now = MonotonicClock.now()
            guard Double(now - lastReport) >= progressInterval * 1e9 else { return }
            lastReport = now
            progress(RenderProgress(phase: .replaying, frames: index, expectedFrames: first,
                                    mediaSeconds: fps.seconds(ofFrame: index), expectedSeconds: fps.seconds(ofFrame: first),
                                    wallSeconds: Double(now - start) / 1e9))
        }
        if !reached && cancel.isCancelled { throw MarbleError(.cancelled, "stopped before the first frame; no file written") }
    }
}
