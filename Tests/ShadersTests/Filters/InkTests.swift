import MarbleCore
import Testing
@testable import Shaders

@Suite struct InkTests {
    /// Plain reference: integer Rec. 601 luma, 3×3 Sobel with clamped borders, ink/paper mix in Double.
    static func reference(_ values: [String: ParameterValue], source: Texture, beatPulse: Float, level: Float) throws -> [UInt8] {
        let p = try ShaderParameters(descriptor: Ink.descriptor, values: values)
        func luma(_ x: Int, _ y: Int) -> Double {
            let px = source.pixel(min(max(x, 0), source.width - 1), min(max(y, 0), source.height - 1))
            return Double((77 * Int(px[0]) + 150 * Int(px[1]) + 29 * Int(px[2])) >> 8)
        }
        let react = Double(p.number("react")), beat = Reference.clamp01(Double(beatPulse))
        let gain = Double(p.number("strength")) * (1 + Double(p.number("beat_boost")) * beat)
            * (1 + react * min(1, max(0, Double(level)))) / 1020
        let dim = max(0, 1 - 0.2 * react * beat)
        let ink = Reference.premultiplied(p.color("ink"))
        let paper = Reference.premultiplied(p.color("paper")).enumerated().map { $0.offset < 3 ? $0.element * dim : $0.element }
        let keep = Double(p.number("mix"))
        return Reference.bytes(width: testWidth, height: testHeight) { x, y in
            let gx = (luma(x + 1, y - 1) + 2 * luma(x + 1, y) + luma(x + 1, y + 1))
                - (luma(x - 1, y - 1) + 2 * luma(x - 1, y) + luma(x - 1, y + 1))
            let gy = (luma(x - 1, y + 1) + 2 * luma(x, y + 1) + luma(x + 1, y + 1))
                - (luma(x - 1, y - 1) + 2 * luma(x, y - 1) + luma(x + 1, y - 1))
            let edge = Reference.clamp01((gx * gx + gy * gy).squareRoot() * gain)
            let s = source.pixel(x, y).map { Double($0) / 255 }
            let out = (0..<4).map { c in
                let drawn = (paper[c] + (ink[c] - paper[c]) * edge) * s[3]
                return drawn + (s[c] - drawn) * keep
            }
            return Reference.pixel(out[0], out[1], out[2], out[3])
        }
    }

    static let cases: [(String, [String: ParameterValue])] = [
        ("ink", [:]),
        ("ink-strong-mixed", ["strength": .number(4), "mix": .number(0.3), "ink": .text("#200040")]),
    ]

    @Test(arguments: 0..<cases.count) func matchesTheReference(_ index: Int) throws {
        let (name, values) = Self.cases[index]
        let picture = testPicture(seed: 7)
        let rig = try Rig("ink", values, source: picture)
        for frame in [1, 6] {
            let f = syntheticFeatures(frame: frame)
            let bytes = rig.render(uniforms(frame: frame, features: f), strips: 3)
            let expected = try Self.reference(values, source: picture, beatPulse: f.beatPulse, level: f.level)
            #expect(maxDifference(bytes, expected)!.difference <= 3, "\(name) frame \(frame): \(describeDifference(bytes, expected, width: testWidth))")
            if frame == 6 { Golden.check(name, bytes, width: testWidth, height: testHeight) }
        }
    }

    @Test func beatDarkensTheEdges() throws {
        let rig = try Rig("ink", ["beat_boost": .number(2)])
        var f = syntheticFeatures(frame: 1)
        f.beatPulse = 0
        let calm = rig.render(uniforms(frame: 1, features: f))
        f.beatPulse = 1
        let beat = rig.render(uniforms(frame: 1, features: f))
        #expect(brightness(beat) < brightness(calm))
    }

    @Test func flatPictureIsBlankPaper() throws {
        let flat = Texture(width: testWidth, height: testHeight)
        flat.fill(RGBA8(r: 90, g: 90, b: 90))
        // During a beat (pulse 7/8 at frame 1) the paper dims, but stays one shade everywhere: no ink.
        let bytes = try Rig("ink", source: flat).render(frame: 1)
        #expect(Set(stride(from: 0, to: bytes.count, by: 4).map { bytes[$0] }).count == 1)
        var silent = syntheticFeatures(frame: 0, loudness: 0)
        silent.beatPulse = 0
        let calm = try Rig("ink", source: flat).render(uniforms(frame: 0, features: silent))
        #expect(Set(stride(from: 0, to: calm.count, by: 4).map { calm[$0] }) == [200])
    }
}
