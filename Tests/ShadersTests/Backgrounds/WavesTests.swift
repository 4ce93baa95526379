import MarbleCore
import Testing
@testable import Shaders

/// Waves surge on the beat and their crest lines do not step (issue 25).
@Suite struct WavesTests {
    static let features = Look.features(frame: 120, loudness: 1, beat: 0)

    @Test("a beat lifts the crests and whitens the foam")
    func beatsShow() throws {
        let calm = try Look.frame("waves", seconds: 4, features: Self.features)
        let beat = try Look.frame("waves", seconds: 4, features: Look.features(frame: 120, loudness: 1, beat: 1))
        // Before: 0 (the beat was not read).
        let change = Look.meanDifference(calm, beat)
        #expect(change > 4, "a beat changes the frame by \(change)")
    }

    @Test("crest lines are antialiased at 640x360: close to the frame drawn at 1280x720 and averaged down")
    func crestsDoNotStep() throws {
        let error = try Look.supersampleError("waves", seconds: 4, features: Self.features, width: 640, height: 360)
        // Before: 1.47 (a quarter-resolution grid, crests sharper than a grid pixel).
        #expect(error < 0.75, "mean difference \(error)")
    }
}
