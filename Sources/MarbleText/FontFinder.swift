internal import CFontconfig
import Synchronization

/// One face in a font file: the path, the face's index inside it (collections hold several), and
/// whether Fontconfig says it draws in colour (emoji fonts).
struct FontFile: Sendable, Equatable {
    var path: String
    var index: Int
    var colour = false
}

/// Finds installed fonts with Fontconfig: the best match for a family name, then every other font that
/// covers characters the ones before it do not (Fontconfig's fallback order, `FcFontSort` with trimming).
///
/// Fontconfig's configuration is loaded once per process; calls go through one lock, since the library
/// is only thread-safe for some calls across versions.
enum FontFinder {
    /// The family used when a layer names none: DejaVu Sans (Debian's fonts-dejavu-core, installed with
    /// fontconfig nearly everywhere; Latin, Greek, Cyrillic, Arabic, Hebrew and many symbols).
    static let defaultFamily = "DejaVu Sans"

    private static let lock = Mutex<Bool>(false)

    /// The fonts for `family` (a Fontconfig name such as "Noto Sans:bold"; "" for the default), best first, then fallbacks in Fontconfig's order.
    /// Only scalable files (FreeType needs outlines to draw at any size). Empty when Fontconfig has no
    /// configuration or no fonts.
    static func sorted(family: String) -> [FontFile] {
        // A Fontconfig name: a family, optionally with properties ("DejaVu Sans:bold").
        withPattern(family.isEmpty ? defaultFamily : family, else: []) { pattern in
            var result = FcResultNoMatch
            guard let set = FcFontSort(nil, pattern, 1, nil, &result) else { return [] }
            defer { FcFontSetDestroy(set) }
            var files: [FontFile] = []
            for i in 0..<Int(set.pointee.nfont) {
                guard let font = set.pointee.fonts[i], let entry = fontFile(font) else { continue }
                if !files.contains(entry) { files.append(entry) }
            }
            return files
        }
    }

    /// The font Fontconfig picks for emoji in colour (its "emoji" alias: Noto Color Emoji on Debian,
    /// fonts-noto-color-emoji), or nil when no colour font is installed. The trimmed fallback list
    /// leaves it out when monochrome fonts before it already cover the characters it adds.
    static func colourEmoji() -> FontFile? {
        withPattern("emoji:color=true", else: nil) { pattern in
            var result = FcResultNoMatch
            guard let font = FcFontMatch(nil, pattern, &result), result == FcResultMatch else { return nil }
            defer { FcPatternDestroy(font) }
            guard let entry = fontFile(font), entry.colour else { return nil }
            return entry
        }
    }

    /// Runs `body` with the parsed, substituted pattern for `name` (scalable fonts only), under the
    /// lock, Fontconfig loaded; `empty` when it has no configuration or the name does not parse.
    private static func withPattern<T: Sendable>(_ name: String, else empty: T, _ body: (OpaquePointer) -> T) -> T {
        lock.withLock { loaded -> T in
            if !loaded { loaded = FcInit() != 0 }
            guard loaded, let pattern = name.withCString({ FcNameParse(UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) })
            else { return empty }
            defer { FcPatternDestroy(pattern) }
            _ = FcPatternAddBool(pattern, marble_fc_scalable(), 1)
            _ = FcConfigSubstitute(nil, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            return body(pattern)
        }
    }

    /// The file, face index and colour of a matched font; nil for a format FreeType is not given
    /// (bitmap-only formats such as PCF: only TrueType and OpenType files and collections).
    private static func fontFile(_ font: OpaquePointer) -> FontFile? {
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(font, marble_fc_file(), 0, &file) == FcResultMatch, let file else { return nil }
        var index: Int32 = 0
        if FcPatternGetInteger(font, marble_fc_index(), 0, &index) != FcResultMatch { index = 0 }
        var colour: FcBool = 0
        if FcPatternGetBool(font, marble_fc_color(), 0, &colour) != FcResultMatch { colour = 0 }
        let path = String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self))
        let lower = path.lowercased()
        guard [".ttf", ".otf", ".ttc", ".otc"].contains(where: { lower.hasSuffix($0) }) else { return nil }
        return FontFile(path: path, index: Int(index), colour: colour != 0)
    }
}
