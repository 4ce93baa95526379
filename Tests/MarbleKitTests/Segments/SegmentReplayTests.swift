@testable import MarbleAnalysis
import MarbleCore
@testable import MarbleKit
@testable import MarbleMedia
@testable import MarblePipeline
import TestSupport
import Testing

/// The analysis state a piece starts from: after `OfflineFileSource.skip(to:)`, the features of its
/// first frames (smoothing, peaks, auto-sensitivity, loudness, beat phase and count, waveform) are the
/// one-pass render's, bit for bit, whatever the first frame; without the replay they are not.
@Suite("OfflineFileSource.skip(to:): a piece starts from the one-pass analysis state")
struct SegmentReplayTests {
    static let fps = Rational(24)   // 44.1 kHz: 1837.5 samples a frame

    func source(_ input: String, frames: Range<Int>?) throws -> OfflineFileSource {
        let report = try MediaAnalysis.report(path: input)
        let decoder = try AudioDecoder(path: input)
        let extractor = try MediaAnalysis.extractor(sampleRate: decoder.sampleRate, fps: Self.fps,
                                                    configuration: AnalysisConfiguration(), report: report)
        return OfflineFileSource(stepper: OfflineStepper(decoder: decoder, extractor: extractor, fps: Self.fps),
                                 pictures: nil, frames: frames)
    }

    /// The features of every frame the source produces, in order.
    func produced(by source: OfflineFileSource) throws -> [AudioFeatures] {
        let slot = try FrameSlot(width: 16, height: 16, features: source.makeFeatures(), hasPicture: false, needs: FrameNeeds())
        var all: [AudioFeatures] = []
        while let due = try source.nextDueFrame(cancel: CancellationFlag()) {
            try source.produce(due, into: slot)
            all.append(slot.features)
        }
        return all
    }

    @Test("the first frames of a piece have the one-pass features, for any first frame", arguments: [1, 37, 45, 74, 111])
    func sameFeatures(first: Int) throws {
        let input = try TestMedia.tone("flac", seconds: 5.2, codec: ["-c:a", "flac"])
        let onePass = try produced(by: source(input, frames: nil))
        #expect(onePass.count == 125)   // ceil(5.2 s × 24)
        let piece = try source(input, frames: first..<(first + 4))
        var indices: [Int] = []
        let reached = try piece.skip(to: first, cancel: CancellationFlag()) { _, index in indices.append(index) }
        #expect(reached)
        #expect(indices == Array(0..<first), "every frame before the first is replayed, in order")
        let features = try produced(by: piece)
        #expect(features.count == 4)
        #expect(features == Array(onePass[first..<(first + 4)]), "frame \(first): the piece's features differ")
        #expect(onePass[first].beatIndex >= 0 || first < 24, "the tone's pulses give beats")

        // Without the replay (a fresh extractor that has every sample), the state is not the same.
        let fresh = try source(input, frames: nil)
        let decoder = fresh.stepper.decoder, extractor = fresh.stepper.extractor
        while try decoder.decodeNext({ left, right in extractor.append(left: left, right: right) }) {}
        extractor.finish()
        var alone = extractor.makeFeatures()
        extractor.computeFeatures(forFrame: first, into: &alone)
        alone.time = onePass[first].time
        #expect(alone != onePass[first], "frame \(first) computed alone equals the one-pass frame: the test proves nothing")
    }
}
