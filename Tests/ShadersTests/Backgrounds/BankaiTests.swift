import MarbleCore
import Testing
@testable import Shaders

/// Bankai brightens with loud music without clipping a large area to white (issue 12, defect 7).
@Suite struct BankaiTests {
    @Test("loud audio on a beat: under 1 % of the pixels white, yet brighter than silence")
    func noWhiteClipping() throws {
        for seconds in [2.0, 6.0, 11.0] {
            let loud = try Look.frame("bankai", seconds: seconds, features: Look.features(frame: 60, loudness: 1.5, beat: 1))
            let quiet = try Look.frame("bankai", seconds: seconds, features: Look.features(frame: 60, loudness: 0))
            // Before: about a fifth of the pixels at 255, 255, 255.
            #expect(Look.shareAtLeast(loud, 255) < 0.01, "white at \(seconds) s: \(Look.shareAtLeast(loud, 255))")
            #expect(Look.shareAtLeast(loud, 245) < 0.02)
            #expect(Look.meanLuminance(loud) > Look.meanLuminance(quiet) + 10)
        }
    }
}
