internal import CFreeType
import MarbleCore

/// The fonts a text layer draws with: the one it names first, then Fontconfig's fallbacks, so that
/// each character is drawn by the first font that has a glyph for it (Latin from the named font, CJK
/// from a CJK font, …), and Fontconfig's colour emoji font, which draws the characters shown as emoji
/// (see ``fontIndex(for:next:preferring:)``). Faces are opened lazily, the first time a character needs them.
///
/// Not thread-safe (FreeType objects): one stack per text layer, used from its `prepare`.
package final class FontStack {
    private let library: FT_Library
    private let files: [FontFile]
    /// The fonts Fontconfig says draw in colour, in stack order.
    private let colourIndices: [Int]
    private var faces: [FontFace?]
    private var tried: [Bool]
    private var pixelSize = 16

    /// A stack for `font`: a family name ("" or a name Fontconfig does not know gives its closest
    /// match, by default DejaVu Sans) or a font file's path (contains "/"), followed by the fallbacks of
    /// the default family.
    ///
    /// - Throws: `.option` when a path does not open as a scalable font, or when no font is installed.
    package init(font: String) throws(MarbleError) {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { throw MarbleError(.option, "FreeType does not start") }
        self.library = library
        let isPath = font.contains("/")
        var files = FontFinder.sorted(family: isPath ? "" : font)
        if isPath { files.insert(FontFile(path: font, index: 0), at: 0) }
        if let emoji = FontFinder.colourEmoji(), !files.contains(emoji) { files.append(emoji) }
        self.files = files
        colourIndices = files.indices.filter { files[$0].colour }
        faces = [FontFace?](repeating: nil, count: files.count)
        tried = [Bool](repeating: false, count: files.count)
        if isPath {
            // (Throwing after every property is set runs deinit, which releases the library.)
            guard face(at: 0) != nil else {
                throw MarbleError(.option, "font \(font): not a readable scalable font file")
            }
        } else if files.isEmpty || (0..<files.count).allSatisfy({ face(at: $0) == nil }) {
            throw MarbleError(.option, "no usable font found by Fontconfig for \"\(font)\" (install fonts-dejavu-core)")
        }
    }

    deinit {
        faces = []
        FT_Done_FreeType(library)
    }

    /// How many fonts the stack may use (opened or not).
    package var count: Int { files.count }

    /// The primary font's family name (the first one that opens).
    package var familyName: String {
        for i in 0..<files.count { if let f = face(at: i) { return f.familyName } }
        return ""
    }

    /// The face at `index`, opened (and set to the stack's size) on first use; nil when it does not open.
    func face(at index: Int) -> FontFace? {
        guard index >= 0, index < files.count else { return nil }
        if !tried[index] {
            tried[index] = true
            faces[index] = FontFace(library: library, file: files[index])
            faces[index]?.setPixelSize(pixelSize)
        }
        return faces[index]
    }

    /// Sets the em size of every opened face (and of those opened later).
    func setPixelSize(_ pixels: Int) {
        pixelSize = max(1, pixels)
        for face in faces { face?.setPixelSize(pixelSize) }
    }

    /// The index of the font that draws `scalar` (followed by `next`, 0 at the end of the line):
    /// - a character shown as an emoji (Unicode's Emoji_Presentation, or an emoji followed by U+FE0F,
    ///   the emoji variation selector) by the first colour font that has it;
    /// - the joiners and selectors inside emoji sequences (U+200D, U+FE00–FE0F, the tag characters) and
    ///   combining marks (U+20E3 of a keycap) by `preferred`, so that a sequence stays one run and the
    ///   font's ligature draws it whole;
    /// - other characters by `preferred` when it has the glyph (so spaces, digits and punctuation stay
    ///   in the run's font) and is not a colour font (a space or a digit after an emoji is text), else
    ///   by the first font in the stack that has it, colour fonts last, else by the primary font
    ///   (which draws its "missing glyph" box).
    func fontIndex(for scalar: UInt32, next: UInt32, preferring preferred: Int) -> Int {
        if Self.joinsSequence(scalar) { return preferred }
        if next != 0xFE0E, !colourIndices.isEmpty, Self.showsAsEmoji(scalar, next: next) {
            for i in colourIndices { if let f = face(at: i), f.covers(scalar) { return i } }
        }
        if let f = face(at: preferred), f.covers(scalar), !f.isColour || Self.isMark(scalar) { return preferred }
        var colourFallback: Int?
        for i in 0..<files.count where i != preferred {
            guard let f = face(at: i), f.covers(scalar) else { continue }
            if !f.isColour { return i }
            if colourFallback == nil { colourFallback = i }
        }
        return colourFallback ?? primaryIndex
    }

    /// True for the characters that only modify their neighbours in an emoji sequence: the zero-width
    /// joiner, variation selectors and tag characters (subdivision flags).
    static func joinsSequence(_ scalar: UInt32) -> Bool {
        scalar == 0x200D || (0xFE00...0xFE0F).contains(scalar) || (0xE0020...0xE007F).contains(scalar)
    }

    /// True for combining marks (a keycap's U+20E3, accents), which belong to the character before them.
    static func isMark(_ scalar: UInt32) -> Bool {
        guard let properties = Unicode.Scalar(scalar)?.properties else { return false }
        return properties.generalCategory == .nonspacingMark || properties.generalCategory == .enclosingMark
            || properties.generalCategory == .spacingMark
    }

    /// True when `scalar` is drawn as an emoji by default, or is an emoji that `next` (U+FE0F) asks to be.
    static func showsAsEmoji(_ scalar: UInt32, next: UInt32) -> Bool {
        guard scalar >= 0x80 || next == 0xFE0F, let properties = Unicode.Scalar(scalar)?.properties else { return false }
        return properties.isEmojiPresentation || (next == 0xFE0F && properties.isEmoji)
    }

    /// True when font `index` draws in colour.
    package func isColour(_ index: Int) -> Bool { face(at: index)?.isColour ?? false }

    /// The first font that opens.
    var primaryIndex: Int {
        for i in 0..<files.count where face(at: i) != nil { return i }
        return 0
    }

    /// The file behind font `index` (for tests and diagnostics).
    package func path(of index: Int) -> String { index >= 0 && index < files.count ? files[index].path : "" }
}
