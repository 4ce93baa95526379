internal import CFribidi
internal import CHarfBuzz

/// One glyph placed on a line: which font draws it, the glyph's index in that font, the index in the
/// line of the first character it draws (HarfBuzz's cluster), and its pen position in pixels from the
/// line's left end (x) and baseline (y, down positive).
package struct PlacedGlyph: Sendable, Equatable {
    package var font: Int32
    package var glyph: UInt32
    package var cluster: UInt32
    package var x: Float
    package var y: Float
}

/// A line of laid-out text: its glyphs (`glyphs[range]` of the layout) and its advance width.
package struct LaidOutLine: Sendable, Equatable {
    package var range: Range<Int>
    package var width: Float
}

/// Turns characters into positioned glyphs, line by line (lines end at U+000A):
/// 1. bidi levels with FriBidi (the Unicode bidirectional algorithm), only for lines with
///    right-to-left characters (left-to-right text skips it);
/// 2. runs split where the level, the script (Common and Inherited characters join their neighbours)
///    or the font changes; each character's font is the first of the ``FontStack`` with its glyph,
///    keeping the run's font for characters it has (spaces, digits, punctuation), and emoji from a
///    colour font (``FontStack/fontIndex(for:next:preferring:)``);
/// 3. runs shaped by HarfBuzz (direction from the level, the script, language guessed), with the
///    whole line as context, so joining (Arabic), kerning and ligatures work across run boundaries;
/// 4. runs placed in visual order (rule L2: runs at each level from the highest down to the lowest
///    odd one are reversed).
///
/// Buffers are kept between calls and only grow: laying out a text of a length seen before allocates
/// nothing (what a clock field changing once a second needs). Not thread-safe.
package final class TextLayout {
    package let fonts: FontStack
    private let buffer: OpaquePointer
    /// The glyphs of every line, lines one after another.
    package private(set) var glyphs: [PlacedGlyph] = []
    package private(set) var lines: [LaidOutLine] = []
    /// The em size the layout was made at, in pixels.
    package private(set) var pixelSize = 0

    private struct Run { var start: Int, end: Int, level: UInt8, script: hb_script_t, font: Int }
    private var runs: [Run] = []
    private var order: [Int] = []
    private var types: [FriBidiCharType] = []
    private var brackets: [FriBidiBracketType] = []
    private var levels: [FriBidiLevel] = []
    /// The last bidi result of each line (by line number): the levels depend only on the characters'
    /// bidi and bracket types, so a line whose types did not change (a clock's digits ticking) reuses
    /// them instead of running FriBidi again (which allocates).
    private struct BidiMemo { var types: [UInt32] = [], brackets: [FriBidiBracketType] = [], levels: [FriBidiLevel] = [] }
    private var memos: [BidiMemo] = []

    package init(fonts: FontStack) {
        self.fonts = fonts
        buffer = hb_buffer_create()
        glyphs.reserveCapacity(256); lines.reserveCapacity(8); runs.reserveCapacity(16); order.reserveCapacity(16)
    }

    deinit { hb_buffer_destroy(buffer) }

    /// The primary font's ascender, descender and line height at the layout's size, in pixels.
    package var metrics: (ascender: Float, descender: Float, lineHeight: Float) {
        guard let f = fonts.face(at: fonts.primaryIndex) else { return (0, 0, 0) }
        return (f.ascender, f.descender, f.lineHeight)
    }

    /// Lays out `text` (Unicode scalar values) at `pixelSize` pixels per em.
    package func layout(_ text: UnsafeBufferPointer<UInt32>, pixelSize: Int) {
        self.pixelSize = max(1, pixelSize)
        fonts.setPixelSize(self.pixelSize)
        glyphs.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
        var start = 0
        for i in 0...text.count where i == text.count || text[i] == 0x0A {
            layoutLine(UnsafeBufferPointer(rebasing: text[start..<i]), number: lines.count)
            start = i + 1
        }
    }

    private func layoutLine(_ line: UnsafeBufferPointer<UInt32>, number: Int) {
        let first = glyphs.count
        defer { lines.append(LaidOutLine(range: first..<glyphs.count, width: glyphs.count > first ? lineWidth : 0)) }
        lineWidth = 0
        guard let base = line.baseAddress, !line.isEmpty else { return }
        resolveLevels(line, number: number)
        splitRuns(line)
        orderRuns()
        for r in order { shape(runs[r], base, line.count) }
    }

    private var lineWidth: Float = 0

    /// `levels[i]` for every character: FriBidi's when the line has a right-to-left character, else 0.
    private func resolveLevels(_ line: UnsafeBufferPointer<UInt32>, number: Int) {
        let n = line.count
        if levels.count < n {
            levels = [FriBidiLevel](repeating: 0, count: n)
            types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: n)
            brackets = [FriBidiBracketType](repeating: 0, count: n)
        }
        let base = line.baseAddress!
        fribidi_get_bidi_types(base, FriBidiStrIndex(n), &types)
        let hasRTL = types.prefix(n).contains { $0.rawValue & UInt32(FRIBIDI_MASK_RTL) != 0 }
        guard hasRTL else {
            for i in 0..<n { levels[i] = 0 }
            return
        }
        fribidi_get_bracket_types(base, FriBidiStrIndex(n), types, &brackets)
        if number < memos.count, memos[number].types.count == n,
           (0..<n).allSatisfy({ memos[number].types[$0] == types[$0].rawValue && memos[number].brackets[$0] == brackets[$0] }) {
            for i in 0..<n { levels[i] = memos[number].levels[i] }
            return
        }
        var direction = marble_fribidi_par_on()
        if fribidi_get_par_embedding_levels_ex(types, brackets, FriBidiStrIndex(n), &direction, &levels) == 0 {
            for i in 0..<n { levels[i] = 0 }
        }
        guard number < 16 else { return }
        while memos.count <= number { memos.append(BidiMemo()) }
        memos[number].types.removeAll(keepingCapacity: true)
        memos[number].brackets.removeAll(keepingCapacity: true)
        memos[number].levels.removeAll(keepingCapacity: true)
        for i in 0..<n {
            memos[number].types.append(types[i].rawValue)
            memos[number].brackets.append(brackets[i])
            memos[number].levels.append(levels[i])
        }
    }

    private func splitRuns(_ line: UnsafeBufferPointer<UInt32>) {
        runs.removeAll(keepingCapacity: true)
        let unicode = hb_unicode_funcs_get_default()
        var current = Run(start: 0, end: 0, level: UInt8(bitPattern: levels[0]), script: HB_SCRIPT_COMMON, font: fonts.primaryIndex)
        for i in 0..<line.count {
            let scalar = line[i]
            let script = hb_unicode_script(unicode, scalar)
            let isNeutral = script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED || script == HB_SCRIPT_UNKNOWN
            let font = fonts.fontIndex(for: scalar, next: i + 1 < line.count ? line[i + 1] : 0, preferring: current.font)
            if i == 0 {
                current.font = font
            } else if UInt8(bitPattern: levels[i]) != current.level || font != current.font
                        || (!isNeutral && current.script != HB_SCRIPT_COMMON && script != current.script) {
                current.end = i
                runs.append(current)
                current = Run(start: i, end: i, level: UInt8(bitPattern: levels[i]), script: HB_SCRIPT_COMMON, font: font)
            }
            if !isNeutral && current.script == HB_SCRIPT_COMMON { current.script = script }
        }
        current.end = line.count
        runs.append(current)
    }

    /// Visual order of the runs (rule L2 on whole runs: within a run every character has one level).
    private func orderRuns() {
        order.removeAll(keepingCapacity: true)
        for i in runs.indices { order.append(i) }
        let highest = runs.reduce(0) { max($0, $1.level) }
        let lowestOdd = runs.reduce(UInt8.max) { $1.level % 2 == 1 ? min($0, $1.level) : $0 }
        guard highest > 0, lowestOdd != .max else { return }
        var level = highest
        while level >= lowestOdd {
            var i = 0
            while i < order.count {
                guard runs[order[i]].level >= level else { i += 1; continue }
                var j = i
                while j < order.count && runs[order[j]].level >= level { j += 1 }
                var a = i, b = j - 1
                while a < b { order.swapAt(a, b); a += 1; b -= 1 }   // (reversing a slice would copy it)
                i = j
            }
            level -= 1
        }
    }

    private func shape(_ run: Run, _ text: UnsafePointer<UInt32>, _ count: Int) {
        guard let face = fonts.face(at: run.font) else { return }
        hb_buffer_clear_contents(buffer)
        hb_buffer_add_utf32(buffer, text, Int32(count), UInt32(run.start), Int32(run.end - run.start))
        hb_buffer_set_direction(buffer, run.level % 2 == 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        if run.script != HB_SCRIPT_COMMON { hb_buffer_set_script(buffer, run.script) }
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(face.font, buffer, nil, 0)
        var n: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &n), let positions = hb_buffer_get_glyph_positions(buffer, &n) else { return }
        let unit = face.bitmapScale / 64   // 26.6 fixed point, at the strike's size for a bitmap face
        for k in 0..<Int(n) {
            let p = positions[k]
            glyphs.append(PlacedGlyph(font: Int32(run.font), glyph: infos[k].codepoint, cluster: infos[k].cluster,
                                      x: lineWidth + Float(p.x_offset) * unit, y: -Float(p.y_offset) * unit))
            lineWidth += Float(p.x_advance) * unit
        }
    }
}
