import MarbleCore
import MarbleMedia
import MarbleRender

/// Everything a render needs, as the command line or a library user gives it.
public struct RenderOptions: Sendable {
    /// The media file to render: any file FFmpeg reads with an audio stream, or `-` for standard input.
    public var input: String
    /// The file to write; its extension picks the format: `.mp4`, `.mov`, `.mkv`, `.webm`, `.png` (one frame), or a
    /// PNG sequence (`frames/%06d.png`: every frame, with alpha).
    public var output: String
    /// Output width in pixels: even, 16…7680.
    public var width = 1280
    /// Output height in pixels: even, 16…4320.
    public var height = 720
    /// Frames per second, exact (`Rational(30000, 1001)` for NTSC); 1…240.
    public var fps = Rational(60)
    /// A bundled preset name or a path to a preset file.
    public var preset = PresetLibrary.defaultName
    /// A scene made in code (layers of shaders, with their bindings); when set, used instead of
    /// ``preset``. Validated like a preset file.
    public var scene: Preset?
    /// Extra kernels drawn over the scene, in order (`--effect ink`).
    public var effects: [String] = []
    /// A title drawn over everything in the lower third (`--title`): a `text` layer template, so
    /// `{artist} — {title}` fills in the file's tags; `\n` (backslash, n) starts a new line.
    /// At most ``maximumTitleLength`` characters, no control characters, no invalid UTF-8.
    public var title: String?
    /// The longest ``title`` accepted, in characters.
    public static let maximumTitleLength = 500
    /// Timed lyrics drawn by a `lyrics` layer (`--lyrics`): an `.lrc`, `.srt` or `.vtt` file; one is
    /// added on top when the scene has none. Without it (and ``captionsFile``) the input's own lyrics tag.
    package var lyricsFile: String?
    /// Captions drawn by a `lyrics` layer (`--captions`): as ``lyricsFile``, the added layer without the next line.
    package var captionsFile: String?
    /// A picture or video drawn under the scene instead of the preset's background, or the word
    /// ``coverBackground`` (`cover`) for the input's own embedded cover picture (a file named `cover`
    /// is then written `./cover`).
    public var background: String?
    /// The `background` value meaning "the input's embedded cover picture".
    public static let coverBackground = "cover"
    /// True when `background` asks for the input's embedded cover picture.
    public var backgroundIsCover: Bool { background == Self.coverBackground }
    /// How `background` (or the input's own video) is scaled to the output size: cover (crop) or contain (letterbox).
    public var fit = Fit.cover
    /// Constant rate factor of the video encoder, 0…63: lower is better quality and a bigger file.
    public var crf = 23
    /// The encoder's speed/size trade-off: x264's preset, mapped onto VP9's `cpu-used` for WebM (unused for PNG).
    public var encoderPreset = EncoderPreset.superfast
    /// Sound bitrate in kbit/s. nil: copy the source's sound where the container can hold it, else
    /// encode at 160 (96 for mono). Set: always encode, at this rate.
    public var audioBitrate: Int?
    /// For a PNG: the media time of the frame to write.
    public var at: Double?
    /// Threads the renderer draws row bands on (default: one per core; at most 4 per core). The output does not depend on it.
    public var threads = StripScheduler.availableCores
    /// Frequency bands the analysis produces, 8…512; nil: the preset's (`analysis.bands`), else 64.
    public var bandCount: Int?
    /// Only some frames of the render (a piece for a farm: `--segment K/N`, `--frames A-B`): a video
    /// without sound whose frames are exactly the one-pass render's at those indices, with their
    /// timestamps, labelled for `marble join`. nil: the whole render.
    package var segment: RenderSegment?
    /// Threads of the video encoder, 1…16: fixed rather than following the cores, because x264's
    /// output changes with its thread count. With the same value, the same command writes the same
    /// bytes on any machine; pieces joined into one video must share it.
    public var encoderThreads = RenderOptions.defaultEncoderThreads
    /// The encoder's threads unless told otherwise: 4 keeps x264 busy beside the renderer on 2 to 8 cores.
    public static let defaultEncoderThreads = 4
    /// Keep alpha (`--transparent`): the preset's background layer is dropped and frames start from
    /// transparent black; the output must hold alpha (the outputs that do are listed in the error `--transparent` gives otherwise). Details: docs/ALPHA.md.
    public var transparent = false
    /// The video codec (`--codec`); nil: the container's (H.264, VP9 for WebM, ProRes 4444 for a
    /// transparent `.mov`).
    public var codec: VideoCodec?
    /// The outputs that hold alpha, for messages.
    static let alphaOutputs = ".mov (ProRes 4444, or --codec qtrle), .webm (VP9), .png, or a PNG sequence like frames/%06d.png"

    /// Options to render `input` into `output` with every other value at its default (1280×720, 60 fps, the default preset).
    public init(input: String, output: String) {
        self.input = input
        self.output = output
    }

    /// Checks values that do not depend on files. Errors are one sentence about the option.
    public func validate() throws(MarbleError) {
        guard width >= 16, height >= 16, width <= 7680, height <= 4320 else {
            throw MarbleError(.option, "--size \(width)x\(height): width and height must be between 16x16 and 7680x4320")
        }
        guard width % 2 == 0, height % 2 == 0 else {
            throw MarbleError(.option, "--size \(width)x\(height): width and height must be even (YUV 4:2:0 video)")
        }
        _ = try Limits.check(rate: fps)
        guard (0...63).contains(crf) else { throw MarbleError(.option, "--crf \(crf): must be between 0 and 63") }
        if let bandCount, !(8...512).contains(bandCount) { throw MarbleError(.option, "--bands \(bandCount): must be between 8 and 512") }
        if let audioBitrate, !(16...512).contains(audioBitrate) {
            throw MarbleError(.option, "--audio-bitrate \(audioBitrate): must be between 16 and 512 (kbit/s)")
        }
        _ = try Limits.check(threads, in: Limits.threads, "--threads")
        _ = try Limits.check(encoderThreads, in: 1...16, "--encoder-threads")
        try segment?.validate()
        if let title { try Self.validate(title: title) }
        try validateTimedText()
        guard let format = OutputFormat(path: output) else {
            throw MarbleError(.option, "\(output): unknown output type (use .mp4, .mkv, .mov, .webm or .png)")
        }
        if let at { _ = try Limits.check(at, in: Limits.seconds, "--at", unit: " s") }
        try validateAlpha(format: format)
        if format == .png, segment != nil {
            throw MarbleError(.option, "--segment and --frames cut a video into pieces; a .png is one frame (use --at)")
        }
        if format == .png, at == nil { return }
        if format != .png, at != nil { throw MarbleError(.option, "--at only applies to a .png output") }
    }
}

extension RenderOptions {
    /// Checks `--transparent`, `--codec` and a PNG sequence's pattern against the output.
    func validateAlpha(format: OutputFormat) throws(MarbleError) {
        let sequence = format == .png && PNGSequencePattern.isPattern(output)
        if sequence {
            _ = try PNGSequencePattern(output)
            if at != nil { throw MarbleError(.option, "--at picks one frame; \(output) is a sequence of every frame") }
        }
        if let codec {
            guard format != .png else { throw MarbleError(.option, "--codec \(codec.rawValue): applies to video files, not \(output)") }
            guard codec.fits(format) else {
                throw MarbleError(.option, "--codec \(codec.rawValue): a .\(format.rawValue) file cannot hold it (h264: .mp4/.mkv/.mov, vp9: .webm, prores and qtrle: .mov)")
            }
        }
        guard transparent else { return }
        if format == .mp4 || format == .mkv || codec == .h264 {
            let what = codec == .h264 ? "H.264" : "a .\(format.rawValue) file"
            throw MarbleError(.option, "--transparent: \(what) cannot hold alpha; write \(Self.alphaOutputs)")
        }
        if background != nil {
            throw MarbleError(.option, "--transparent and --background: a transparent render has no background picture")
        }
    }

    /// Checks a `--title`: not longer than ``maximumTitleLength`` characters, no invalid UTF-8 (which
    /// arrives as U+FFFD from the command line), no control characters but line feeds.
    public static func validate(title: String) throws(MarbleError) {
        guard title.count <= maximumTitleLength else {
            throw MarbleError(.option, "--title: \(title.count) characters; at most \(maximumTitleLength)")
        }
        guard !title.unicodeScalars.contains("\u{FFFD}") else { throw MarbleError(.option, "--title: not valid UTF-8") }
        guard !title.unicodeScalars.contains(where: { $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }) else {
            throw MarbleError(.option, "--title: control characters are not allowed (use \\n for a new line)")
        }
    }
}

/// What a finished render reports.
public struct RenderSummary: Sendable {
    /// The file written.
    public var output: String
    /// Frames written.
    public var frames: Int
    /// Seconds of video written (0 for a PNG).
    public var mediaSeconds: Double
    /// Seconds the job took, analysis included.
    public var wallSeconds: Double
    /// Size of the output file in bytes.
    public var bytes: Int
    /// Problems that did not stop the render (damaged audio or video data skipped), one sentence each.
    public var warnings: [String]
    /// Whether the job was stopped early; the file then holds the frames rendered before the stop
    /// (a segment leaves no file).
    public var cancelled: Bool
    /// For a segment: the frames it holds, of how many in the whole render.
    public var segment: (frames: Range<Int>, of: Int)?
    /// Seconds of the first pass over the song (tempo, beat grid), included in ``wallSeconds``.
    public var analysisSeconds = 0.0
    /// Seconds spent replaying the frames before a segment's first (analysed, not drawn), included in ``wallSeconds``.
    public var replaySeconds = 0.0
    /// Seconds from the job's start (``RenderJob/init(options:cancel:)``) to the first frame handed to
    /// the video encoder (nil for a picture output, or when no frame was encoded).
    public var firstFrameSeconds: Double?
    /// Seconds from the last frame handed to the video encoder to the end of the job: the encoder's
    /// delayed frames, the rest of the sound, the file closed and moved into place.
    public var afterLastFrameSeconds: Double?
    /// Mean milliseconds per frame spent in each stage (busy time, not waiting): decode+analysis,
    /// render, colour conversion, encode+mux.
    public var stageMilliseconds: StageTimes = StageTimes()

    /// Frames rendered per second of wall time.
    public var framesPerSecond: Double { wallSeconds > 0 ? Double(frames) / wallSeconds : 0 }
    /// Seconds of video per second of wall time: above 1 is faster than real time.
    public var realTimeFactor: Double { wallSeconds > 0 ? mediaSeconds / wallSeconds : 0 }
}

/// Progress reports, at most a few per second.
public struct RenderProgress: Sendable {
    /// The two passes of a render.
    public enum Phase: String, Sendable {
        /// The first pass over the whole song: tempo, beat grid and loudness.
        case analysing
        /// A segment replays the frames before its first: analysed, their bindings followed, not drawn.
        case replaying
        /// Drawing and encoding the frames.
        case rendering
    }
    /// The first pass over the song (tempo and beats), then the frames.
    public var phase: Phase
    /// Frames rendered so far (0 while analysing).
    public var frames: Int
    /// The frame count the song's stated duration gives, when the container states one.
    public var expectedFrames: Int?
    /// Seconds of the song done in this phase.
    public var mediaSeconds: Double
    /// The song's length when the container states it.
    public var expectedSeconds: Double?
    /// Seconds since this phase started.
    public var wallSeconds: Double
}

/// Mean busy time per frame of each pipeline stage, in milliseconds.
public struct StageTimes: Sendable {
    /// Decoding and the per-frame analysis.
    public var decodeAnalysis = 0.0
    /// Drawing the layers.
    public var render = 0.0
    /// Converting RGBA to YUV 4:2:0.
    public var convert = 0.0
    /// Encoding and muxing (the sound included).
    public var encode = 0.0
    /// Render time split by layer (shader name, ms per frame), bottom first.
    public var layers: [(name: String, milliseconds: Double)] = []
    /// All zero.
    public init() {}
}
