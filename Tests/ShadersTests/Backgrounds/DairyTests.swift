import MarbleCore
import Testing
@testable import Shaders

/// Dairy's patches have crisp edges that do not step (issue 25).
@Suite struct DairyTests {
    @Test("patch edges are antialiased at 640x360: close to the frame drawn at 1280x720 and averaged down")
    func edgesDoNotStep() throws {
        let error = try Look.supersampleError("dairy", seconds: 4, features: Look.features(frame: 120, loudness: 1, beat: 0),
                                              width: 640, height: 360)
        // Before: 1.23 (a fifth-resolution grid whatever the size).
        #expect(error < 0.6, "mean difference \(error)")
    }
}
