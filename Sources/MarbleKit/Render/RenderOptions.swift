import MarbleCore
import MarbleMedia
import MarbleRender

/// Everything a render needs, as the command line or a library user gives it.
public struct RenderOptions: Sendable {
    public var input: String
    public var output: String
    public var width = 1280
    public var height = 720
    public var fps = Rational(60)
    /// A bundled preset name or a path to a preset file.
    public var preset = PresetLibrary.defaultName
    /// A scene made in code (layers of shaders, with their bindings); when set, used instead of
    /// ``preset``. Validated like a preset file.
    public var scene: Preset?
    /// Extra kernels drawn over the scene, in order (`--effect ink`).
    public var effects: [String] = []
    /// A picture or video drawn under the scene instead of the preset's background.
    public var background: String?
    public var fit = Fit.cover
    public var crf = 23
    public var encoderPreset = EncoderPreset.superfast
    /// Sound bitrate in kbit/s. nil: copy the source's sound where the container can hold it, else
    /// encode at 160 (96 for mono). Set: always encode, at this rate.
    public var audioBitrate: Int?
    /// For a PNG: the media time of the frame to write.
    public var at: Double?
    public var threads = StripScheduler.availableCores
    public var bandCount = 64

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
        guard (8...512).contains(bandCount) else { throw MarbleError(.option, "--bands \(bandCount): must be between 8 and 512") }
        if let audioBitrate, !(16...512).contains(audioBitrate) {
            throw MarbleError(.option, "--audio-bitrate \(audioBitrate): must be between 16 and 512 (kbit/s)")
        }
        _ = try Limits.check(threads, in: Limits.threads, "--threads")
        guard let format = OutputFormat(path: output) else {
            throw MarbleError(.option, "\(output): unknown output type (use .mp4, .mkv, .mov, .webm or .png)")
        }
        if let at { _ = try Limits.check(at, in: Limits.seconds, "--at", unit: " s") }
        if format == .png, at == nil { return }
        if format != .png, at != nil { throw MarbleError(.option, "--at only applies to a .png output") }
    }
}

/// What a finished render reports.
public struct RenderSummary: Sendable {
    public var output: String
    public var frames: Int
    public var mediaSeconds: Double
    public var wallSeconds: Double
    public var bytes: Int
    public var warnings: [String]
    public var cancelled: Bool
    /// Mean milliseconds per frame spent in each stage (busy time, not waiting): decode+analysis,
    /// render, colour conversion, encode+mux.
    public var stageMilliseconds: StageTimes = StageTimes()

    public var framesPerSecond: Double { wallSeconds > 0 ? Double(frames) / wallSeconds : 0 }
    public var realTimeFactor: Double { wallSeconds > 0 ? mediaSeconds / wallSeconds : 0 }
}

/// Progress reports, at most a few per second.
public struct RenderProgress: Sendable {
    public enum Phase: String, Sendable { case analysing, rendering }
    /// The first pass over the song (tempo and beats), then the frames.
    public var phase: Phase
    public var frames: Int
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
    public var decodeAnalysis = 0.0
    public var render = 0.0
    public var convert = 0.0
    public var encode = 0.0
    /// Render time split by layer (shader name, ms per frame), bottom first.
    public var layers: [(name: String, milliseconds: Double)] = []
    public init() {}
}
