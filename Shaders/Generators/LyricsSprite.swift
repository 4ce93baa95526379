import MarbleCore
import MarbleText

/// One line of the `lyrics` layer as a sprite: laid out, rasterised and coloured (fill over outline
/// over blurred shadow) once when the line changes, in the fill colour and, for a word-timed line, a
/// second time in the highlight colour; each frame `light(_:at:)` marks which columns show the
/// highlight (the karaoke progress). Buffers only grow: a line no larger than one seen before
/// allocates nothing (glyphs new to the cache aside). Not thread-safe: built in `prepare`, read in `render`.
final class LyricsSprite {
    /// What a sprite depends on besides its text and colours (pixels, after scaling to the frame).
    struct Look: Equatable {
        var pixelSize = 0, outline: Float = 0, blur = 0, offset = 0, maxWidth = 0, maxHeight = 0
    }

    private let mask = TextMask()
    private(set) var width = 0, height = 0
    /// The text block's size and its top-left corner in sprite pixels (see ``TextMask``).
    private(set) var blockWidth: Float = 0, blockHeight: Float = 0, blockX = 0, blockY = 0
    /// The line in the fill colour, and in the highlight colour when it has words.
    private(set) var base: UnsafeMutablePointer<UInt32> = .allocate(capacity: 1)
    private(set) var lit: UnsafeMutablePointer<UInt32> = .allocate(capacity: 1)
    /// Per column: 1 where the highlight shows this frame.
    private(set) var columns: UnsafeMutablePointer<UInt8> = .allocate(capacity: 1)
    /// True when the line is word-timed (``lit`` and ``columns`` are in use).
    private(set) var karaoke = false
    private var outlineMask: UnsafeMutablePointer<UInt8> = .allocate(capacity: 1)
    private var shadowMask: UnsafeMutablePointer<UInt8> = .allocate(capacity: 1)
    private var scratch: UnsafeMutablePointer<UInt8> = .allocate(capacity: 1)
    private var sums: UnsafeMutablePointer<UInt32> = .allocate(capacity: 1)
    private var capacity = 1, columnCapacity = 1
    /// Each word's columns in the sprite (left, right) and whether it reads right to left.
    private var cells: [(left: Int, right: Int, rightToLeft: Bool)] = []

    init() { cells.reserveCapacity(64) }

    deinit {
        base.deallocate(); lit.deallocate(); columns.deallocate()
        outlineMask.deallocate(); shadowMask.deallocate(); scratch.deallocate(); sums.deallocate()
    }

    /// Nothing to draw.
    func clear() { width = 0; height = 0; karaoke = false; blockWidth = 0; blockHeight = 0 }

    /// Lays out `text` (shrunk to `look.maxWidth` and `look.maxHeight`) and colours it; `words` (of a one-row line) get
    /// their cells and the highlight copy.
    func build(_ text: UnsafeBufferPointer<UInt32>, words: [Lyrics.Word], layout: TextLayout, look: Look,
               alignment: TextAlignment, colors: (fill: UInt32, highlight: UInt32, outline: UInt32, shadow: UInt32)) {
        layout.layout(text, pixelSize: look.pixelSize)
        // Shrunk to fit `maxWidth` and the frame's height (which bounds the sprite's memory too).
        let widest = layout.lines.reduce(0) { max($0, $1.width) }, tallest = layout.metrics.lineHeight * Float(layout.lines.count)
        let fit = min(widest > 0 ? Float(look.maxWidth) / widest : 1, tallest > 0 ? Float(look.maxHeight) / tallest : 1)
        if fit < 1 {
            let fitted = max(4, Int(Float(look.pixelSize) * fit))
            if fitted < look.pixelSize { layout.layout(text, pixelSize: fitted) }
        }
        let outline = min(look.outline, Float(layout.pixelSize) * 0.25)
        mask.draw(layout, alignment: alignment, margin: Int(outline.rounded(.up)) + 1 + 2 * look.blur + look.offset)
        width = mask.width; height = mask.height
        blockWidth = mask.blockWidth; blockHeight = mask.blockHeight; blockX = mask.blockX; blockY = mask.blockY
        karaoke = !words.isEmpty && layout.lines.count == 1 && width > 0
        guard width > 0 else { return }
        reserve(width * height, width)
        if karaoke { placeWords(words, layout) }
        let count = width * height
        MaskFilter.dilate(mask.pixels, into: outlineMask, width: width, height: height, radius: outline)
        shadowMask.update(from: outlineMask, count: count)
        MaskFilter.blur(shadowMask, scratch: scratch, sums: sums, width: width, height: height, radius: look.blur)
        colour(into: base, fill: colors.fill, outline > 0.05 ? colors.outline : 0, colors.shadow, look.offset)
        if karaoke { colour(into: lit, fill: colors.highlight, outline > 0.05 ? colors.outline : 0, colors.shadow, look.offset) }
    }

    private func reserve(_ count: Int, _ columnsWanted: Int) {
        if count > capacity {
            base.deallocate(); lit.deallocate(); outlineMask.deallocate(); shadowMask.deallocate(); scratch.deallocate()
            capacity = count * 3 / 2
            base = .allocate(capacity: capacity); lit = .allocate(capacity: capacity)
            outlineMask = .allocate(capacity: capacity); shadowMask = .allocate(capacity: capacity); scratch = .allocate(capacity: capacity)
        }
        if columnsWanted > columnCapacity {
            sums.deallocate(); columns.deallocate()
            columnCapacity = columnsWanted * 3 / 2
            sums = .allocate(capacity: columnCapacity); columns = .allocate(capacity: columnCapacity)
        }
    }

    /// Each word's columns: the union of its glyphs' cells, a glyph's cell running from its pen to the
    /// next glyph's in visual order (the layout places glyphs left to right, whatever the script).
    private func placeWords(_ words: [Lyrics.Word], _ layout: TextLayout) {
        cells.removeAll(keepingCapacity: true)
        let glyphs = layout.glyphs, line = layout.lines[0]
        for word in words {
            var left = Float.infinity, right = -Float.infinity
            var firstX = Float.infinity, firstCluster = UInt32.max, lastX = Float.infinity, lastCluster = UInt32.min
            for i in line.range where word.scalars.contains(Int(glyphs[i].cluster)) {
                let x0 = glyphs[i].x, x1 = i + 1 < line.range.upperBound ? glyphs[i + 1].x : line.width
                left = min(left, x0); right = max(right, x1)
                if glyphs[i].cluster < firstCluster { firstCluster = glyphs[i].cluster; firstX = x0 }
                if glyphs[i].cluster >= lastCluster { lastCluster = glyphs[i].cluster; lastX = x0 }
            }
            guard left < right else { cells.append((0, 0, false)); continue }
            cells.append((max(0, min(width, blockX + Int(left.rounded()))), max(0, min(width, blockX + Int(right.rounded()))),
                          lastX < firstX))
        }
    }

    /// Marks the highlighted columns for media time `seconds`: words sung fully, the word being sung
    /// filled in its reading direction by the part of its time gone.
    func light(_ words: [Lyrics.Word], at seconds: Double) {
        guard karaoke else { return }
        columns.update(repeating: 0, count: width)
        for k in 0..<min(words.count, cells.count) where seconds >= Lyrics.seconds(words[k].start) {
            let word = words[k], cell = cells[k]
            let span = Lyrics.seconds(word.end) - Lyrics.seconds(word.start)
            let part = span > 0 ? min(1, (seconds - Lyrics.seconds(word.start)) / span) : 1
            let filled = Int((Double(cell.right - cell.left) * part).rounded())
            let from = cell.rightToLeft ? cell.right - filled : cell.left
            if filled > 0 { (columns + from).update(repeating: 1, count: filled) }
        }
        // Everything sung: the whole line lit, overhangs too. (Indexed: `words.last` allocates in debug builds.)
        if !words.isEmpty, seconds >= Lyrics.seconds(words[words.count - 1].end) { columns.update(repeating: 1, count: width) }
    }

    /// Fill over outline over the shadow into `sprite` (see `TextSpriteLayers`).
    private func colour(into sprite: UnsafeMutablePointer<UInt32>, fill: UInt32, _ outline: UInt32, _ shadow: UInt32, _ offset: Int) {
        TextSpriteLayers.compose(into: sprite, width: width, height: height, fill: fill, fillMask: mask.pixels, colours: mask.colours,
                                 outline: outline, outlineMask: outlineMask, shadow: shadow, shadowMask: shadowMask, offset: offset)
    }
}
