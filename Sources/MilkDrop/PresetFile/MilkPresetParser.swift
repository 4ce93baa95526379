/// Reads `.milk` files the way MilkDrop and projectM do, forgiving everything that leaves a usable preset.
///
/// - Bytes: at most ``MilkDropLimits/fileBytes``; a NUL byte means a binary file (an error naming its line).
///   A UTF-8 byte-order mark is skipped. Valid UTF-8 is read as such; anything else (old Windows-1252
///   comments) as Latin-1, one character per byte. Lines end with LF, CRLF or a lone CR.
/// - Lines: `key=value`, with spaces or tabs allowed around `=`; as in projectM, a key followed by white
///   space and no `=` takes the rest of the line as its value (`per_frame_8 ` is an empty code line).
///   Keys are case-insensitive. Blank lines, `//`, `;` and `#` comments and lines with no value are
///   skipped. The first `[section]` header (`[preset00]`) is optional; lines before it (the version lines)
///   count; a second section ends the preset (MilkDrop reads one).
/// - Repeated keys: the FIRST one wins, as in MilkDrop (whose Windows INI reader returns the first match)
///   and projectM; later ones are ignored with a note. (Debian's files repeat `fRating` and some
///   `per_frame_N`; the first is what MilkDrop ran.)
/// - Settings: the value is read like C's `atof`, the longest number at its start (`3.000000.500000` is
///   3, with a note). A value with no number at all (`fWaveParam=-`) or a non-finite one is ignored with
///   a note, so the renderer's default applies, as in MilkDrop; it is not an error.
/// - Code: numbered lines are joined in numeric order; gaps are skipped over (MilkDrop and projectM stop
///   at the first gap; we keep the later lines, which in practice are real code). Equation lines are
///   trimmed; shader lines lose their leading backtick and trailing white space.
/// - Errors (``MilkPresetError``) only when nothing usable is left: unreadable, not a regular file, too
///   large, binary, or no setting and no code line at all.
public enum MilkPresetParser {
    /// Reads and parses the file at `path` (symbolic links followed; pipes and devices refused).
    public static func parse(contentsOf path: String) throws(MilkPresetError) -> MilkPresetFile {
        try parse(PresetFileSystem.read(path), path: path)
    }

    /// Parses the bytes of a `.milk` file; `path` names it in errors and in the result.
    public static func parse(_ bytes: [UInt8], path: String) throws(MilkPresetError) -> MilkPresetFile {
        guard bytes.count <= MilkDropLimits.fileBytes else {
            throw MilkPresetError(path: path, message: "\(bytes.count) bytes: larger than the \(MilkDropLimits.fileBytes)-byte limit",
                                  reason: .tooLarge)
        }
        if let nul = bytes.firstIndex(of: 0) {
            throw MilkPresetError(path: path, line: PresetLines.lineNumber(ofByte: nul, in: bytes),
                                  message: "NUL byte: not a text file", reason: .notText)
        }
        let lines = PresetLines(bytes)
        var reader = Reader(path: path, encoding: lines.encoding)
        for line in lines.lines {
            if !reader.read(line.text, line: line.number) { break }
        }
        return try reader.finish()
    }
}

/// The state of one parse: the first occurrence of each key, the code lines by block.
private struct Reader {
    var file: MilkPresetFile
    var firstLine: [String: Int] = [:]
    var code: [MilkPresetKey.CodeTarget: [(index: Int, fileLine: Int, text: String)]] = [:]
    var sawSection = false
    var sawContent = false

    init(path: String, encoding: MilkPresetEncoding) {
        file = MilkPresetFile(path: path)
        file.encoding = encoding
    }

    /// Reads one line; false when the rest of the file is to be ignored.
    mutating func read(_ raw: String, line: Int) -> Bool {
        let text = raw.drop { $0 == " " || $0 == "\t" }
        guard let first = text.first else { return true }
        if first == "[" {
            if sawSection {
                note(line, "a second section \(text.trimmingTrailingSpace): the rest of the file is ignored")
                return false
            }
            sawSection = true
            return true
        }
        if text.hasPrefix("//") || first == ";" || first == "#" { return true }
        guard let (name, value) = Self.split(text) else {
            note(line, "\"\(text.trimmingTrailingSpace)\" has no value: ignored")
            return true
        }
        let key = name.lowercased()
        if let earlier = firstLine[key] {
            note(line, "\(name) repeated: the first one (line \(earlier)) is used")
            return true
        }
        firstLine[key] = line
        store(MilkPresetKey(key), name: String(name), value: value, line: line)
        return true
    }

    /// `key = value` or `key value` → (key, value); nil when the line has no delimiter.
    static func split(_ text: Substring) -> (Substring, Substring)? {
        guard let end = text.firstIndex(where: { $0 == "=" || $0 == " " || $0 == "\t" }), end > text.startIndex else {
            return nil
        }
        let name = text[..<end]
        var rest = text[end...].drop { $0 == " " || $0 == "\t" }
        if rest.first == "=" { rest = rest.dropFirst() } else if rest.startIndex == end { return nil }
        return (name, rest)
    }

    mutating func store(_ key: MilkPresetKey, name: String, value: Substring, line: Int) {
        switch key {
        case .code(let target, let index):
            let text: String
            switch target {
            case .warpShader, .compositeShader:
                var v = value.trimmingTrailingSpace[...]
                if let tick = v.firstIndex(of: "`"), v[..<tick].allSatisfy({ $0 == " " || $0 == "\t" }) {
                    v = v[v.index(after: tick)...]
                }
                text = String(v)
            default:
                text = String(value.drop { $0 == " " || $0 == "\t" }).trimmingTrailingSpace
            }
            code[target, default: []].append((index, line, text))
            sawContent = true
        case .setting(let key):
            guard let number = number(value, name: name, line: line) else { return }
            file.values[key] = number
            if key == "milkdrop_preset_version", number.rounded() == number, abs(number) < 1e9 {
                file.version = Int(number)
            }
        case .waveSetting(let wave, let setting):
            guard wave < MilkDropLimits.customWaves else {
                note(line, "\(name): there are only \(MilkDropLimits.customWaves) custom waves (0…\(MilkDropLimits.customWaves - 1)); ignored"); return
            }
            guard let number = number(value, name: name, line: line) else { return }
            file.waves[wave].values[setting] = number
        case .shapeSetting(let shape, let setting):
            guard shape < MilkDropLimits.customShapes else {
                note(line, "\(name): there are only \(MilkDropLimits.customShapes) custom shapes (0…\(MilkDropLimits.customShapes - 1)); ignored"); return
            }
            guard let number = number(value, name: name, line: line) else { return }
            file.shapes[shape].values[setting] = number
        }
    }

    /// The number at the start of `value`, as `atof` reads it; nil (with a note) when there is none.
    mutating func number(_ value: Substring, name: String, line: Int) -> Double? {
        let trimmed = value.drop { $0 == " " || $0 == "\t" }.trimmingTrailingSpace
        guard let (number, used) = PresetNumber.leading(trimmed[...]), number.isFinite else {
            note(line, "\(name)=\(trimmed) is not a number: ignored (the default applies)")
            return nil
        }
        sawContent = true
        if used < trimmed.utf8.count { note(line, "\(name)=\(trimmed): read as \(number), the rest ignored") }
        return number
    }

    mutating func note(_ line: Int, _ message: String) {
        file.notes.append(MilkPresetNote(line: line, message: message))
    }

    /// Builds the blocks; throws when the file held nothing of a preset.
    mutating func finish() throws(MilkPresetError) -> MilkPresetFile {
        guard sawContent else {
            throw MilkPresetError(path: file.path, message: "no preset setting or code line (is this a .milk file?)",
                                  reason: .noPresetContent)
        }
        for (target, lines) in code {
            let ordered = lines.sorted { $0.index < $1.index }
            let block = CodeBlock(lines: ordered.map { (fileLine: $0.fileLine, text: $0.text) })
            switch target {
            case .perFrameInit: file.perFrameInit = block
            case .perFrame: file.perFrame = block
            case .perPixel: file.perPixel = block
            case .warpShader: file.warpShader = block.isEmpty ? nil : block
            case .compositeShader: file.compositeShader = block.isEmpty ? nil : block
            case .waveInit(let w), .wavePerFrame(let w), .wavePerPoint(let w):
                guard w < MilkDropLimits.customWaves else { noteOutOfRange(lines, "wave \(w)", MilkDropLimits.customWaves); continue }
                if case .waveInit = target { file.waves[w].initCode = block }
                else if case .wavePerFrame = target { file.waves[w].perFrame = block }
                else { file.waves[w].perPoint = block }
            case .shapeInit(let s), .shapePerFrame(let s):
                guard s < MilkDropLimits.customShapes else { noteOutOfRange(lines, "shape \(s)", MilkDropLimits.customShapes); continue }
                if case .shapeInit = target { file.shapes[s].initCode = block } else { file.shapes[s].perFrame = block }
            }
        }
        file.notes.sort { ($0.line, $0.message) < ($1.line, $1.message) }
        return file
    }

    mutating func noteOutOfRange(_ lines: [(index: Int, fileLine: Int, text: String)], _ kind: String, _ limit: Int) {
        for l in lines { note(l.fileLine, "code for \(kind): there are only \(limit) (0…\(limit - 1)); ignored") }
    }
}

extension StringProtocol {
    /// Without trailing spaces, tabs and line ends.
    var trimmingTrailingSpace: String {
        var s = Substring(self)
        while let last = s.last, last == " " || last == "\t" || last == "\r" || last == "\n" { s = s.dropLast() }
        return String(s)
    }
}
