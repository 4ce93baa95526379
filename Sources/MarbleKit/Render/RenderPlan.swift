import MarbleAnalysis
import MarbleCore
import MarbleMedia
import MarbleRender

/// What a render does, decided from its options (and what ``RenderJob`` found when it opened the
/// input) before anything is decoded: the scene drawn, how the sound is measured for it, where the
/// pictures under the scene come from, which frames are drawn and where they go. A plain value, so its
/// decisions are tested without rendering; ``RenderJob/run(cancel:progressInterval:progress:)`` only
/// carries it out.
package struct RenderPlan: Sendable, Equatable {
    /// Where the pictures under the scene come from.
    package enum Pictures: Sendable, Equatable {
        /// None: the scene draws on black.
        case none
        /// The input's embedded cover, as a still at the output size (`--background cover`).
        case cover
        /// A picture or video file, looped (`--background PATH`).
        case background(path: String)
        /// The input's own video, on its sound's timeline.
        case inputVideo
    }

    /// Which frames are drawn, and where they go.
    package enum Output: Sendable, Equatable {
        /// One PNG of the frame at `--at` (the first without it).
        case picture(path: String, frame: Int)
        /// The whole render, muxed with the input's sound.
        case video(path: String, format: OutputFormat)
        /// A piece of the frame grid, without sound, labelled for `JoinJob`.
        case segment(path: String, format: OutputFormat, RenderSegment)
        /// Every frame as a PNG with alpha, named by its index (`frames/%06d.png`); no sound.
        case pictures(PNGSequencePattern)
    }

    /// The file the sound (and maybe the video) is read from.
    package var input: String
    /// The layers drawn: the preset's, `--effect`s on top, the media picture at the bottom when there is one.
    package var scene: Preset
    /// How the sound is measured: the preset's analysis section, with `--bands` winning.
    package var analysis: AnalysisConfiguration
    package var pictures: Pictures
    package var output: Output
    /// The video codec of a video or segment output (ignored for PNGs).
    package var codec: VideoCodec
    /// Frames start from transparent black and keep their alpha to the output: `--transparent`, or an
    /// output that always holds alpha (ProRes, QuickTime Animation, a PNG sequence), where what the
    /// layers leave uncovered is transparent rather than black.
    package var transparent: Bool

    /// Decides the plan. `preset` is the scene before `--effect`, `--title` and the picture layer are
    /// added; `inputHasVideo` whether the input carries video of its own. Throws when an effect is
    /// unknown or the scene or analysis settings are invalid.
    package init(options o: RenderOptions, preset: Preset, inputHasVideo: Bool) throws(MarbleError) {
        input = o.input
        if o.transparent {
            pictures = .none   // (validation refuses --background; the input's own video is not drawn)
        } else if o.backgroundIsCover {
            pictures = .cover
        } else if let background = o.background {
            pictures = .background(path: background)
        } else {
            pictures = inputHasVideo ? .inputVideo : .none
        }
        scene = try SceneBuilder.layers(preset: preset, effects: o.effects, hasPicture: pictures != .none, title: o.title,
                                        lyrics: o.timedTextFile.map { SceneBuilder.lyricsLayer(captions: $0.captions) })
        if o.transparent { scene = try SceneBuilder.withoutBackground(scene) }
        try scene.validate()
        analysis = AnalysisConfiguration().applying(scene.analysis)
        if let bands = o.bandCount { analysis.bandCount = bands }
        try analysis.validate()
        let format = OutputFormat(path: o.output) ?? .mp4
        codec = o.codec ?? VideoCodec.default(for: format, transparent: o.transparent)
        transparent = o.transparent || (format != .png && codec.alwaysHasAlpha)
        if format == .png, PNGSequencePattern.isPattern(o.output) {
            output = .pictures(try PNGSequencePattern(o.output))
            transparent = true
        } else if format == .png {
            output = .picture(path: o.output, frame: o.fps.frame(at: o.at ?? 0))
        } else if let segment = o.segment {
            output = .segment(path: o.output, format: format, segment)
        } else {
            output = .video(path: o.output, format: format)
        }
    }

    /// The frames drawn, of a render of `totalFrames` frames (nil: all of them). Throws when a segment
    /// does not fit the render.
    package func frames(totalFrames: Int) throws(MarbleError) -> Range<Int>? {
        switch output {
        case .picture(_, let frame): frame..<(frame + 1)
        case .video, .pictures: nil
        case .segment(_, _, let segment): try segment.range(totalFrames: totalFrames)
        }
    }

    /// Whether the output is a piece of a longer render.
    package var isSegment: Bool {
        if case .segment = output { true } else { false }
    }

    /// The path written.
    package var outputPath: String {
        switch output {
        case .picture(let path, _), .video(let path, _), .segment(let path, _, _): path
        case .pictures(let pattern): pattern.text
        }
    }
}
