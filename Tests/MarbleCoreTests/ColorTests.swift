import MarbleCore
import Testing

@Suite("Color")
struct ColorTests {
    @Test("parses #rgb, #rrggbb, #rrggbbaa and names; rejects the rest")
    func parsing() throws {
        let pink = try #require(Color(parsing: "#ff2ebd"))
        #expect(pink.premultiplied == RGBA8(r: 255, g: 46, b: 189))
        #expect(Color(parsing: " #F0A ")?.premultiplied == RGBA8(r: 255, g: 0, b: 170))
        #expect(Color(parsing: "orange")?.premultiplied == RGBA8(r: 255, g: 128, b: 0))
        for bad in ["", "ff2ebd", "#ff2eb", "#gg0000", "#ff2ebd00ff", "chartreuse-ish", "#+fffff", "#-fffff", "#+ff", "#"] {
            #expect(Color(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test("premultiplies by alpha and mixes linearly")
    func premultiplyAndMix() throws {
        let half = try #require(Color(parsing: "#ff000080"))
        #expect(half.premultiplied == RGBA8(r: 128, g: 0, b: 0, a: 128))
        #expect(Color(parsing: "transparent")?.premultiplied == RGBA8(r: 0, g: 0, b: 0, a: 0))
        #expect(Color.black.mixed(with: .white, 0.25).premultiplied == RGBA8(r: 64, g: 64, b: 64))
    }
}
