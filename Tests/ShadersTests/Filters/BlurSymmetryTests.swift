import MarbleCore
import Testing
@testable import Shaders

/// Marble's radial blur divided its offset by the pixel coordinate, so the left and top edges smeared
/// far more than the right and bottom. Around a centred point, a mirror-symmetric picture must give a
/// mirror-symmetric result. (Bokeh is left out: a golden-angle spiral is not mirror-symmetric by design.
/// God rays get a little slack: nearest-pixel taps that land exactly halfway between two pixels round
/// the same way on both sides, which breaks exact mirroring by a few levels.)
@Suite struct BlurSymmetryTests {
    /// A picture symmetric about the vertical centre line.
    static func symmetricPicture() -> Texture {
        let t = Texture(width: testWidth, height: testHeight)
        for y in 0..<testHeight {
            let row = t.view.row32(y)
            for x in 0..<(testWidth / 2) {
                let v = UInt32((x * 37 + y * 11) % 256), stripe: UInt32 = (x / 3) % 2 == 0 ? 220 : 30
                let p = v | stripe << 8 | UInt32(y * 7) << 16 | 0xFF00_0000
                row[x] = p; row[testWidth - 1 - x] = p
            }
        }
        return t
    }

    @Test(arguments: ["blur", "light_rays"]) func mirrorSymmetricPictureStaysSymmetric(_ name: String) throws {
        let values: [String: ParameterValue] = switch name {
        case "blur": ["strength": .number(0.5), "center_x": .number(0.5)]
        default: ["light_x": .number(0.5), "threshold": .number(0.2)]
        }
        let picture = Self.symmetricPicture()
        let bytes = try Rig(name, values, source: picture).render(frame: 1)
        var worst = 0
        for y in 0..<testHeight {
            for x in 0..<(testWidth / 2) {
                for c in 0..<4 {
                    let left = Int(bytes[(y * testWidth + x) * 4 + c]), right = Int(bytes[(y * testWidth + testWidth - 1 - x) * 4 + c])
                    worst = max(worst, abs(left - right))
                }
            }
        }
        #expect(worst <= (name == "blur" ? 2 : 8), "\(name): mirror pixels differ by \(worst)")
        let original = picture.packedBytes()
        let changed = bytes != original
        #expect(changed, "\(name) did nothing")
    }
}
