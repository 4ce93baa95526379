import MarbleCore
import MarbleMedia

/// Offline frame stepping, written once: decode until the extractor has the samples frame n needs,
/// compute its features, go on to frame n + 1. The analysis pass (`marble analyze --frames`), the
/// render's source, the replay before a segment's first frame and `marble bench` all step with it, so
/// they see the same frames with the same features.
///
/// Frame n exists while it starts before the end of the sound: once the decoder has ended (and the
/// extractor was told, ``FeatureExtractor/finish()``), the song has ceil(samples · fps / rate) frames
/// (``Rational/frameCount(samples:sampleRate:)``). Before the end, every frame whose samples have come
/// exists. The decoder delivers the sound on the output's timeline (see MediaTimeline.swift), so frame n
/// is at n / fps seconds, as in the muxed sound.
///
/// Use: ``load()`` (decodes; false at the end), then ``step(into:)`` (the features, then the next
/// frame), or ``next(into:)`` for both. Allocates nothing per frame (the decoder's and extractor's
/// buffers are their own).
package final class OfflineStepper {
    package let decoder: AudioDecoder
    package let extractor: FeatureExtractor
    package let fps: Rational
    /// The index of the next frame ``step(into:)`` computes.
    package private(set) var frame = 0
    /// Whether the decoder has reached the end of the sound (and the extractor was finished).
    package private(set) var ended = false

    package init(decoder: AudioDecoder, extractor: FeatureExtractor, fps: Rational) {
        self.decoder = decoder
        self.extractor = extractor
        self.fps = fps
    }

    /// Seconds of sound decoded so far (the whole duration once ``ended``).
    package var decodedSeconds: Double { Double(decoder.samplesDelivered) / Double(decoder.sampleRate) }

    /// The frames of the sound decoded so far: all of the song's once ``ended``.
    package var framesDecoded: Int { fps.frameCount(samples: decoder.samplesDelivered, sampleRate: decoder.sampleRate) }

    /// Decodes as far as the next frame (``frame``) needs. False when the sound ended before that frame
    /// starts: there is no such frame. Calling it again without a step decodes nothing more.
    package func load() throws(MarbleError) -> Bool {
        let needed = extractor.samplesNeeded(forFrame: frame)
        while !ended && decoder.samplesDelivered < needed {
            let extractor = extractor
            if try !decoder.decodeNext({ left, right in extractor.append(left: left, right: right) }) {
                ended = true
                extractor.finish()
            }
        }
        return !ended || frame < framesDecoded
    }

    /// Computes the next frame's features into `features` (its `time` set to n / fps) and moves on to
    /// the frame after it. Call it only after ``load()`` returned true for this frame.
    package func step(into features: inout AudioFeatures) {
        extractor.computeFeatures(forFrame: frame, into: &features)
        features.time = fps.seconds(ofFrame: frame)
        frame += 1
    }

    /// ``load()`` then ``step(into:)``: false, and `features` untouched, when there is no next frame.
    package func next(into features: inout AudioFeatures) throws(MarbleError) -> Bool {
        guard try load() else { return false }
        step(into: &features)
        return true
    }
}
