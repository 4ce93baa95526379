import MarbleText
import Testing
@testable import Shaders

/// Fitting a title to a width: wrapped at spaces into a set number of lines, then cut with an ellipsis.
@Suite struct TextWrapTests {
    let layout = TextLayout(fonts: try! FontStack(font: ""))
    static let size = 40

    func scalars(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }
    func lines(_ s: [UInt32]) -> [ArraySlice<UInt32>] { s.split(separator: TextWrap.newline, omittingEmptySubsequences: false) }
    func width(_ line: ArraySlice<UInt32>) -> Float { TextWrap.width(line, layout, Self.size) }

    @Test("a text that fits stays as it is")
    func fits() {
        var out: [UInt32] = []
        let text = scalars("Halo")
        #expect(TextWrap.wrap(text, layout: layout, pixelSize: Self.size, maxWidth: 1000, maxLines: 2, into: &out))
        #expect(out == text)
    }

    @Test("a text a little too wide breaks at a space into two lines, each within the width, no word cut")
    func twoLines() {
        let text = scalars("The quick brown fox jumps over the lazy dog")
        let maxWidth = width(text[...]) * 0.6
        var out: [UInt32] = []
        #expect(TextWrap.wrap(text, layout: layout, pixelSize: Self.size, maxWidth: maxWidth, maxLines: 2, into: &out))
        let l = lines(out)
        #expect(l.count == 2 && l.allSatisfy { width($0) <= maxWidth }, "\(String(decoding: out.map { UInt8(truncatingIfNeeded: $0) }, as: UTF8.self))")
        #expect(out.filter { $0 != TextWrap.newline } == text.filter { $0 != 0x20 } || out.count == text.count, "only a space became a line break")
        #expect(!out.contains(TextWrap.ellipsis))
    }

    @Test("a 500-character title: two lines within the width, the second ending in an ellipsis")
    func longTitle() {
        let text = scalars(String(repeating: "Symphony of the endless night ", count: 17))   // 510 characters
        let maxWidth: Float = 1700
        var out: [UInt32] = []
        #expect(!TextWrap.wrap(text, layout: layout, pixelSize: Self.size, maxWidth: maxWidth, maxLines: 2, into: &out))
        let l = lines(out)
        #expect(l.count == 2 && l.allSatisfy { width($0) <= maxWidth && width($0) > maxWidth * 0.7 }, "\(l.map { width($0) })")
        #expect(out.last == TextWrap.ellipsis && out.dropLast().last != 0x20)
    }

    @Test("text without spaces (CJK) breaks between characters; lines the text breaks itself stay broken")
    func noSpaces() {
        let text = scalars(String(repeating: "夜空の交響曲", count: 8) + "\nAlbum")
        let maxWidth = width(scalars("夜空の交響曲")[...]) * 3
        var out: [UInt32] = []
        // 48 characters, 18 to a line: two whole lines, then the last allowed one holds the rest of the
        // first paragraph cut short, since "Album" would not fit in it too.
        #expect(TextWrap.wrap(text, layout: layout, pixelSize: Self.size, maxWidth: maxWidth, maxLines: 3, into: &out) == false)
        let l = lines(out)
        #expect(l.count == 3 && l.allSatisfy { width($0) <= maxWidth } && out.last == TextWrap.ellipsis, "\(l.map { width($0) })")
        var kept: [UInt32] = []
        #expect(TextWrap.wrap(scalars("One\nTwo"), layout: layout, pixelSize: Self.size, maxWidth: 1000, maxLines: 3, into: &kept))
        #expect(kept == scalars("One\nTwo"))
    }
}
