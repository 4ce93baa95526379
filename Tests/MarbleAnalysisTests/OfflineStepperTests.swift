@testable import MarbleAnalysis
import MarbleCore
import MarbleMedia
import TestSupport
import Testing

/// The one offline stepper (analysis pass, render source, segment replay, bench): which frames a song
/// has, when they are, and how far it decodes for each.
@Suite("OfflineStepper")
struct OfflineStepperTests {
    func stepper(_ path: String, fps: Rational) throws -> OfflineStepper {
        let decoder = try AudioDecoder(path: path)
        let extractor = try MediaAnalysis.extractor(sampleRate: decoder.sampleRate, fps: fps,
                                                    configuration: AnalysisConfiguration(), report: nil)
        return OfflineStepper(decoder: decoder, extractor: extractor, fps: fps)
    }

    /// Steps to the end: every frame's time.
    func times(_ stepper: OfflineStepper) throws -> [Double] {
        var features = stepper.extractor.makeFeatures()
        var times: [Double] = []
        while try stepper.next(into: &features) { times.append(features.time) }
        return times
    }

    @Test("a song has ceil(samples · fps / rate) frames, frame n at n / fps seconds", arguments: [
        // 0.51 s at 44.1 kHz is 22 491 samples: 15.3 frames at 30 fps, 12.24 at 24 fps, 30.6 at 60 fps.
        (Rational(30), 16), (Rational(24), 13), (Rational(60), 31),
    ])
    func frameGrid(fps: Rational, frames: Int) throws {
        let s = try stepper(try TestMedia.tone("wav", seconds: 0.51), fps: fps)
        let times = try self.times(s)
        #expect(s.decoder.samplesDelivered == 22_491)
        #expect(times.count == frames)
        #expect(times == (0..<frames).map { Double($0) * Double(fps.denominator) / Double(fps.numerator) })
        #expect(s.ended && s.frame == frames && s.framesDecoded == frames)
        #expect(s.decodedSeconds == 22_491.0 / 44_100)
    }

    @Test("a sound that ends on a frame boundary has no frame after it")
    func exactEnd() throws {
        // 0.5 s at 44.1 kHz: 22 050 samples, exactly 15 frames of 1470 at 30 fps.
        let s = try stepper(try TestMedia.tone("wav", seconds: 0.5), fps: Rational(30))
        #expect(try times(s).count == 15)
        var features = s.extractor.makeFeatures()
        features.rms = -1
        #expect(try !s.next(into: &features), "still past the end")
        #expect(features.rms == -1, "features untouched at the end")
        #expect(s.frame == 15)
    }

    @Test("load decodes only as far as the next frame needs, and again nothing more")
    func decodesOnDemand() throws {
        let s = try stepper(try TestMedia.tone("wav", seconds: 3), fps: Rational(30))
        #expect(try s.load())
        let needed = s.extractor.samplesNeeded(forFrame: 0)
        let delivered = s.decoder.samplesDelivered
        #expect(delivered >= needed)
        #expect(delivered < 3 * 44_100 / 2, "a 3 s song is not decoded whole for its first frame")
        #expect(try s.load())
        #expect(s.decoder.samplesDelivered == delivered)
        #expect(s.frame == 0 && !s.ended)
        var features = s.extractor.makeFeatures()
        s.step(into: &features)
        #expect(s.frame == 1 && features.time == 0)
    }

    @Test("the analysis pass's frames are the stepper's")
    func analysisPass() throws {
        let path = try TestMedia.tone("wav", seconds: 0.51)
        let report = try MediaAnalysis.report(path: path)
        let frames = try MediaAnalysis.frames(path: path, fps: Rational(24), configuration: AnalysisConfiguration(), report: report)
        let decoder = try AudioDecoder(path: path)
        let extractor = try MediaAnalysis.extractor(sampleRate: decoder.sampleRate, fps: Rational(24),
                                                    configuration: AnalysisConfiguration(), report: report)
        let s = OfflineStepper(decoder: decoder, extractor: extractor, fps: Rational(24))
        var features = extractor.makeFeatures()
        var stepped: [AnalysisReport.Frame] = []
        while try s.next(into: &features) { stepped.append(AnalysisReport.Frame(features)) }
        #expect(frames.count == 13)
        #expect(frames == stepped)
    }
}
