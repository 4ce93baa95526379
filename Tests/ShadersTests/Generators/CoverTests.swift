import MarbleCore
import Testing
@testable import Shaders

@Suite struct CoverTests {
    /// A `side`×`side` picture: left half red, right half blue (or a one-pixel black/white checkerboard).
    static func picture(side: Int = 64, checker: Bool = false) -> Texture {
        let t = Texture(width: side, height: side)
        for y in 0..<side {
            let row = t.view.row32(y)
            for x in 0..<side {
                row[x] = checker ? ((x + y) % 2 == 0 ? 0xFF00_0000 : 0xFFFF_FFFF) : (x < side / 2 ? 0xFF00_00FF : 0xFFFF_0000)
            }
        }
        return t
    }

    static func frame(_ cover: Texture?, time: Double = 0, beat: Float = 0) -> FrameUniforms {
        var f = syntheticFeatures(frame: 3, loudness: 0)
        f.beatPulse = beat
        var u = uniforms(frame: 3, features: f)
        u.time = time
        u.song = SongInfo(cover: cover)
        return u
    }

    static func pixel(_ bytes: [UInt8], _ x: Int, _ y: Int) -> [UInt8] {
        Array(bytes[(y * testWidth + x) * 4..<(y * testWidth + x) * 4 + 4])
    }

    static let plain: [String: ParameterValue] = ["size": .number(1), "shape": .text("square"), "shadow": .number(0), "pulse": .number(0)]

    @Test func thePictureIsWhereTheParametersPutIt() throws {
        let bytes = try Rig("cover", Self.plain).render(Self.frame(Self.picture()))
        // A 36×36 square centred in 64×36: columns 14…49; red on the left, blue on the right.
        #expect(Self.pixel(bytes, 20, 18) == [255, 0, 0, 255])
        #expect(Self.pixel(bytes, 44, 18) == [0, 0, 255, 255])
        #expect(Self.pixel(bytes, 14, 0) == [255, 0, 0, 255], "the square reaches its corner")
        #expect(Self.pixel(bytes, 5, 18)[3] == 0 && Self.pixel(bytes, 58, 18)[3] == 0, "nothing outside the square")
        let moved = try Rig("cover", Self.plain.merging(["center_x": .number(0.25), "size": .number(0.5)]) { $1 })
            .render(Self.frame(Self.picture()))
        #expect(Self.pixel(moved, 12, 18) == [255, 0, 0, 255] && Self.pixel(moved, 20, 18) == [0, 0, 255, 255])
        #expect(Self.pixel(moved, 32, 18)[3] == 0)
    }

    @Test func aCircleIsTransparentInItsCornersWithSoftEdges() throws {
        let bytes = try Rig("cover", Self.plain.merging(["shape": .text("circle")]) { $1 }).render(Self.frame(Self.picture()))
        #expect(Self.pixel(bytes, 14, 0)[3] == 0 && Self.pixel(bytes, 49, 35)[3] == 0, "corners outside the disc")
        #expect(Self.pixel(bytes, 20, 18) == [255, 0, 0, 255] && Self.pixel(bytes, 44, 18) == [0, 0, 255, 255])
        let edge = (0..<testHeight).flatMap { y in (0..<testWidth).map { Self.pixel(bytes, $0, y)[3] } }.filter { $0 > 0 && $0 < 255 }
        #expect(edge.count >= 40, "an antialiased rim (\(edge.count) partial pixels)")
        #expect(isPremultiplied(bytes))
    }

    @Test func spinTurnsThePicture() throws {
        // 15 turns a minute: a quarter turn after 1 s, so the left (red) half is at the top or bottom.
        let rig = try Rig("cover", Self.plain.merging(["shape": .text("circle"), "spin": .number(15)]) { $1 })
        let still = rig.render(Self.frame(Self.picture(), time: 0))
        #expect(Self.pixel(still, 26, 6) == [255, 0, 0, 255] && Self.pixel(still, 38, 6) == [0, 0, 255, 255], "at 0 s: red left, blue right")
        let turned = rig.render(Self.frame(Self.picture(), time: 1))
        let top = Self.pixel(turned, 32, 4), bottom = Self.pixel(turned, 32, 32)
        #expect((top == [255, 0, 0, 255] && bottom == [0, 0, 255, 255]) || (top == [0, 0, 255, 255] && bottom == [255, 0, 0, 255]),
                "top \(top), bottom \(bottom)")
        #expect(Self.pixel(turned, 26, 6) == Self.pixel(turned, 38, 6), "after a quarter turn one half holds the whole top")
    }

    @Test func aBeatMakesItGrow() throws {
        let rig = try Rig("cover", ["size": .number(0.5), "pulse": .number(0.5), "shadow": .number(0)])
        func inked(_ b: [UInt8]) -> Int { stride(from: 3, to: b.count, by: 4).filter { b[$0] > 0 }.count }
        let calm = inked(rig.render(Self.frame(Self.picture(), beat: 0)))
        let beat = inked(rig.render(Self.frame(Self.picture(), beat: 1)))
        #expect(Double(beat) > Double(calm) * 1.8, "calm \(calm) pixels, beat \(beat)")
    }

    @Test func aLargeCoverIsAveragedNotAliased() throws {
        // A 1-pixel checkerboard shrunk 18 times must read as grey, not as black or white speckles.
        let bytes = try Rig("cover", Self.plain).render(Self.frame(Self.picture(side: 648, checker: true)))
        for x in stride(from: 16, to: 48, by: 5) {
            for y in stride(from: 2, to: 34, by: 5) {
                let p = Self.pixel(bytes, x, y)
                #expect(abs(Int(p[0]) - 128) <= 6 && p[3] == 255, "(\(x), \(y)): \(p)")
            }
        }
    }

    @Test func aNewCoverReplacesTheOldOne() throws {
        let rig = try Rig("cover", Self.plain)
        _ = rig.render(Self.frame(Self.picture()))
        let checker = rig.render(Self.frame(Self.picture(side: 64, checker: true)))
        #expect(Self.pixel(checker, 20, 18)[2] < 255 && Self.pixel(checker, 20, 18)[2] > 0, "the second cover is drawn")
    }

    @Test func withoutACoverAPlaceholderOrNothing() throws {
        let placeholder = try Rig("cover", Self.plain).render(Self.frame(nil))
        #expect(Self.pixel(placeholder, 32, 18)[3] == 255 && Self.pixel(placeholder, 5, 18)[3] == 0)
        let distinct = Set(stride(from: 0, to: placeholder.count, by: 4).map { placeholder[$0] })
        #expect(distinct.count > 20, "a gradient with a glyph, not a flat square")
        let nothing = try Rig("cover", Self.plain.merging(["placeholder": .flag(false)]) { $1 }).render(Self.frame(nil))
        #expect(nothing.allSatisfy { $0 == 0 })
    }

    @Test func borderAndShadowFrameThePicture() throws {
        let rig = try Rig("cover", ["size": .number(0.6), "shape": .text("square"), "pulse": .number(0), "border": .number(40),
                                    "border_color": .text("#00ff00"), "shadow": .number(1)])
        let bytes = rig.render(Self.frame(Self.picture()))
        // Side 21.6 px from x 21.2: the border (1.3 px at this height) is green, the picture inside it.
        #expect(Self.pixel(bytes, 21, 18)[1] > 150 && Self.pixel(bytes, 21, 18)[0] < 80, "\(Self.pixel(bytes, 21, 18))")
        #expect(Self.pixel(bytes, 25, 18) == [255, 0, 0, 255])
        // The shadow: translucent black just below the picture.
        let below = Self.pixel(bytes, 32, 29)
        #expect(below[3] > 20 && below[0] == 0 && below[1] == 0, "\(below)")
    }
}
