import MarbleCore
import Testing
@testable import Shaders

@Suite struct PolkaTests {
    /// Plain reference: every dot of the staggered grid, in row then column order, blended over the
    /// paper by its coverage (radius + ½ − distance). Geometry in Float like the kernel, so the same
    /// picture sample is chosen; blending in Double.
    static func reference(_ values: [String: ParameterValue], source: Texture, beatPulse: Float) throws -> [UInt8] {
        let p = try ShaderParameters(descriptor: Polka.descriptor, values: values)
        let size = max(2, p.number("cell") * Float(testHeight) / 1080)
        let maxRadius = 0.62 * size * (1 + p.number("react") * min(1, max(0, beatPulse)))
        let paper = Reference.premultiplied(p.color("paper")).map { ($0 * 255).rounded() }
        var image = [[Double]](repeating: paper, count: testWidth * testHeight)
        // Every dot that can reach the frame: up to maxRadius + 1 pixels beyond it on every side.
        let margin = Int((maxRadius + 1) / size) + 2
        let rowsOfCells = Int(Float(testHeight) / size) + margin, columns = Int(Float(testWidth) / size) + margin
        for row in -margin...rowsOfCells {
            let centerY = (Float(row) + 0.5) * size
            let shift: Float = row & 1 == 0 ? 0 : 0.5 * size
            let sampleRow = min(testHeight - 1, max(0, Int(centerY)))
            for c in -margin...columns {
                let centerX = (Float(c) + 0.5) * size + shift
                let sample = source.pixel(min(testWidth - 1, max(0, Int(centerX))), sampleRow)
                let luma = Float((77 * Int(sample[0]) + 150 * Int(sample[1]) + 29 * Int(sample[2])) >> 8)
                let radius = maxRadius * luma.squareRoot() / 15.97
                guard radius > 0.05 else { continue }
                for y in 0..<testHeight {
                    for x in 0..<testWidth {
                        let dx = Float(x) + 0.5 - centerX, dy = Float(y) + 0.5 - centerY
                        let cover = Double(clamp01(radius + 0.5 - (dx * dx + dy * dy).squareRoot()))
                        guard cover > 0, abs(dy) < radius + 1 else { continue }
                        let i = y * testWidth + x
                        image[i] = (0..<4).map { image[i][$0] + (Double(sample[$0]) - image[i][$0]) * cover }
                    }
                }
            }
        }
        return image.flatMap { $0.map { UInt8(min(255, max(0, $0.rounded()))) } }
    }

    @Test func matchesTheReference() throws {
        let values: [String: ParameterValue] = ["cell": .number(128), "react": .number(0.5)]
        let picture = testPicture(seed: 12)
        let f = syntheticFeatures(frame: 2)
        let bytes = try Rig("polka", values, source: picture).render(uniforms(frame: 2, features: f), strips: 4)
        let expected = try Self.reference(values, source: picture, beatPulse: f.beatPulse)
        #expect(maxDifference(bytes, expected)!.difference <= 3, "\(describeDifference(bytes, expected, width: testWidth))")
    }

    /// Strong swell on a full beat: dots grow to 0.62 · 3 ≈ 1.9 cells and reach pixels two cell rows
    /// away, which must be drawn round, not clipped at a cell-row boundary.
    @Test func largeDotsOnABeatMatchTheReference() throws {
        let values: [String: ParameterValue] = ["cell": .number(128), "react": .number(2)]
        let picture = testPicture(seed: 5)
        let f = syntheticFeatures(frame: 0)
        #expect(f.beatPulse == 1)
        for strips in [1, 5] {
            let bytes = try Rig("polka", values, source: picture).render(uniforms(frame: 0, features: f), strips: strips)
            let expected = try Self.reference(values, source: picture, beatPulse: f.beatPulse)
            #expect(maxDifference(bytes, expected)!.difference <= 3,
                    "\(strips) strips: \(describeDifference(bytes, expected, width: testWidth))")
        }
    }
}
