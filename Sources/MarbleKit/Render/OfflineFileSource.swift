import MarbleAnalysis
import MarbleCore
import MarbleMedia
import MarblePipeline

/// A media file analysed offline: frames follow one another as fast as the pipeline takes them, each
/// with the features of its audio (and the beat grid found by the first pass over the whole song) and
/// its picture (the input's video, or a background video or still).
///
/// Frame stepping is the ``OfflineStepper``'s, the one the analysis pass and the bench use too: frame n
/// exists while it starts before the end of the sound. A render of some of the frames (one picture, a
/// segment) first replays the frames before its first with ``skip(to:cancel:each:)``: their features
/// are computed (and handed to the renderer) but not drawn, so every piece of state that carries
/// from frame to frame is at the first frame what a one-pass render has there.
///
/// Safety of @unchecked Sendable: used by the pipeline's source thread only; `durationSeconds` and
/// `warnings` are read after that thread has ended.
final class OfflineFileSource: FrameSource, @unchecked Sendable {
    let stepper: OfflineStepper
    let pictures: PictureSource?
    /// A still picture already at the output size (`--background cover`), used when `pictures` is nil.
    let still: Texture?
    /// The frames produced (nil: all); earlier ones are only replayed (``skip(to:cancel:each:)``).
    let frames: Range<Int>?
    /// Features of frames analysed but not drawn (replayed, or dropped for want of a slot).
    private var scratch: AudioFeatures?

    init(stepper: OfflineStepper, pictures: PictureSource?, still: Texture? = nil, frames: Range<Int>?) {
        self.stepper = stepper
        self.pictures = pictures
        self.still = still
        self.frames = frames
    }

    var fps: Rational { stepper.fps }
    /// Seconds of sound decoded so far (the whole duration once the source has ended).
    var durationSeconds: Double { stepper.decodedSeconds }
    var hasPictures: Bool { pictures != nil && pictures?.still == nil }
    var warnings: [String] { stepper.decoder.warnings + (pictures?.warnings ?? []) }
    func makeFeatures() -> AudioFeatures { stepper.extractor.makeFeatures() }

    /// Analyses frames up to `first` (excluded) without drawing them, handing each one's features to
    /// `each` (the renderer's ``FrameRenderer/advance(features:index:)``: bindings smooth over them).
    /// Returns false when the sound ended, or `cancel` was raised, before `first`.
    func skip(to first: Int, cancel: CancellationFlag,
              each: (_ features: AudioFeatures, _ index: Int) -> Void) throws(MarbleError) -> Bool {
        if scratch == nil { scratch = stepper.extractor.makeFeatures() }
        while stepper.frame < first {
            if stepper.frame % 256 == 0, cancel.isCancelled { return false }
            let index = stepper.frame
            guard try stepper.next(into: &scratch!) else { return false }
            each(scratch!, index)
        }
        // The pictures jump (a keyframe before, then decoded forward) instead of being decoded all the way.
        try pictures?.skip(to: fps.seconds(ofFrame: first))
        return true
    }

    func nextDueFrame(cancel: CancellationFlag) throws(MarbleError) -> DueFrame? {
        guard !cancel.isCancelled, try stepper.load() else { return nil }
        let frame = stepper.frame
        if let frames {
            precondition(frame >= frames.lowerBound, "skip(to:) replays the frames before the first one drawn")
            if frame >= frames.upperBound { return nil }
        }
        return DueFrame(index: frame)
    }

    func produce(_ due: DueFrame, into slot: FrameSlot?) throws(MarbleError) {
        guard let slot else {
            if scratch == nil { scratch = stepper.extractor.makeFeatures() }
            stepper.step(into: &scratch!)
            return
        }
        slot.index = stepper.frame
        stepper.step(into: &slot.features)
        slot.time = slot.features.time
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
