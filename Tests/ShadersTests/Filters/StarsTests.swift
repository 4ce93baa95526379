import MarbleCore
import Testing
@testable import Shaders

/// Issue 12, defect 2: `stars` showed nothing over an opaque picture or the default preset (it filled
/// only transparent areas). It now shows through the dark parts of any picture, and flashes on beats.
@Suite struct StarsTests {
    let w = 192, h = 108

    func frame(mode: String = "night", under color: RGBA8, beat: Float = 0) throws -> [UInt8] {
        let picture = Texture(width: w, height: h)
        picture.fill(color)
        let rig = try Rig("stars", ["mode": .text(mode)], width: w, height: h, source: picture)
        var f = syntheticFeatures(frame: 3)
        f.beatPulse = beat
        return rig.render(uniforms(frame: 3, features: f, width: w, height: h))
    }

    /// Pixels whose brightest channel is above 48.
    func lit(_ bytes: [UInt8]) -> Int {
        stride(from: 0, to: bytes.count, by: 4).filter { max(bytes[$0], bytes[$0 + 1], bytes[$0 + 2]) > 48 }.count
    }

    func brightness(_ bytes: [UInt8]) -> Int {
        stride(from: 0, to: bytes.count, by: 4).reduce(0) { $0 + Int(bytes[$1]) + Int(bytes[$1 + 1]) + Int(bytes[$1 + 2]) }
    }

    @Test func starsShowOverADarkOpaquePicture() throws {
        let stars = lit(try frame(under: RGBA8(r: 5, g: 5, b: 12)))
        #expect(stars > 60, "\(stars) lit pixels")
        // … and not over a bright one, which stays as it was.
        let white = try frame(under: RGBA8(r: 240, g: 240, b: 240))
        #expect(stride(from: 0, to: white.count, by: 4).allSatisfy { white[$0] == 240 && white[$0 + 2] == 240 })
    }

    @Test func behindFillsOnlyTransparentAreas() throws {
        let opaque = try frame(mode: "behind", under: RGBA8(r: 5, g: 5, b: 12))
        #expect(lit(opaque) == 0)
        let empty = try frame(mode: "behind", under: RGBA8(r: 0, g: 0, b: 0, a: 0))
        #expect(lit(empty) > 60)
    }

    @Test func beatsFlashTheStars() throws {
        let calm = brightness(try frame(under: RGBA8(r: 0, g: 0, b: 0), beat: 0))
        let beat = brightness(try frame(under: RGBA8(r: 0, g: 0, b: 0), beat: 1))
        #expect(Double(beat) > 1.4 * Double(calm), "calm \(calm) beat \(beat)")
    }

    /// Issue 25: the sky keeps its look at every frame size. Over black, the share of pixels lit
    /// (brightest channel above 24) at 320x180 is within a quarter of the share at 1280x720 (before:
    /// radii were whole pixels at every size, a snowfield at 320x180).
    @Test func sameShareLitAtEverySize() throws {
        func share(_ width: Int, _ height: Int) throws -> Double {
            let picture = Texture(width: width, height: height)
            picture.fill(RGBA8(r: 0, g: 0, b: 0))
            let rig = try Rig("stars", width: width, height: height, source: picture)
            var f = syntheticFeatures(frame: 3)
            f.beatPulse = 0
            let bytes = rig.render(uniforms(frame: 3, features: f, width: width, height: height))
            let lit = stride(from: 0, to: bytes.count, by: 4).filter { max(bytes[$0], bytes[$0 + 1], bytes[$0 + 2]) > 24 }.count
            return Double(lit) / Double(width * height)
        }
        let small = try share(320, 180), large = try share(1280, 720)
        #expect(small > 0.75 * large && small < 1.33 * large, "lit share \(small) at 320x180, \(large) at 1280x720")
        #expect(large > 0.005, "lit share \(large) at 1280x720")
    }

    /// Stars are added block by block (32 rows), each star over the rows it touches: a frame drawn in
    /// uneven strips, out of order, is the frame drawn whole, in both modes, over a picture whose rows
    /// are opaque dark, opaque bright, half transparent and empty (so every path of a row is taken).
    @Test(arguments: ["night", "behind"]) func stripsAndBlocksDoNotChangeTheStars(_ mode: String) throws {
        let width = 320, height = 180
        let picture = Texture(width: width, height: height)
        let view = picture.view
        for y in 0..<height {
            let row = view.row32(y)
            for x in 0..<width {
                switch (y / 13) % 4 {
                case 0: row[x] = 0xFF0A_0503                                    // dark, opaque
                case 1: row[x] = x < width / 2 ? 0xFFF0_F0F0 : 0xFF10_1010       // bright and dark
                case 2: row[x] = x % 3 == 0 ? 0 : 0x8020_2020                    // half transparent
                default: row[x] = 0                                             // empty
                }
            }
        }
        let rig = try Rig("stars", ["mode": .text(mode), "density": .number(3), "react": .number(4)],
                          width: width, height: height, source: picture)
        var f = syntheticFeatures(frame: 7)
        f.beatPulse = 1
        let u = uniforms(frame: 7, features: f, width: width, height: height)
        let whole = rig.render(u)
        #expect(whole != Array(repeating: 0, count: whole.count))
        rig.target.fill(RGBA8(r: 1, g: 2, b: 3, a: 4))
        let cuts = [0, 1, 8, 31, 32, 33, 70, 101, 133, 134, 179, 180]
        for s in (1..<cuts.count).reversed() {
            rig.shader.render(rig.target.view, source: picture.view, rows: cuts[s - 1]..<cuts[s], uniforms: u)
        }
        #expect(rig.target.packedBytes() == whole)
    }
}

