import MarbleCore
import Testing
@testable import Shaders

/// Bedazzled is glitter, not a mosaic of squares, and it glints on beats instead of strobing the
/// whole frame (issue 12, defect 7).
@Suite struct BedazzledTests {
    static let width = 384, height = 216

    @Test("a beat makes some sparkles glint; most of the frame stays as it was")
    func glintsNotStrobe() throws {
        for seconds in [1.0, 5.5] {
            let calm = try Look.frame("bedazzled", seconds: seconds, features: Look.features(frame: 30, beat: 0),
                                      width: Self.width, height: Self.height)
            let beat = try Look.frame("bedazzled", seconds: seconds, features: Look.features(frame: 30, beat: 1),
                                      width: Self.width, height: Self.height)
            let changes = (0..<(Self.width * Self.height)).map { abs(Look.luminance(beat, $0) - Look.luminance(calm, $0)) }
            let steady = Double(changes.filter { $0 <= 4 }.count) / Double(changes.count)
            let glinting = Double(changes.filter { $0 >= 60 }.count) / Double(changes.count)
            // Before: every facet brightened on the beat (about 5 % of pixels steady).
            #expect(steady > 0.85, "steady share \(steady) at \(seconds) s")
            #expect(glinting > 0.002, "glinting share \(glinting) at \(seconds) s")
        }
    }

    /// The share of rows in which a column has a step of more than 8 levels to its right neighbour,
    /// for the worst column: the straight vertical borders of a square mosaic step in most rows.
    static func worstColumnSteps(_ bytes: [UInt8]) -> Double {
        var worst = 0
        for x in 0..<(width - 1) {
            var steps = 0
            for y in 0..<height where abs(Look.luminance(bytes, y * width + x + 1) - Look.luminance(bytes, y * width + x)) > 8 {
                steps += 1
            }
            worst = max(worst, steps)
        }
        return Double(worst) / Double(height)
    }

    @Test("no square mosaic: no column of the frame is a straight border")
    func noMosaic() throws {
        for density in [10.0, 28.0] {
            let bytes = try Look.frame("bedazzled", ["density": .number(density)], seconds: 2,
                                       features: Look.features(frame: 60, beat: 0.5), width: Self.width, height: Self.height)
            let worst = Self.worstColumnSteps(bytes)
            #expect(worst < 0.2, "density \(density): a column steps in \(worst) of the rows")
        }
    }
}
