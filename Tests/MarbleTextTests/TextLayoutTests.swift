import MarbleCore
import Testing
@testable import MarbleText

/// Fonts, fallback, shaping and bidi, against the fonts .ci/apt-packages installs (fonts-dejavu-core,
/// fonts-droid-fallback, fonts-noto-core, fonts-noto-cjk, fonts-noto-color-emoji).
@Suite struct TextLayoutTests {
    private func laidOut(_ text: String, size: Int = 48, font: String = "") throws -> TextLayout {
        let layout = TextLayout(fonts: try FontStack(font: font))
        let scalars = text.unicodeScalars.map(\.value)
        scalars.withUnsafeBufferPointer { layout.layout($0, pixelSize: size) }
        return layout
    }

    @Test("Fontconfig finds the default font, DejaVu Sans; a named family and a path work too")
    func defaultFont() throws {
        let stack = try FontStack(font: "")
        #expect(stack.familyName == "DejaVu Sans")
        #expect(stack.count > 1, "fallbacks follow the primary font")
        let path = stack.path(of: 0)
        #expect(try FontStack(font: path).familyName == "DejaVu Sans")
        #expect(throws: MarbleError.self) { try FontStack(font: "/nonexistent/font.ttf") }
        #expect(try FontStack(font: "DejaVu Sans:bold").path(of: 0).hasSuffix("DejaVuSans-Bold.ttf"), "Fontconfig names take styles")
    }

    @Test("kerning: in \"AV\" the V sits closer to the A than the A's own advance")
    func kerning() throws {
        let a = try laidOut("A")
        let av = try laidOut("AV")
        #expect(av.glyphs.count == 2)
        #expect(av.glyphs[1].x < a.lines[0].width - 0.5)
    }

    @Test("Cyrillic is drawn by the primary font with real glyphs")
    func cyrillic() throws {
        let layout = try laidOut("Привет, мир")
        #expect(layout.glyphs.count == 11)
        #expect(layout.glyphs.allSatisfy { $0.glyph != 0 && $0.font == 0 })
    }

    @Test("Arabic is shaped into joined forms (and the lam-alef ligature) and laid out right to left")
    func arabic() throws {
        let word = try laidOut("سلام")
        #expect(word.glyphs.allSatisfy { $0.glyph != 0 })
        // Each letter alone gives its isolated form; in the word seen takes its initial form, lam and
        // alef become one ligature glyph (after which meem stands alone: alef does not join forwards).
        var isolated: [UInt32] = []
        for letter in "سلام".unicodeScalars { isolated.append(try laidOut(String(letter)).glyphs[0].glyph) }
        let byCluster = Dictionary(uniqueKeysWithValues: word.glyphs.map { ($0.cluster, $0.glyph) })
        #expect(word.glyphs.count == 3)
        #expect(byCluster[0] != nil && byCluster[0] != isolated[0])
        #expect(byCluster[1] != nil && byCluster[1] != isolated[1] && byCluster[1] != isolated[2])
        #expect(byCluster[3] == isolated[3])
        // Visual order: the first letter (cluster 0) is the rightmost glyph.
        let rightmost = word.glyphs.max { $0.x < $1.x }!
        #expect(rightmost.cluster == 0)
    }

    @Test("CJK falls back to a font that has the characters (no missing-glyph boxes) and draws ink")
    func cjk() throws {
        let layout = try laidOut("音楽")
        #expect(layout.glyphs.count == 2)
        #expect(layout.glyphs.allSatisfy { $0.glyph != 0 && $0.font != 0 })
        let mask = TextMask()
        mask.draw(layout, alignment: .left, margin: 0)
        #expect(!mask.isEmpty)
        var ink = 0
        for i in 0..<(mask.width * mask.height) where mask.pixels[i] > 128 { ink += 1 }
        #expect(ink > 200)
    }

    @Test("mixed Latin, CJK and Arabic in one line: every character has a glyph; the Arabic reads right to left")
    func mixed() throws {
        let text = "Hi 音楽 سلام!"
        let layout = try laidOut(text)
        #expect(layout.glyphs.allSatisfy { $0.glyph != 0 })
        let fonts = Set(layout.glyphs.map(\.font))
        #expect(fonts.count >= 2)
        // س (cluster 6) is right of م (cluster 9); "Hi" stays left of everything.
        let x = { (c: UInt32) in layout.glyphs.first { $0.cluster == c }!.x }
        #expect(x(6) > x(9))
        #expect(x(0) < x(3) && x(3) < x(9))
    }

    @Test("lines split at line feeds; buffers are reused")
    func lines() throws {
        let layout = try laidOut("One\nTwo three")
        #expect(layout.lines.count == 2)
        #expect(layout.lines[1].width > layout.lines[0].width)
        #expect(layout.lines[0].range == 0..<3)
    }
}
