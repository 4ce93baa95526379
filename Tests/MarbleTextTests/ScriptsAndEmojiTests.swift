import MarbleCore
import Testing
@testable import MarbleText

/// Every script the machine has fonts for, through Fontconfig's fallback, and colour emoji drawn in
/// colour, against the fonts .ci/apt-packages installs (fonts-noto-core: Devanagari, Thai;
/// fonts-noto-cjk: Hangul and CJK; fonts-noto-color-emoji).
@Suite struct ScriptsAndEmojiTests {
    private func laidOut(_ text: String, size: Int = 48) throws -> TextLayout {
        let layout = TextLayout(fonts: try FontStack(font: ""))
        let scalars = text.unicodeScalars.map(\.value)
        scalars.withUnsafeBufferPointer { layout.layout($0, pixelSize: size) }
        return layout
    }

    private func family(_ layout: TextLayout, _ glyph: PlacedGlyph) -> String {
        layout.fonts.face(at: Int(glyph.font))?.familyName ?? ""
    }

    private func drawn(_ layout: TextLayout) -> TextMask {
        let mask = TextMask()
        mask.draw(layout, alignment: .left, margin: 0)
        return mask
    }

    @Test("Hangul, Devanagari and Thai fall back to Noto fonts of their script, with real glyphs and ink",
          arguments: [("한국어 노래", "CJK"), ("हिन्दी गाना", "Devanagari"), ("เพลงไทย", "Thai")])
    func scripts(_ text: String, _ script: String) throws {
        let layout = try laidOut(text)
        #expect(layout.glyphs.allSatisfy { $0.glyph != 0 }, "no missing-glyph boxes")
        let letters = layout.glyphs.filter { $0.font != Int32(layout.fonts.primaryIndex) }
        #expect(!letters.isEmpty && letters.allSatisfy { family(layout, $0).contains(script) },
                "drawn by \(Set(letters.map { family(layout, $0) }))")
        let mask = drawn(layout)
        var ink = 0
        for i in 0..<(mask.width * mask.height) where mask.pixels[i] > 128 { ink += 1 }
        #expect(ink > 300)
        #expect(mask.colours == nil, "letters are coverage, drawn in the text's colour")
    }

    @Test("Devanagari is shaped: the short i sign is drawn before its consonant, and न्द is a conjunct")
    func devanagariShaping() throws {
        // हि: HA then the vowel sign I, which is written to the left of the consonant.
        let hi = try laidOut("हि"), ha = try laidOut("ह").glyphs[0].glyph
        #expect(hi.glyphs.count == 2)
        let leftmost = try #require(hi.glyphs.min { $0.x < $1.x })
        #expect(leftmost.glyph != ha, "the sign comes first visually")
        #expect(hi.glyphs.contains { $0.glyph == ha })
        // न्द (NA, VIRAMA, DA): fewer glyphs than characters (a half form or a ligature, not a visible virama).
        let conjunct = try laidOut("न्द")
        #expect(conjunct.glyphs.count < 3)
    }

    @Test("emoji are drawn by the colour emoji font, in colour, scaled to the text's size")
    func colourEmoji() throws {
        let layout = try laidOut("😀", size: 48)
        #expect(layout.glyphs.count == 1)
        let glyph = layout.glyphs[0]
        #expect(layout.fonts.isColour(Int(glyph.font)), "drawn by \(family(layout, glyph))")
        let mask = drawn(layout)
        let colours = try #require(mask.colours)
        // The grinning face is yellow: opaque pixels with red and green high and blue low.
        var yellow = 0
        for i in 0..<(mask.width * mask.height) {
            let c = colours[i]
            let r = c & 0xFF, g = (c >> 8) & 0xFF, b = (c >> 16) & 0xFF, a = c >> 24
            if a > 240, r > 200, g > 150, b < 100 { yellow += 1 }
            #expect(r <= a && g <= a && b <= a, "premultiplied")
            if r > a || g > a || b > a { break }
        }
        #expect(yellow > 500)
        // The strike is 109 pixels per em: at 48 the emoji is about an em tall, not 128 pixels.
        #expect(mask.height >= 36 && mask.height <= 64, "\(mask.height) pixels tall")
        #expect(layout.lines[0].width >= 36 && layout.lines[0].width <= 72, "advance \(layout.lines[0].width)")
        // Twice the size, twice the emoji.
        let big = drawn(try laidOut("😀", size: 96))
        #expect(abs(big.height - 2 * mask.height) <= 3)
    }

    @Test("text-style characters stay monochrome unless U+FE0F asks for an emoji; U+FE0E keeps text")
    func presentation() throws {
        let text = try laidOut("☺")   // WHITE SMILING FACE: text presentation by default
        #expect(!text.fonts.isColour(Int(text.glyphs[0].font)))
        let emoji = try laidOut("☺\u{FE0F}")
        #expect(emoji.fonts.isColour(Int(emoji.glyphs[0].font)))
        let forcedText = try laidOut("😀\u{FE0E}")
        #expect(!forcedText.fonts.isColour(Int(forcedText.glyphs[0].font)))
        let digits = try laidOut("1")
        #expect(!digits.fonts.isColour(Int(digits.glyphs[0].font)), "a plain digit is text")
    }

    @Test("emoji sequences are one glyph: a family joined with U+200D, a flag, a skin tone")
    func sequences() throws {
        for sequence in ["👨\u{200D}👩\u{200D}👧", "🇫🇷", "👍🏽"] {
            let layout = try laidOut(sequence)
            #expect(layout.glyphs.count == 1, "\(sequence): \(layout.glyphs.count) glyphs")
            #expect(layout.glyphs.allSatisfy { $0.glyph != 0 && layout.fonts.isColour(Int($0.font)) })
        }
    }

    @Test("a line mixing Latin, Hangul, Devanagari, Thai and emoji: every character drawn, colour only where emoji are")
    func mixedLine() throws {
        let layout = try laidOut("Hi 한 हि ไ 🎵!")
        #expect(layout.glyphs.allSatisfy { $0.glyph != 0 })
        let colourGlyphs = layout.glyphs.filter { layout.fonts.isColour(Int($0.font)) }
        #expect(colourGlyphs.count == 1)
        let mask = drawn(layout)
        let colours = try #require(mask.colours)
        // Colour ink only in the emoji's columns: the right part of the line, before the "!".
        let emojiX = mask.blockX + Int(colourGlyphs[0].x)
        var stray = 0
        for y in 0..<mask.height {
            for x in 0..<min(mask.width, emojiX - 2) where colours[y * mask.width + x] != 0 { stray += 1 }
        }
        #expect(stray == 0, "colour left of the emoji")
    }

    @Test("a space and digits after an emoji are text again, not the emoji font's keycap digits")
    func textAfterEmoji() throws {
        let layout = try laidOut("🎵 123")
        #expect(layout.glyphs.count == 5)
        #expect(layout.fonts.isColour(Int(layout.glyphs[0].font)))
        #expect(layout.glyphs[1...].allSatisfy { !layout.fonts.isColour(Int($0.font)) })
        let keycap = try laidOut("1\u{FE0F}\u{20E3}")
        #expect(keycap.glyphs.count == 1 && keycap.fonts.isColour(Int(keycap.glyphs[0].font)), "a keycap is one emoji")
    }
}
