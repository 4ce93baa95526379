import MarbleCore
import MarbleKit
import MarbleMedia

/// The page's render settings: docs/STUDIO.md's SETTINGS object. Every field is optional; a missing
/// one is the command line's default (1280x720, 60 fps, mp4, one piece, no title, no background,
/// fit cover, crf 23, superfast).
///
/// The settings say what to render; ``options(song:background:preset:output:)`` turns them into the
/// `RenderOptions` a `RenderJob` runs, and ``commandLines(song:background:preset:output:)`` into the
/// `marble` commands that write the same bytes. Checks are the command line's own
/// (``validate()``), with the field named instead of the option: `settings.size: 10x10: …`.
package struct RenderSettings: Codable, Sendable, Equatable {
    /// What is drawn under the scene: the song's embedded cover, nothing, or a file of a studio folder.
    package enum Background: Codable, Sendable, Equatable {
        /// The song's own embedded picture (`--background cover`).
        case cover
        /// No background picture: the preset's own background layer.
        case none
        /// A picture or video at `path`, relative to folder number `folder` of the studio.
        case file(path: String, folder: Int)
    }

    /// `WIDTHxHEIGHT`, even numbers, 16x16…7680x4320.
    package var size: String?
    /// Frames per second, 1…240: a whole number, or a fraction like `"30000/1001"` in JSON.
    package var fps: Rational?
    /// The container: mp4, mkv, mov or webm.
    package var format: String?
    /// Pieces the render is cut into and rendered side by side, then joined (1…16); the bytes are the same.
    package var segments: Int?
    /// A title over the picture: `--title`'s text with fields (`{artist} — {title}`).
    package var title: String?
    /// The picture under the scene; nil is `.none`.
    package var background: Background?
    /// How a background of another shape fills the frame: contain or cover.
    package var fit: String?
    /// The encoder's quality, 0…63 (lower is better).
    package var crf: Int?
    /// The encoder's speed: x264's preset names.
    package var encoderPreset: String?

    /// The most pieces a studio render is cut into.
    package static let maximumSegments = 16
    /// The containers a render may be written in (a PNG is not a render of the song).
    package static let formats = ["mp4", "mkv", "mov", "webm"]

    /// Settings with every field at the command line's default.
    package init(size: String? = nil, fps: Rational? = nil, format: String? = nil, segments: Int? = nil,
                 title: String? = nil, background: Background? = nil, fit: String? = nil, crf: Int? = nil,
                 encoderPreset: String? = nil) {
        self.size = size; self.fps = fps; self.format = format; self.segments = segments; self.title = title
        self.background = background; self.fit = fit; self.crf = crf; self.encoderPreset = encoderPreset
    }

    // MARK: Values with their defaults

    /// The container's extension, `mp4` unless set.
    package var fileExtension: String { format ?? "mp4" }
    /// The number of pieces, 1 unless set.
    package var pieceCount: Int { segments ?? 1 }

    // MARK: Checks

    /// Checks every field as the command line checks its option, in the order of the fields; the first
    /// bad one throws a `.option` error naming it (`settings.crf: 70: must be between 0 and 63`).
    package func validate() throws(MarbleError) {
        _ = try frameSize()
        if let fps { try Self.field("fps", "--fps") { () throws(MarbleError) in _ = try Limits.check(rate: fps) } }
        if let format, !Self.formats.contains(format) {
            throw MarbleError(.option, "settings.format: \(format): expected \(Self.formats.joined(separator: ", "))")
        }
        if let segments, !(1...Self.maximumSegments).contains(segments) {
            throw MarbleError(.option, "settings.segments: \(segments): must be between 1 and \(Self.maximumSegments)")
        }
        if let title { try Self.field("title", "--title") { () throws(MarbleError) in try RenderOptions.validate(title: title) } }
        if case .file(let path, let folder) = background {
            guard !path.isEmpty, folder >= 0 else {
                throw MarbleError(.option, "settings.background: expected \"cover\", \"none\" or {\"song\": PATH, \"folder\": N}")
            }
        }
        _ = try fitValue()
        if let crf {
            var options = RenderOptions(input: "song", output: "render.mp4")
            options.crf = crf
            try Self.field("crf", "--crf") { () throws(MarbleError) in try options.validate() }
        }
        _ = try encoderPresetValue()
    }

    /// The frame size, checked as `--size` is.
    private func frameSize() throws(MarbleError) -> FrameSize {
        guard let size else { return FrameSize(1280, 720) }
        guard let parsed = FrameSize(parsing: size) else {
            throw MarbleError(.option, "settings.size: \(size): expected WIDTHxHEIGHT, e.g. 1920x1080")
        }
        var options = RenderOptions(input: "song", output: "render.mp4")
        options.width = parsed.width
        options.height = parsed.height
        try Self.field("size", "--size") { () throws(MarbleError) in try options.validate() }
        return parsed
    }

    private func fitValue() throws(MarbleError) -> Fit {
        guard let fit else { return .cover }
        guard let value = Fit(rawValue: fit) else { throw MarbleError(.option, "settings.fit: \(fit): expected contain or cover") }
        return value
    }

    private func encoderPresetValue() throws(MarbleError) -> EncoderPreset {
        guard let encoderPreset else { return .superfast }
        guard let value = EncoderPreset(rawValue: encoderPreset) else {
            let names = EncoderPreset.allCases.map(\.rawValue).joined(separator: ", ")
            throw MarbleError(.option, "settings.encoderPreset: \(encoderPreset): expected one of \(names)")
        }
        return value
    }

    /// Runs a command-line check and names the field instead of the option in its error:
    /// "--size 10x10: …" becomes "settings.size: 10x10: …", "--title: …" becomes "settings.title: …".
    private static func field(_ name: String, _ option: String, _ check: () throws(MarbleError) -> Void) throws(MarbleError) {
        do throws(MarbleError) {
            try check()
        } catch {
            var rest = Substring(error.message)
            if rest.hasPrefix(option + " ") { rest = rest.dropFirst(option.count + 1) } else if rest.hasPrefix(option) { rest = rest.dropFirst(option.count) }
            let joined = rest.hasPrefix(":") ? "settings.\(name)\(rest)" : "settings.\(name): \(rest)"
            throw MarbleError(error.kind, joined)
        }
    }
}

/// The background as the caller resolved it: a `.file` setting is checked against the studio's folders
/// (another part of the studio does that) and arrives here as an absolute path.
package enum RenderBackground: Sendable, Equatable {
    /// No background picture.
    case none
    /// The song's embedded cover picture.
    case cover
    /// A picture or video file, by its absolute path.
    case file(String)
}

// MARK: The render and its command line

extension RenderSettings {
    /// The options of the render of `song` (absolute path) with `preset` (a bundled name or a preset
    /// file's absolute path) into `output`, whose extension should be ``fileExtension``. Every value is
    /// checked (``validate()``, then `RenderOptions.validate()`). `segments` is not among them: the
    /// pieces are the queue's business, and their join is this render's bytes.
    package func options(song: String, background: RenderBackground, preset: String, output: String) throws(MarbleError) -> RenderOptions {
        try validate()
        var o = RenderOptions(input: song, output: output)
        let size = try frameSize()
        o.width = size.width
        o.height = size.height
        if let fps { o.fps = fps }
        o.preset = preset
        o.title = title
        switch background {
        case .none: o.background = nil
        case .cover: o.background = RenderOptions.coverBackground
        case .file(let path): o.background = path
        }
        o.fit = try fitValue()
        if let crf { o.crf = crf }
        o.encoderPreset = try encoderPresetValue()
        try o.validate()
        return o
    }

    /// The commands, each a program and its arguments, that write the same bytes as the studio's render
    /// of these settings into `output`: one `marble render` for a render in one piece. A render in N
    /// pieces is not the one-pass render's bytes (each piece is encoded on its own, from a keyframe: the
    /// same frame count, timestamps and sound, and the same pictures at `crf` 0, but another bitstream),
    /// so its commands are the farm's recipe: N `marble render --segment K/N` (pieces beside the output,
    /// `NAME.part-K.EXT`), `marble join`, and `rm` of the pieces. Each `marble render` gives the size
    /// and rate always and every other setting when it is not the command line's default; neither the
    /// render's threads nor its pieces' paths change the bytes.
    package func commandLines(song: String, background: RenderBackground, preset: String, output: String) throws(MarbleError) -> [[String]] {
        let o = try options(song: song, background: background, preset: preset, output: output)
        var settings = ["--preset", preset, "--size", "\(o.width)x\(o.height)", "--fps", o.fps.description]
        if let title { settings += ["--title", title] }
        switch background {
        case .none: break
        case .cover: settings += ["--background", RenderOptions.coverBackground]
        case .file(let path): settings += ["--background", path]
        }
        if o.fit != .cover { settings += ["--fit", o.fit.rawValue] }
        if o.crf != 23 { settings += ["--crf", String(o.crf)] }
        if o.encoderPreset != .superfast { settings += ["--encoder-preset", o.encoderPreset.rawValue] }
        let count = pieceCount
        guard count > 1 else { return [["marble", "render", song, "-o", output] + settings] }
        let pieces = Self.piecePaths(output: output, count: count)
        let renders = pieces.indices.map { k in ["marble", "render", song, "-o", pieces[k]] + settings + ["--segment", "\(k + 1)/\(count)"] }
        return renders + [["marble", "join"] + pieces + ["-o", output], ["rm", "--"] + pieces]
    }

    /// ``commandLines(song:background:preset:output:)`` for a shell, joined by `&&`: `marble render '/abs/song.mp3' -o …`.
    package func command(song: String, background: RenderBackground, preset: String, output: String) throws(MarbleError) -> String {
        try commandLines(song: song, background: background, preset: preset, output: output).map(Self.shellCommand).joined(separator: " && ")
    }

    /// Where the commands put piece K of `count`: `NAME.part-K.EXT` beside `output` (`NAME.EXT`).
    static func piecePaths(output: String, count: Int) -> [String] {
        let slash = output.lastIndex(of: "/").map { output.index(after: $0) } ?? output.startIndex
        let dot = output[slash...].lastIndex(of: ".") ?? output.endIndex
        let (name, ext) = (output[..<dot], output[dot...])
        return (1...count).map { "\(name).part-\($0)\(ext)" }
    }

    /// The words joined by spaces, each one that is empty, a path (holds a `/`) or holds anything but
    /// letters, digits and `_ - . , : = + @ %` in single quotes, an embedded `'` written `'\''`: a POSIX
    /// shell reads back exactly these words.
    package static func shellCommand(_ words: [String]) -> String {
        words.map(shellQuoted).joined(separator: " ")
    }

    /// One word for a POSIX shell (see ``shellCommand(_:)``).
    package static func shellQuoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { c in
            ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || "_-.,:=+@%".unicodeScalars.contains(c)
        }
        if plain { return word }
        return "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}

// MARK: JSON

extension RenderSettings {
    private enum Key: String, CodingKey, CaseIterable {
        case size, fps, format, segments, title, background, fit, crf, encoderPreset
    }

    /// Reads the page's JSON. A field of the wrong type, or one that is not a setting, is a `.option`
    /// `MarbleError` naming it (the server answers 400 with its message): only the values are left for
    /// ``validate()``.
    package init(from decoder: any Decoder) throws {
        let names = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        if let unknown = names.first(where: { Key(rawValue: $0) == nil }) {
            throw MarbleError(.option, "settings.\(unknown): not a setting (\(Key.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let c = try decoder.container(keyedBy: Key.self)
        self.init()
        size = try Self.read(String.self, .size, in: c, "a text like \"1280x720\"")
        segments = try Self.read(Int.self, .segments, in: c, "a whole number")
        format = try Self.read(String.self, .format, in: c, "a text: mp4, mkv, mov or webm")
        title = try Self.read(String.self, .title, in: c, "a text")
        fit = try Self.read(String.self, .fit, in: c, "a text: contain or cover")
        crf = try Self.read(Int.self, .crf, in: c, "a whole number")
        encoderPreset = try Self.read(String.self, .encoderPreset, in: c, "a text like \"superfast\"")
        fps = try Self.readRate(in: c)
        background = try Self.readBackground(in: c)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encodeIfPresent(size, forKey: .size)
        if let fps {
            if fps.denominator == 1 { try c.encode(fps.numerator, forKey: .fps) } else { try c.encode(fps.description, forKey: .fps) }
        }
        try c.encodeIfPresent(format, forKey: .format)
        try c.encodeIfPresent(segments, forKey: .segments)
        try c.encodeIfPresent(title, forKey: .title)
        switch background {
        case nil: break
        case .cover?: try c.encode("cover", forKey: .background)
        case .none?: try c.encode("none", forKey: .background)
        case .file(let path, let folder)?:
            var file = c.nestedContainer(keyedBy: FileKey.self, forKey: .background)
            try file.encode(path, forKey: .song)
            try file.encode(folder, forKey: .folder)
        }
        try c.encodeIfPresent(fit, forKey: .fit)
        try c.encodeIfPresent(crf, forKey: .crf)
        try c.encodeIfPresent(encoderPreset, forKey: .encoderPreset)
    }

    private enum FileKey: String, CodingKey { case song, folder }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The field's value, nil when absent or null; any other type is an error naming the field.
    private static func read<T: Decodable>(_ type: T.Type, _ key: Key, in c: KeyedDecodingContainer<Key>,
                                           _ expected: String) throws -> T? {
        do {
            return try c.decodeIfPresent(type, forKey: key)
        } catch {
            throw MarbleError(.option, "settings.\(key.rawValue): expected \(expected)")
        }
    }

    /// `60` or `"30000/1001"` (or `"60"`).
    private static func readRate(in c: KeyedDecodingContainer<Key>) throws -> Rational? {
        let expected = "settings.fps: expected a rate like 60 or \"30000/1001\""
        if let number = try? c.decodeIfPresent(Int.self, forKey: .fps) {
            guard number.magnitude <= UInt(Limits.rationalPart) else { throw MarbleError(.option, "\(expected), not \(number)") }
            return Rational(number)
        }
        guard let text = try read(String.self, .fps, in: c, "a rate like 60 or \"30000/1001\"") else { return nil }
        guard let rate = Rational(parsing: text) else { throw MarbleError(.option, "\(expected), not \(text)") }
        return rate
    }

    /// `"cover"`, `"none"` or `{"song": PATH, "folder": N}`.
    private static func readBackground(in c: KeyedDecodingContainer<Key>) throws -> Background? {
        let expected = MarbleError(.option, "settings.background: expected \"cover\", \"none\" or {\"song\": PATH, \"folder\": N}")
        guard c.contains(.background), try !c.decodeNil(forKey: .background) else { return nil }
        if let word = try? c.decode(String.self, forKey: .background) {
            switch word {
            case "cover": return .cover
            case "none": return Background.none
            default: throw expected
            }
        }
        guard let file = try? c.nestedContainer(keyedBy: FileKey.self, forKey: .background),
              let path = try? file.decode(String.self, forKey: .song),
              let folder = try? file.decode(Int.self, forKey: .folder) else { throw expected }
        return .file(path: path, folder: folder)
    }
}
