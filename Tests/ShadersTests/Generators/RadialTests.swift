import Foundation
import MarbleCore
import Testing
@testable import Shaders

@Suite struct RadialTests {
    static let side = 96

    /// Bands 0 except `loud` (a set of band indices of 64) at `level`.
    static func bands(_ loud: Range<Int>, level: Float = 1, others: Float = 0) -> AudioFeatures {
        var f = AudioFeatures(bandCount: 64, waveformLength: 256)
        for i in 0..<64 { f.bands[i] = loud.contains(i) ? level : others }
        return f
    }

    static func alpha(_ bytes: [UInt8], _ x: Int, _ y: Int) -> Int { Int(bytes[(y * side + x) * 4 + 3]) }

    /// Alpha at distance `r` from the centre along the direction `degrees` clockwise from the top.
    static func alpha(_ bytes: [UInt8], degrees: Double, r: Double) -> Int {
        let a = degrees * .pi / 180, c = Double(side) / 2
        return alpha(bytes, Int(c + r * sin(a)), Int(c - r * cos(a)))
    }

    static func render(_ values: [String: ParameterValue], _ f: AudioFeatures, frame: Int = 0) throws -> [UInt8] {
        var v: [String: ParameterValue] = ["pulse": .number(0)]
        v.merge(values) { $1 }
        return try Rig("radial", v, width: side, height: side).render(uniforms(frame: frame, features: f, width: side, height: side))
    }

    // Defaults at 96x96: inner radius 0.2 · 96 = 19.2, full length 0.16 · 96 = 15.4.

    @Test func barsPointAtTheirAngles() throws {
        // 8 bars, no mirror: bar 2 (bands 16…23) is centred at 2.5 · 45° = 112.5°.
        let bytes = try Self.render(["count": .number(8), "mirror": .flag(false)], Self.bands(16..<24))
        #expect(Self.alpha(bytes, degrees: 112.5, r: 27) == 255)
        for other in [22.5, 67.5, 157.5, 202.5, 292.5] { #expect(Self.alpha(bytes, degrees: other, r: 27) == 0, "\(other)°") }
        // Rotation turns the ring; spin turns it with media time (30°/s for 1.5 s = 45°).
        let turned = try Self.render(["count": .number(8), "mirror": .flag(false), "rotation": .number(90)], Self.bands(16..<24))
        #expect(Self.alpha(turned, degrees: 202.5, r: 27) == 255 && Self.alpha(turned, degrees: 112.5, r: 27) == 0)
        let spun = try Self.render(["count": .number(8), "mirror": .flag(false), "spin": .number(30)], Self.bands(16..<24), frame: 45)
        #expect(Self.alpha(spun, degrees: 157.5, r: 27) == 255 && Self.alpha(spun, degrees: 112.5, r: 27) == 0)
    }

    @Test func aLouderBandIsALongerBar() throws {
        let f = Self.bands(0..<32, level: 0.3, others: 1)
        let bytes = try Self.render(["count": .number(8), "mirror": .flag(false), "rounded": .flag(false)], f)
        // Bars 0–3 at 0.3 reach 19.2 + 4.6 = 23.8; bars 4–7 at 1 reach 34.6.
        #expect(Self.alpha(bytes, degrees: 22.5, r: 22) == 255 && Self.alpha(bytes, degrees: 22.5, r: 26) == 0)
        #expect(Self.alpha(bytes, degrees: 202.5, r: 33) == 255 && Self.alpha(bytes, degrees: 202.5, r: 36.5) == 0)
    }

    @Test func mirroredRingIsSymmetric() throws {
        let bytes = try Self.render(["count": .number(48)], syntheticFeatures(frame: 5))
        var worst = 0
        for y in 0..<Self.side {
            for x in 0..<Self.side / 2 {
                for c in 0..<4 {
                    let left: Int = Int(bytes[(y * Self.side + x) * 4 + c])
                    let right: Int = Int(bytes[(y * Self.side + Self.side - 1 - x) * 4 + c])
                    worst = max(worst, abs(left - right))
                }
            }
        }
        #expect(worst <= 2, "left and right halves differ by \(worst)")
        #expect(brightness(bytes) > 10_000)
    }

    @Test func theCentreStaysTransparent() throws {
        for values: [String: ParameterValue] in [[:], ["pulse": .number(0.5), "peaks": .flag(true)], ["rounded": .flag(false), "gap": .number(0)]] {
            var f = syntheticFeatures(frame: 8, loudness: 1.5)
            f.beatPulse = 1
            let bytes = try Self.render(values, f)
            let inner = 0.2 * Double(Self.side) - 1
            for y in 0..<Self.side {
                for x in 0..<Self.side {
                    let dx = Double(x) + 0.5 - 48, dy = Double(y) + 0.5 - 48
                    if dx * dx + dy * dy < inner * inner { #expect(Self.alpha(bytes, x, y) == 0, "\(values) at \(x), \(y)") }
                }
            }
            #expect(brightness(bytes) > 10_000)
        }
    }

    @Test func peakCapsFloatAboveTheBars() throws {
        var f = Self.bands(0..<64, level: 0.2)
        for i in 0..<64 { f.bandPeaks[i] = 0.8 }
        let bytes = try Self.render(["count": .number(8), "mirror": .flag(false), "peaks": .flag(true)], f)
        // Bar ends at 19.2 + 3.1 = 22.3; the cap sits at 19.2 + 12.3 + 1.5 … + 3.
        #expect(Self.alpha(bytes, degrees: 22.5, r: 27) == 0)
        #expect(Self.alpha(bytes, degrees: 22.5, r: 33.75) > 150)
    }
}
