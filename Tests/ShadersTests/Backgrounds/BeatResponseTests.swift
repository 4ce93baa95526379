import MarbleCore
import Testing
@testable import Shaders

/// The slow space backgrounds move and show each beat (issue 12, defect 7): measured as the mean
/// frame difference (0…255 per channel) at 128x72.
@Suite struct BeatResponseTests {
    /// Before: beat 0.66 / 0.56 / 0.0, one second 0.61 / 0.18 / 0.48 (andromeda, oculus, m1lky_way).
    @Test("a beat changes the picture visibly, and a second of music moves it", arguments: ["andromeda", "oculus", "m1lky_way"])
    func beatAndMotion(_ name: String) throws {
        let calm = try Look.frame(name, seconds: 6, features: Look.features(frame: 180, loudness: 1.2, beat: 0))
        let beat = try Look.frame(name, seconds: 6, features: Look.features(frame: 180, loudness: 1.2, beat: 1))
        let later = try Look.frame(name, seconds: 7, features: Look.features(frame: 180, loudness: 1.2, beat: 0))
        let beatChange = Look.meanDifference(calm, beat), motion = Look.meanDifference(calm, later)
        #expect(beatChange > 4, "\(name): a beat changes the frame by \(beatChange)")
        #expect(motion > 2, "\(name): a second moves the frame by \(motion)")
    }
}
