import MarbleAnalysis
import MarbleCore
import MarbleMedia
import MarblePipeline

/// A media file analysed offline: frames follow one another as fast as the pipeline takes them, each
/// with the features of its audio (and the beat grid found by the first pass over the whole song) and
/// its picture (the input's video, or a background video or still).
///
/// Frame stepping: decode until the extractor has the samples frame n needs, compute its features.
/// Frame n exists while it starts before the end of the sound: ceil(samples · fps / rate) frames
/// (``Rational/frameCount(samples:sampleRate:)``). A render of some of the frames (one picture, a
/// segment) first replays the frames before its first with ``skip(to:cancel:each:)``: their features
/// are computed (and handed to the renderer) but not drawn, so every piece of state that carries
/// from frame to frame is at the first frame what a one-pass render has there. The decoder
/// delivers the sound on the output's timeline (a late start and gaps as silence: see MediaTimeline.swift),
/// so sample s is heard at s / rate seconds, in frame floor(s / rate · fps), as in the muxed sound.
///
/// Safety of @unchecked Sendable: used by the pipeline's source thread only; `durationSeconds` and
/// `warnings` are read after that thread has ended.
final class OfflineFileSource: FrameSource, @unchecked Sendable {
    let decoder: AudioDecoder
    let extractor: FeatureExtractor
    let pictures: PictureSource?
    /// A still picture already at the output size (`--background cover`), used when `pictures` is nil.
    let still: Texture?
    let fps: Rational
    /// The frames produced (nil: all); earlier ones are only replayed (``skip(to:cancel:each:)``).
    let frames: Range<Int>?
    /// Seconds of sound decoded so far (the whole duration once the source has ended).
    private(set) var durationSeconds = 0.0
    private var frame = 0
    private var ended = false
    private var scratch: AudioFeatures?

    init(decoder: AudioDecoder, extractor: FeatureExtractor, pictures: PictureSource?, still: Texture? = nil,
         fps: Rational, frames: Range<Int>?) {
        self.decoder = decoder
        self.extractor = extractor
        self.pictures = pictures
        self.still = still
        self.fps = fps
        self.frames = frames
    }

    var hasPictures: Bool { pictures != nil && pictures?.still == nil }
    var warnings: [String] { decoder.warnings + (pictures?.warnings ?? []) }
    func makeFeatures() -> AudioFeatures { extractor.makeFeatures() }

    /// Analyses frames up to `first` (excluded) without drawing them, handing each one's features to
    /// `each` (the renderer's ``FrameRenderer/advance(features:index:)``: bindings smooth over them).
    /// Returns false when the sound ended, or `cancel` was raised, before `first`.
    func skip(to first: Int, cancel: CancellationFlag,
              each: (_ features: AudioFeatures, _ index: Int) -> Void) throws(MarbleError) -> Bool {
        while frame < first {
            if frame % 256 == 0, cancel.isCancelled { return false }
            guard try decode(forFrame: frame) else { return false }
            if scratch == nil { scratch = extractor.makeFeatures() }
            extractor.computeFeatures(forFrame: frame, into: &scratch!)
            scratch!.time = fps.seconds(ofFrame: frame)
            each(scratch!, frame)
            frame += 1
        }
        // The pictures jump (a keyframe before, then decoded forward) instead of being decoded all the way.
        try pictures?.skip(to: fps.seconds(ofFrame: first))
        return true
    }

    func nextDueFrame(cancel: CancellationFlag) throws(MarbleError) -> DueFrame? {
        guard !cancel.isCancelled, try decode(forFrame: frame) else { return nil }
        if let frames {
            precondition(frame >= frames.lowerBound, "skip(to:) replays the frames before the first one drawn")
            if frame >= frames.upperBound { return nil }
        }
        return DueFrame(index: frame)
    }

    /// Decodes as far as frame `index` needs; false when the sound ends before that frame starts.
    private func decode(forFrame index: Int) throws(MarbleError) -> Bool {
        let needed = extractor.samplesNeeded(forFrame: index)
        while !ended && decoder.samplesDelivered < needed {
            let more = try decoder.decodeNext { left, right in extractor.append(left: left, right: right) }
            if !more {
                ended = true
                extractor.finish()
            }
        }
        durationSeconds = Double(decoder.samplesDelivered) / Double(decoder.sampleRate)
        return !ended || index < fps.frameCount(samples: decoder.samplesDelivered, sampleRate: decoder.sampleRate)
    }

    func produce(_ due: DueFrame, into slot: FrameSlot?) throws(MarbleError) {
        defer { frame += 1 }
        guard let slot else {
            if scratch == nil { scratch = extractor.makeFeatures() }
            extractor.computeFeatures(forFrame: frame, into: &scratch!)
            return
        }
        slot.index = frame
        slot.time = fps.seconds(ofFrame: frame)
        extractor.computeFeatures(forFrame: frame, into: &slot.features)
        slot.features.time = slot.time
        if let still {
            slot.pictureView = still.view
            return
        }
        guard let pictures else { return }
        if let still = pictures.still {
            slot.pictureView = still.view
        } else if let texture = slot.picture {
            try pictures.picture(at: slot.time, into: texture)
            slot.pictureView = texture.view
        }
    }
}
