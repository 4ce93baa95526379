import MarbleCore
import MarbleMedia
import MarbleRender

/// What `marble live` was asked to do.
public struct LiveOptions: Sendable {
    /// Where the sound comes from.
    public enum SoundInput: Sendable, Equatable {
        /// A capture source (``capture``): the default sink's monitor unless a source is named.
        case capture
        /// Files played at real-time pace, one after another (from the top again when `loop`).
        case playlist(paths: [String], loop: Bool)
    }

    /// Where the sound comes from: a capture source (the default) or a playlist of files.
    public var sound = SoundInput.capture
    /// The session's input: the capture (the source asked for), or the songs.
    public var sessionInput: SessionInput {
        switch sound {
        case .capture: .capture(source: capture.source)
        case .playlist(let paths, let loop): .playlist(paths, loop: loop)
        }
    }
    /// Capture settings (for ``SoundInput/capture``).
    public var capture = CaptureOptions()
    /// Where a playlist is heard too (``LiveOptions/SoundInput/playlist(paths:loop:)``): the speakers, or nil for nowhere.
    public var speakers: Speakers?

    /// A PulseAudio sink to play a playlist to.
    public struct Speakers: Sendable, Equatable {
        /// The sink's name, or nil for the default sink.
        public var device: String?
        /// The sound device's target latency, in seconds.
        public var bufferSeconds = 0.1
        /// The default sink, or the named one.
        public init(device: String? = nil) { self.device = device }
    }
    /// Outputs besides the terminal: files (.mp4, .mkv, .mov, .webm), recorded with the sound, and
    /// streams (udp://, srt://, rtmp://). H.264 outputs share one encoding.
    public var outputs: [String] = []
    /// Show the picture in a window (SDL2): resizable, f fullscreen.
    public var window = false
    /// Open the window fullscreen.
    public var fullscreen = false
    /// Stream bitrate in kbit/s (nil: about 0.1 bit per pixel and frame, see `streamBitrate`).
    public var bitrate: Int?
    /// Seconds between a stream's keyframes.
    public var keyframeSeconds = 2.0
    /// The render size; nil: 1280x720 when encoding, else the window's or the terminal's size.
    public var size: (width: Int, height: Int)?
    /// Frames per second of the picture and of recordings (1…240, fractions allowed: `Rational(30000, 1001)`).
    public var fps = Rational(30)
    /// A bundled preset name; nil: the default.
    public var preset: String?
    /// A scene made in code (`--milkdrop`'s); when set, drawn instead of `preset`, and the preset keys
    /// do not switch it.
    public var scene: Preset?
    /// Stop after this many seconds (a recording of exactly that length), or run until q / Ctrl-C.
    public var duration: Double?
    /// Threads the renderer draws row bands on (default: one per core; at most 4 per core).
    public var threads = StripScheduler.availableCores
    /// Where to listen for OSC control (`PORT`, on 127.0.0.1, or `HOST:PORT`), or nil: `--osc`.
    public var osc: String?
    /// Draw in the terminal (the command line sets it when standard output is one).
    public var terminal = true
    /// Constant rate factor of recordings, 0…63 (lower is better and bigger). With a stream among the outputs the H.264 encoding (shared by the stream and the H.264 recordings) follows `bitrate` instead.
    public var crf = 23
    /// Fast enough to keep up while rendering on two cores (see docs/BENCHMARKS.md).
    public var encoderPreset = EncoderPreset.superfast
    /// Sound bitrate, kbit/s (nil: 160).
    public var audioBitrate: Int?
    /// Seconds of silence after which the picture is refreshed at a low rate.
    public var idleAfter = 2.0

    /// The defaults: capture the default sink's monitor, draw in the terminal at 30 fps, no outputs.
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
        if let bitrate { _ = try Limits.check(bitrate, in: 100...100_000, "--bitrate", unit: " kbit/s") }
        _ = try Limits.check(keyframeSeconds, in: 0.1...60, "--keyframe", unit: " s")
        try checkRecordingsAreNotSongs(try targets())
        if outputs.isEmpty && !terminal && !window {
            throw MarbleError(.option, "nothing to show: standard output is not a terminal (use --window, or -o FILE or -o URL)")
        }
    }

    /// The outputs as encoder targets, checked: a file of a video format, or a stream URL; no output
    /// named twice.
    func targets() throws(MarbleError) -> [MediaWriter.Target] {
        var seen = Set<String>()
        var targets: [MediaWriter.Target] = []
        for output in outputs {
            guard seen.insert(output).inserted else { throw MarbleError(.option, "\(output): named twice with -o") }
            if let url = try StreamURL(output) {
                targets.append(.stream(url))
            } else {
                guard let format = OutputFormat(path: output), format != .png else {
                    throw MarbleError(.option, "\(output): a recording is a video (use .mp4, .mkv, .mov or .webm) or a stream (udp://, srt://, rtmp://)")
                }
                targets.append(.file(output))
            }
        }
        return targets
    }

    /// A recording must not be one of the songs it plays (the same device and inode, however the path
    /// is spelled: `./song.mp4`, a symbolic or hard link, an M3U entry): it would replace what it reads.
    private func checkRecordingsAreNotSongs(_ targets: [MediaWriter.Target]) throws(MarbleError) {
        guard case .playlist(let songs, _) = sound else { return }
        for case .file(let path) in targets {
            try OutputFile.checkNotAnInput(path, inputs: songs.map { (path: $0, role: "a song it plays") })
        }
    }

    /// The stream bitrate (kbit/s) for a picture of `pixels`: ``bitrate``, or 0.1 bit per pixel and
    /// frame (2.8 Mbit/s at 720p30, 6.2 at 1080p30), at least 500.
    func streamBitrate(pixels: Int) -> Int {
        bitrate ?? max(500, Int((Double(pixels) * fps.doubleValue * 0.1 / 1000).rounded()))
    }

    /// The frame count for `duration` (exactly ceil(duration · fps)), or nil.
    var frameLimit: Int? { duration.map { fps.frameCount(covering: $0) } }
}
