internal import CFontconfig
import Synchronization

/// One face in a font file: the path and the face's index inside it (collections hold several).
struct FontFile: Sendable, Equatable {
    var path: String
    var index: Int
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
        lock.withLock { loaded -> [FontFile] in
            if !loaded { loaded = FcInit() != 0 }
            // A Fontconfig name: a family, optionally with properties ("DejaVu Sans:bold").
            let name = family.isEmpty ? defaultFamily : family
            guard loaded, let pattern = name.withCString({ FcNameParse(UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) })
            else { return [] }
            defer { FcPatternDestroy(pattern) }
            _ = FcPatternAddBool(pattern, marble_fc_scalable(), 1)
            _ = FcConfigSubstitute(nil, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            guard let set = FcFontSort(nil, pattern, 1, nil, &result) else { return [] }
            defer { FcFontSetDestroy(set) }
            var files: [FontFile] = []
            for i in 0..<Int(set.pointee.nfont) {
                guard let font = set.pointee.fonts[i] else { continue }
                var file: UnsafeMutablePointer<FcChar8>?
                guard FcPatternGetString(font, marble_fc_file(), 0, &file) == FcResultMatch, let file else { continue }
                var index: Int32 = 0
                if FcPatternGetInteger(font, marble_fc_index(), 0, &index) != FcResultMatch { index = 0 }
                let path = String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self))
                guard path.hasSuffix(".ttf") || path.hasSuffix(".otf") || path.hasSuffix(".ttc")
                        || path.hasSuffix(".otc") || path.hasSuffix(".TTF") || path.hasSuffix(".OTF") else { continue }
                let entry = FontFile(path: path, index: Int(index))
                if !files.contains(entry) { files.append(entry) }
            }
            return files
        }
    }
}
