import MarbleCore
import Testing
@testable import Shaders

@Suite struct SolidTests {
    @Test func fillsWithThePremultipliedColour() throws {
        let bytes = try Rig("solid", ["color": .text("#ff800080")]).render(frame: 0)
        let expected = Reference.bytes(width: testWidth, height: testHeight) { _, _ in
            Reference.pixel(0.502, 0.251, 0, 0.502)
        }
        #expect(maxDifference(bytes, expected)!.difference <= 1)
        Golden.check("solid-orange-half", bytes, width: testWidth, height: testHeight)
    }
}

@Suite struct MediaTests {
    /// Plain reference: input pixel with alpha forced to 255, × brightness, black outside/without input.
    static func reference(input: Texture?, brightness: Double) -> [UInt8] {
        Reference.bytes(width: testWidth, height: testHeight) { x, y in
            guard let input, x < input.width, y < input.height else { return [0, 0, 0, 255] }
            let p = input.pixel(x, y)
            return [Reference.byte(Double(p[0]) / 255 * brightness), Reference.byte(Double(p[1]) / 255 * brightness),
                    Reference.byte(Double(p[2]) / 255 * brightness), 255]
        }
    }

    @Test(arguments: [1.0, 0.4]) func copiesTheInput(_ brightness: Double) throws {
        let picture = testPicture()
        let bytes = try Rig("media", ["brightness": .number(brightness)]).render(frame: 0, input: picture.view)
        let expected = Self.reference(input: picture, brightness: brightness)
        #expect(maxDifference(bytes, expected)!.difference <= 1, "\(describeDifference(bytes, expected, width: testWidth))")
        if brightness == 1 { Golden.check("media", bytes, width: testWidth, height: testHeight, tolerance: 0) }
    }

    @Test func isBlackWithoutInputAndAroundASmallerInput() throws {
        let rig = try Rig("media")
        let black = rig.render(frame: 0) == Self.reference(input: nil, brightness: 1)
        #expect(black)
        let small = testPicture(width: 20, height: 10)
        let bytes = rig.render(frame: 0, input: small.view)
        let framed = bytes == Self.reference(input: small, brightness: 1)
        #expect(framed)
    }
}
