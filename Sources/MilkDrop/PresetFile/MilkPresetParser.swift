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
/// - Code: numbered lines are joined in numeric order, across gaps. MilkDrop and projectM stop at the first
///   missing number; we keep the later lines (real code in the 10 files of projectm-data that have a gap)
///   and leave a note where MilkDrop would have stopped. Equation lines are trimmed; shader lines lose
///   their leading backtick and trailing white space.
/// - Errors (``MilkPresetError``) only when nothing usable is left: unreadable, not a regular file, too
///   large, binary, or no setting and no code line at all.
package enum MilkPresetParser {
    /// Reads and parses the file at `path` (symbolic links followed; pipes and devices refused).
    package static func parse(contentsOf path: String) throws(MilkPresetError) -> MilkPresetFile {
        try parse(PresetFileSystem.read(path), path: path)
    }

    /// Parses the bytes of a `.milk` file; `path` names it in errors and in the result.
    package static func parse(_ bytes: [UInt8], path: String) throws(MilkPresetError) -> MilkPresetFile {
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
            if !reader.read(lines.bytes[line.range], line: line.number, text: lines) { break }
        }
        return try reader.finish()
    }
}

/// The state of one parse: the first occurrence of each key, the code lines by block.
private struct Reader {
    var file: MilkPresetFile
    var firstLine: [String: Int] = [:]
    var code: [MilkPresetKey.CodeTarget: [(index: Int, fileLine: Int, text: String)]] = [:]
    var notedElements: Set<String> = []
    var sawSection = false
    var sawContent = false

    init(path: String, encoding: MilkPresetEncoding) {
        file = MilkPresetFile(path: path)
        file.encoding = encoding
    }

    /// Reads one line (its bytes without the line end); false when the rest of the file is to be ignored.
    /// Delimiters are ASCII, so the line is split on bytes and only the key and value are decoded.
    mutating func read(_ bytes: ArraySlice<UInt8>, line: Int, text lines: PresetLines) -> Bool {
        let end = bytes.endIndex
        func isBlank(_ i: Int) -> Bool { bytes[i] == 0x20 || bytes[i] == 0x09 }
        var i = bytes.startIndex
        while i < end, isBlank(i) { i += 1 }
        guard i < end else { return true }
        switch bytes[i] {
        case UInt8(ascii: "["):
            if sawSection {
                note(line, "a second section \(lines.decode(bytes[i...]).trimmingTrailingSpace): the rest of the file is ignored")
                return false
            }
            sawSection = true
            return true
        case UInt8(ascii: ";"), UInt8(ascii: "#"):
            return true
        case UInt8(ascii: "/") where i + 1 < end && bytes[i + 1] == UInt8(ascii: "/"):
            return true
        default:
            break
        }
        // `key=value`, `key = value`, or (as projectM reads it) `key value`.
        var keyEnd = i
        while keyEnd < end, bytes[keyEnd] != UInt8(ascii: "="), !isBlank(keyEnd) { keyEnd += 1 }
        var valueStart = keyEnd
        while valueStart < end, isBlank(valueStart) { valueStart += 1 }
        if valueStart < end, bytes[valueStart] == UInt8(ascii: "=") { valueStart += 1 }
        else if valueStart == keyEnd { keyEnd = i }              // no delimiter at all
        guard keyEnd > i else {
            note(line, "\"\(lines.decode(bytes[i...]).trimmingTrailingSpace)\" has no value: ignored")
            return true
        }
        let name = lines.decode(bytes[i..<keyEnd])
        let key = lines.decode(ArraySlice(bytes[i..<keyEnd].map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }))
        if let earlier = firstLine[key] {
            note(line, "\(name) repeated: the first one (line \(earlier)) is used")
            return true
        }
        firstLine[key] = line
        store(MilkPresetKey(key), name: name, value: lines.decode(bytes[valueStart...])[...], line: line)
        return true
    }

    mutating func store(_ key: MilkPresetKey, name: String, value: Substring, line: Int) {
        if let (kind, index, limit) = key.customElement, index >= limit {
            // MilkDrop 2 has four of each (MilkDrop 3 files have more): one note per extra wave or shape.
            if notedElements.insert("\(kind) \(index)").inserted {
                note(line, "\(name): there are only \(limit) custom \(kind)s (0…\(limit - 1)); \(kind) \(index) is ignored")
            }
            return
        }
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
            guard let number = number(value, name: name, line: line) else { return }
            file.waves[wave].values[setting] = number
        case .shapeSetting(let shape, let setting):
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
            if let gap = ordered.indices.first(where: { ordered[$0].index != $0 + 1 }) {
                note(ordered[gap].fileLine, "code line \(ordered[gap].index) follows a gap (no line \(gap + 1)): "
                    + "MilkDrop stopped reading this block before it; it is kept")
            }
            let block = CodeBlock(lines: ordered.map { (fileLine: $0.fileLine, text: $0.text) })
            switch target {
            case .perFrameInit: file.perFrameInit = block
            case .perFrame: file.perFrame = block
            case .perPixel: file.perPixel = block
            case .warpShader: file.warpShader = block.isEmpty ? nil : block
            case .compositeShader: file.compositeShader = block.isEmpty ? nil : block
            case .waveInit(let w): file.waves[w].initCode = block
            case .wavePerFrame(let w): file.waves[w].perFrame = block
            case .wavePerPoint(let w): file.waves[w].perPoint = block
            case .shapeInit(let s): file.shapes[s].initCode = block
            case .shapePerFrame(let s): file.shapes[s].perFrame = block
            }
        }
        file.notes.sort { ($0.line, $0.message) < ($1.line, $1.message) }
        return file
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
