internal import CFFmpeg

// The output's timeline: one rule for the analysis, the pictures and the muxed sound.
//
// - Time 0 of the output is the earliest start among the streams a render uses: the input's own video
//   (its stream's first timestamp) and its sound (the timestamp of the first decoded sample, after the
//   decoder dropped what the container says to skip, such as AAC priming). For a file whose streams
//   start together, at 0 or anywhere else, that is where they start, so ordinary files are unchanged.
// - A negative start is shifted, never trimmed: ogg audio whose timestamps begin at -1 s plays from the
//   output's time 0, whole; a video that starts 1 s after such audio shows its first picture until then.
//   (An MP4 edit list that cuts the start is already applied by FFmpeg's demuxer and decoder.)
// - The sound is placed by its timestamps (``SamplePlacement``): a later start, or a jump forward of
//   more than ``SamplePlacement/gapTolerance``, is decoded as silence; samples that overlap what was
//   already delivered by more than that are dropped. Smaller differences are timestamp rounding (a
//   Matroska millisecond) and are ignored, so the sound never drifts further than that from its stamps.
// - The copied sound (no re-encode) keeps its own packets, shifted by the same origin (``AudioTrack``),
//   so a late start or a gap stays where it is, in the output's timestamps; the render lasts until the
//   sound's end on this timeline.

extension MediaInput {
    /// The first timestamp of the input's real video stream (not cover art), in seconds; nil without one.
    var videoStartSeconds: Double? {
        guard let index = bestStream(AVMEDIA_TYPE_VIDEO) else { return nil }
        let s = stream(index)
        guard s.pointee.start_time != marble_av_nopts_value() else { return nil }
        return Double(s.pointee.start_time) * s.pointee.time_base.doubleValue
    }

    /// Where a stream ends in the file's time (seconds), as the container states it: the stream's start
    /// plus its duration, or else the container's; nil when unknown.
    func statedEndSeconds(ofStream index: Int32) -> Double? {
        let s = stream(index)
        if s.pointee.duration != marble_av_nopts_value(), s.pointee.duration > 0 {
            let start = s.pointee.start_time == marble_av_nopts_value() ? 0 : s.pointee.start_time
            return Double(start + s.pointee.duration) * s.pointee.time_base.doubleValue
        }
        if context.pointee.duration != marble_av_nopts_value(), context.pointee.duration > 0 {
            let start = context.pointee.start_time == marble_av_nopts_value() ? 0 : context.pointee.start_time
            return Double(start + context.pointee.duration) / Double(AV_TIME_BASE)
        }
        return nil
    }
}

/// Where each decoded block of sound goes on the output's timeline, from its timestamp: how much
/// silence comes before it and how many of its first samples are dropped. Positions are in samples
/// from the output's time 0.
///
/// The first block (and the first after a seek) is placed exactly, so a late start is padded to the
/// sample and a seek lands on its target; later blocks are taken as continuing the sound unless their
/// timestamp is more than ``gapTolerance`` away from where the sound has got to.
struct SamplePlacement {
    /// Seconds a block's timestamp may differ from where the sound has got to before it counts as a
    /// gap or an overlap: one frame at 50 fps, and well above timestamp rounding (1 ms in Matroska).
    static let gapTolerance = 0.02

    private let tolerance: Int
    /// True until a block is placed: the next one is placed to the sample.
    private(set) var exact = true

    init(sampleRate: Int) {
        tolerance = Int((SamplePlacement.gapTolerance * Double(sampleRate)).rounded())
    }

    /// The next block starts to be placed exactly (after a seek).
    mutating func restart() { exact = true }

    /// A block of `count` samples stamped `start` (nil: no timestamp, it continues the sound) arrives when
    /// `position` samples have been delivered: the silence to deliver before it, and the samples to drop
    /// from its start (all of them when it lies wholly before `position`).
    mutating func place(start: Int?, count: Int, position: Int) -> (silence: Int, drop: Int) {
        guard let start else {
            exact = false
            return (0, 0)
        }
        let offset = start - position
        let limit = exact ? 0 : tolerance
        if offset > limit {
            exact = false
            return (offset, 0)
        }
        if offset < -limit {
            let drop = min(count, -offset)
            if drop < count { exact = false }
            return (0, drop)
        }
        exact = false
        return (0, 0)
    }
}
