import MarbleCore
import Testing
@testable import Shaders

/// Amsterdam is a lit city over moving water that answers the music (issue 12, defect 7).
@Suite struct AmsterdamTests {
    static let width = 192, height = 108

    static func frame(_ seconds: Double, loudness: Float, beat: Float) throws -> [UInt8] {
        try Look.frame("amsterdam", seconds: seconds, features: Look.features(frame: 90, loudness: loudness, beat: beat),
                       width: width, height: height)
    }

    @Test("windows light up above the waterline against a dark sky")
    func city() throws {
        let bytes = try Self.frame(3, loudness: 1, beat: 0)
        // Rows above the waterline (0.12 below the centre): warm bright window pixels.
        let waterRow = Int((0.5 + 0.12) * Double(Self.height))
        var warm = 0
        for p in 0..<(waterRow * Self.width) where bytes[4 * p] > 170 && Int(bytes[4 * p]) > Int(bytes[4 * p + 2]) + 60 { warm += 1 }
        #expect(Double(warm) / Double(waterRow * Self.width) > 0.005, "\(warm) window pixels")
        // The top rows are night sky.
        let top = Array(bytes[0..<(4 * Self.width * 4)])
        #expect(Look.meanLuminance(top) < 40)
    }

    @Test("the picture answers the level and the beat, and the water moves")
    func reacts() throws {
        let quiet = try Self.frame(3, loudness: 0, beat: 0)
        let loud = try Self.frame(3, loudness: 1.2, beat: 0)
        let beat = try Self.frame(3, loudness: 1.2, beat: 1)
        let later = try Self.frame(3.5, loudness: 1.2, beat: 0)
        // Before: 1.6 (level), 1.2 (beat), 0.15 (half a second).
        #expect(Look.meanDifference(quiet, loud) > 3)
        #expect(Look.meanDifference(loud, beat) > 3)
        #expect(Look.meanDifference(loud, later) > 1.5)
    }
}
