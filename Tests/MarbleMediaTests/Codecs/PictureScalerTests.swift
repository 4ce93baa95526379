import MarbleCore
@testable import MarbleMedia
import TestSupport
import Testing

@Suite("PictureScaler")
struct PictureScalerTests {
    /// A red 40x30 (4:3) picture, and a video of it, fitted into 64x36 (16:9).
    static func red() throws -> String {
        try TestMedia.make("red-4x3.png", ["-f", "lavfi", "-i", "color=c=red:s=40x30", "-frames:v", "1"])
    }
    static func redVideo() throws -> String {
        try TestMedia.make("red-4x3.mkv", ["-f", "lavfi", "-i", "color=c=red:s=40x30:r=25:d=0.4", "-c:v", "ffv1"])
    }

    static func pixel(_ t: Texture, _ x: Int, _ y: Int) -> RGBA8 {
        let p = t.view.row(y) + x * 4
        return RGBA8(r: p[0], g: p[1], b: p[2], a: p[3])
    }

    static func isRed(_ p: RGBA8) -> Bool { p.r > 200 && p.g < 40 && p.b < 40 && p.a == 255 }
    static let black = RGBA8(r: 0, g: 0, b: 0)

    @Test("contain: the whole picture, centred, with black pillar bars (even over a used texture)")
    func contain() throws {
        let source = try PictureSource(path: try Self.redVideo(), width: 64, height: 36, fit: .contain, loop: true)
        let texture = Texture(width: 64, height: 36)
        texture.fill(RGBA8(r: 255, g: 255, b: 255))   // last frame's leftovers must not show in the bars
        try source.picture(at: 0.1, into: texture)
        // 40x30 scaled to height 36 is 48 wide: bars of 8 columns each side.
        for y in [0, 17, 35] {
            #expect(Self.pixel(texture, 0, y) == Self.black && Self.pixel(texture, 7, y) == Self.black, "row \(y)")
            #expect(Self.pixel(texture, 63, y) == Self.black && Self.pixel(texture, 56, y) == Self.black, "row \(y)")
            #expect(Self.isRed(Self.pixel(texture, 9, y)) && Self.isRed(Self.pixel(texture, 54, y)), "row \(y)")
        }
    }

    @Test("cover: the picture fills the frame, cropped, for stills and videos alike")
    func cover() throws {
        let still = try PictureSource(path: try Self.red(), width: 64, height: 36, fit: .cover, loop: true)
        let stillTexture = try #require(still.still)
        let video = try PictureSource(path: try Self.redVideo(), width: 64, height: 36, fit: .cover, loop: true)
        let videoTexture = Texture(width: 64, height: 36)
        try video.picture(at: 0.1, into: videoTexture)
        for t in [stillTexture, videoTexture] {
            for (x, y) in [(0, 0), (63, 0), (0, 35), (63, 35), (32, 18)] {
                #expect(Self.isRed(Self.pixel(t, x, y)), "\(x),\(y): \(Self.pixel(t, x, y))")
            }
        }
    }
}
