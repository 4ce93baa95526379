/// One measured benchmark: a shader, a preset, or the whole pipeline, at one size and thread count.
package struct BenchResult: Sendable, Equatable {
    package enum Kind: String, Sendable { case shader, preset, pipeline }

    package var name: String
    package var kind: Kind
    package var width: Int
    package var height: Int
    package var threads: Int
    package var frames: Int
    /// The whole frame: for shaders prepare + render; for presets decode … convert (… encode); for the
    /// pipeline the interval between finished frames of a real `RenderJob`.
    package var total: StageStats
    package var stages: [StageStats]
    /// Frames per second the frame time allows (pipeline: frames / wall time).
    package var fps: Double
    /// Mallocs per frame in the stages that must not allocate (the render path), nil when not counted.
    package var allocationsPerFrame: Double?
    /// The process's peak resident memory after this benchmark, MB (it only grows during a run).
    package var peakRSSMegabytes: Double
    /// Free-form remark (e.g. the encoder the pipeline used).
    package var note: String?

    package init(name: String, kind: Kind, width: Int, height: Int, threads: Int, frames: Int, total: StageStats,
                stages: [StageStats], fps: Double, allocationsPerFrame: Double?, peakRSSMegabytes: Double,
                note: String? = nil) {
        self.name = name; self.kind = kind; self.width = width; self.height = height; self.threads = threads
        self.frames = frames; self.total = total; self.stages = stages; self.fps = fps
        self.allocationsPerFrame = allocationsPerFrame; self.peakRSSMegabytes = peakRSSMegabytes; self.note = note
    }

    package var size: String { "\(width)x\(height)" }

    /// Share of a frame budget (e.g. 16.7 ms at 60 fps) the median frame takes.
    package func budgetShare(_ budgetMilliseconds: Double) -> Double { total.p50 / budgetMilliseconds }
}

/// One `--compare-ffmpeg` measurement: the same song → video job, ours and FFmpeg's filter.
package struct FFmpegComparisonResult: Sendable, Equatable {
    package var filter: String
    package var width: Int
    package var height: Int
    package var fps: Double
    package var encoderPreset: String
    package var songSeconds: Double
    /// Median wall time of each side over the alternating rounds, seconds.
    package var oursSeconds: Double
    package var ffmpegSeconds: Double
    /// Median CPU time (user + system, every thread) of each side, seconds: with the wall time, how
    /// well each side keeps the cores busy; 0 when not measured.
    package var oursCPUSeconds: Double
    package var ffmpegCPUSeconds: Double
    /// Median wall time of the encoders alone: `ffmpeg` encoding as many black frames of this size with
    /// the same x264 settings and the song's sound as AAC. No song → MP4 job with these encoders takes
    /// much less, whatever draws its pictures (0: not measured).
    package var encoderOnlySeconds: Double
    /// Median CPU time of the encoders alone, seconds (0: not measured).
    package var encoderOnlyCPUSeconds: Double = 0
    /// Median wall and CPU time of the encoders alone on our own pictures (``OwnPicturesCeiling``: our
    /// frames drawn beforehand, then only our encoding sink timed), seconds (0: not measured).
    package var ownPicturesSeconds: Double = 0
    package var ownPicturesCPUSeconds: Double = 0
    /// Whether that encoding wrote the render's bytes (nil: not measured).
    package var ownPicturesSameBytes: Bool?
    /// Alternating rounds the medians are taken over.
    package var rounds: Int
    /// "WIDTHxHEIGHT".
    package var size: String { "\(width)x\(height)" }
    /// Real-time factors (song seconds / wall seconds).
    package var oursSpeed: Double { songSeconds / oursSeconds }
    package var ffmpegSpeed: Double { songSeconds / ffmpegSeconds }
    /// Our speed / FFmpeg's: above 1 we are faster.
    package var ratio: Double { ffmpegSeconds / oursSeconds }
    /// The encoders alone's real-time factor, and about the highest ratio any visualiser encoding with
    /// them could reach against this FFmpeg job (nil when not measured).
    package var encoderOnlySpeed: Double? { encoderOnlySeconds > 0 ? songSeconds / encoderOnlySeconds : nil }
    package var ratioCeiling: Double? { encoderOnlySeconds > 0 ? ffmpegSeconds / encoderOnlySeconds : nil }
    /// Our speed as a share of the encoders alone's (1: drawing cost nothing; nil when not measured).
    package var shareOfCeiling: Double? { encoderOnlySeconds > 0 ? encoderOnlySeconds / oursSeconds : nil }
    /// The real-time factor of the encoders alone on our pictures, and our speed as a share of it (1:
    /// drawing, and the pipeline around the encoder, cost nothing).
    package var ownPicturesSpeed: Double? { ownPicturesSeconds > 0 ? songSeconds / ownPicturesSeconds : nil }
    package var shareOfOwnCeiling: Double? { ownPicturesSeconds > 0 ? ownPicturesSeconds / oursSeconds : nil }

    package init(filter: String, width: Int, height: Int, fps: Double, encoderPreset: String, songSeconds: Double,
                oursSeconds: Double, ffmpegSeconds: Double, oursCPUSeconds: Double = 0, ffmpegCPUSeconds: Double = 0,
                encoderOnlySeconds: Double = 0, encoderOnlyCPUSeconds: Double = 0, ownPicturesSeconds: Double = 0,
                ownPicturesCPUSeconds: Double = 0, ownPicturesSameBytes: Bool? = nil, rounds: Int = 1) {
        self.filter = filter; self.width = width; self.height = height; self.fps = fps
        self.encoderPreset = encoderPreset; self.songSeconds = songSeconds
        self.oursSeconds = oursSeconds; self.ffmpegSeconds = ffmpegSeconds
        self.oursCPUSeconds = oursCPUSeconds; self.ffmpegCPUSeconds = ffmpegCPUSeconds
        self.encoderOnlySeconds = encoderOnlySeconds; self.encoderOnlyCPUSeconds = encoderOnlyCPUSeconds
        self.ownPicturesSeconds = ownPicturesSeconds; self.ownPicturesCPUSeconds = ownPicturesCPUSeconds
        self.ownPicturesSameBytes = ownPicturesSameBytes
        self.rounds = rounds
    }
}
