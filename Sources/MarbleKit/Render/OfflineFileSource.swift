import MarbleAnalysis
import MarbleCore
import MarbleMedia
import MarblePipeline

/// A media file analysed offline: frames follow one another as fast as the pipeline takes them, each
/// with the features of its audio (and the beat grid found by the first pass over the whole song) and
/// its picture (the input's video, or a background video or still).
///
/// Frame stepping: decode until the extractor has the samples frame n needs, compute its features.
/// Frame n exists while it starts before the end of the sound: ceil(duration · fps) frames. The decoder
/// delivers the sound on the output's timeline (a late start and gaps as silence: see MediaTimeline.swift),
/// so sample s is heard at s / rate seconds, in frame floor(s / rate · fps), as in the muxed sound.
///
/// Safety of @unchecked Sendable: used by the pipeline's source thread only; `durationSeconds` and
/// `warnings` are read after that thread has ended.
final class OfflineFileSource: FrameSource, @unchecked Sendable {
    let decoder: AudioDecoder
    let extractor: FeatureExtractor
    let pictures: PictureSource?
    let fps: Rational
    /// For a single picture (a PNG): the only frame produced; earlier ones are only analysed.
    let targetFrame: Int?
    /// Seconds of sound decoded so far (the whole duration once the source has ended).
    private(set) var durationSeconds = 0.0
    private var frame = 0
    private var ended = false
    private var scratch: AudioFeatures?

    init(decoder: AudioDecoder, extractor: FeatureExtractor, pictures: PictureSource?, fps: Rational, targetFrame: Int?) {
        self.decoder = decoder
        self.extractor = extractor
        self.pictures = pictures
        self.fps = fps
        self.targetFrame = targetFrame
    }

    var hasPictures: Bool { pictures != nil && pictures?.still == nil }
    var warnings: [String] { decoder.warnings + (pictures?.warnings ?? []) }
    func makeFeatures() -> AudioFeatures { extractor.makeFeatures() }

    func nextDueFrame(cancel: CancellationFlag) throws(MarbleError) -> DueFrame? {
        let rate = Double(decoder.sampleRate)
        while !cancel.isCancelled {
            let needed = extractor.samplesNeeded(forFrame: frame)
            while !ended && decoder.samplesDelivered < needed {
                let more = try decoder.decodeNext { left, right in extractor.append(left: left, right: right) }
                if !more {
                    ended = true
                    extractor.finish()
                }
            }
            durationSeconds = Double(decoder.samplesDelivered) / rate
            if ended && fps.seconds(ofFrame: frame) >= durationSeconds - 1e-9 { return nil }
            guard let target = targetFrame else { return DueFrame(index: frame) }
            if frame == target { return DueFrame(index: frame) }
            if frame > target { return nil }
            // Frames before a single picture's are analysed (smoothing, beats) but not drawn.
            if scratch == nil { scratch = extractor.makeFeatures() }
            extractor.computeFeatures(forFrame: frame, into: &scratch!)
            frame += 1
        }
        return nil
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
        guard let pictures else { return }
        if let still = pictures.still {
            slot.pictureView = still.view
        } else if let texture = slot.picture {
            try pictures.picture(at: slot.time, into: texture)
            slot.pictureView = texture.view
        }
    }
}
