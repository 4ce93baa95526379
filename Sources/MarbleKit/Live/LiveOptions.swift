import MarbleCore
import MarbleMedia
import MarbleRender

/// What `marble live` was asked to do.
public struct LiveOptions: Sendable {
    /// Where the sound comes from (the default sink's monitor unless a source is named).
    public var capture = CaptureOptions()
    /// Record the visuals with the captured sound to this file (.mp4, .mkv, .mov, .webm), or nil.
    public var output: String?
    /// The render size; nil: 1280x720 when recording, else the terminal's cell grid (two pixels a cell).
    public var size: (width: Int, height: Int)?
    public var fps = Rational(30)
    /// A bundled preset name; nil: the default.
    public var preset: String?
    /// Stop after this many seconds (a recording of exactly that length), or run until q / Ctrl-C.
    public var duration: Double?
    public var threads = StripScheduler.availableCores
    /// Draw in the terminal (the command line sets it when standard output is one).
    public var terminal = true
    public var crf = 23
    /// Fast enough to keep up while rendering on two cores (see docs/BENCHMARKS.md).
    public var encoderPreset = EncoderPreset.superfast
    /// Sound bitrate, kbit/s (nil: 160).
    public var audioBitrate: Int?
    /// Seconds of silence after which the picture is refreshed at a low rate.
    public var idleAfter = 2.0

    public init() {}

    /// Checks the values a user typed, before anything is opened.
    public func validate() throws(MarbleError) {
        try capture.validate()
        _ = try Limits.check(rate: fps)
        if let size {
            guard (16...7680).contains(size.width), (16...4320).contains(size.height) else {
                throw MarbleError(.option, "--size \(size.width)x\(size.height): width and height must be between 16x16 and 7680x4320")
            }
            guard size.width % 2 == 0, size.height % 2 == 0 else {
                throw MarbleError(.option, "--size \(size.width)x\(size.height): width and height must be even (YUV 4:2:0 video)")
            }
        }
        if let duration {
            guard duration > 0 else { throw MarbleError(.option, "--duration \(duration): must be longer than 0 s") }
            _ = try Limits.check(duration, in: Limits.seconds, "--duration", unit: " s")
        }
        _ = try Limits.check(threads, in: Limits.threads, "--threads")
        guard (0...63).contains(crf) else { throw MarbleError(.option, "--crf \(crf): must be between 0 and 63") }
        if let audioBitrate, !(16...512).contains(audioBitrate) {
            throw MarbleError(.option, "--audio-bitrate \(audioBitrate): must be between 16 and 512 (kbit/s)")
        }
        if let output {
            guard let format = OutputFormat(path: output), format != .png else {
                throw MarbleError(.option, "\(output): a recording is a video (use .mp4, .mkv, .mov or .webm)")
            }
        } else if !terminal {
            throw MarbleError(.option, "marble live draws in a terminal: standard output is not one (record with -o FILE instead)")
        }
    }

    /// The frame count for `duration` (exactly ceil(duration · fps)), or nil.
    var frameLimit: Int? { duration.map { fps.frameCount(covering: $0) } }
}
