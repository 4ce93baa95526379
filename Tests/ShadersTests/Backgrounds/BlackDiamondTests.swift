import MarbleCore
import Testing
@testable import Shaders

/// Black diamond's facet edges neither bead nor step, and blaze on beats (issue 25).
@Suite struct BlackDiamondTests {
    static let features = Look.features(frame: 120, loudness: 1, beat: 0)

    @Test("edges are antialiased at 640x360: close to the frame drawn at 1280x720 and averaged down")
    func edgesDoNotStep() throws {
        let error = try Look.supersampleError("black_diamond", seconds: 4, features: Self.features, width: 640, height: 360)
        // Before: 0.87 (the edge's kink sampled on the grid: beads along every edge).
        #expect(error < 0.7, "mean difference \(error)")
    }

    @Test("a beat brightens the edges")
    func beatsShow() throws {
        let calm = try Look.frame("black_diamond", seconds: 4, features: Self.features)
        let beat = try Look.frame("black_diamond", seconds: 4, features: Look.features(frame: 120, loudness: 1, beat: 1))
        #expect(Look.meanLuminance(beat) > Look.meanLuminance(calm) + 3)
    }
}
