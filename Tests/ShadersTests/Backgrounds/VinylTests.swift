import Foundation
import MarbleCore
import Testing
@testable import Shaders

/// Vinyl visibly spins: half a second later the record is the same picture turned by the turntable's
/// angle (issue 12, defect 7).
@Suite struct VinylTests {
    static let size = 96

    /// The disc changes between the frames; the label (not under the sheen, which stays put as a
    /// lamp's would) is the earlier label turned by 0.5 s of 33⅓ rpm.
    @Test("the frame 0.5 s later is the earlier one rotated by 0.5 s of 33⅓ rpm")
    func spins() throws {
        let features = Look.features(frame: 60, loudness: 0)
        let values: [String: ParameterValue] = ["react": .number(0)]
        let a = try Look.frame("vinyl", values, seconds: 2, features: features, width: Self.size, height: Self.size)
        let b = try Look.frame("vinyl", values, seconds: 2.5, features: features, width: Self.size, height: Self.size)
        let turn = 0.5 * 33.3 / 60 * 2 * Double.pi
        let (c, s) = (cos(-turn), sin(-turn))
        let half = Double(Self.size) / 2
        var moved = 0, count = 0, labelMoved = 0, labelRotated = 0, labelCount = 0
        for y in 0..<Self.size {
            for x in 0..<Self.size {
                // Field coordinates in frame heights, centred; only the disc and its label.
                let fx = (Double(x) + 0.5 - half) / Double(Self.size), fy = (Double(y) + 0.5 - half) / Double(Self.size)
                let r = (fx * fx + fy * fy).squareRoot()
                guard r > 0.03, r < 0.44 else { continue }
                let sx = c * fx - s * fy, sy = s * fx + c * fy
                let px = Int((sx * Double(Self.size) + half).rounded(.down)), py = Int((sy * Double(Self.size) + half).rounded(.down))
                guard px >= 0, py >= 0, px < Self.size, py < Self.size else { continue }
                let q = y * Self.size + x, p = py * Self.size + px
                let here = abs(Int(Look.luminance(a, q)) - Int(Look.luminance(b, q)))
                moved += here
                count += 1
                guard r < 0.13 else { continue }
                labelMoved += here
                labelRotated += abs(Int(Look.luminance(a, p)) - Int(Look.luminance(b, q)))
                labelCount += 1
            }
        }
        let still = Double(moved) / Double(count)
        let labelStill = Double(labelMoved) / Double(labelCount), labelTurned = Double(labelRotated) / Double(labelCount)
        // Before: 0.3 levels apart (the grooves are rings, the label plain).
        #expect(still > 4, "the record hardly changes: \(still)")
        #expect(labelStill > 4, "the label hardly changes: \(labelStill)")
        #expect(labelTurned < 0.4 * labelStill, "not a rotation: \(labelTurned) turned vs \(labelStill) in place")
    }
}
