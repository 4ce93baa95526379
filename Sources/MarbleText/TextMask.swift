/// Horizontal alignment of lines within a text block.
package enum TextAlignment: Sendable { case left, center, right }

/// A laid-out text drawn as 8-bit coverage, with a transparent margin around the ink (room for an
/// outline and a shadow), and, when it has colour glyphs (emoji), their colours in a second plane.
/// The buffers only grow; redrawing a text of a size seen before allocates nothing once its glyphs
/// are cached.
///
/// Geometry: the block is the text's layout box (as wide as its widest line, from the first line's
/// ascender to the last line's descender); `blockX`, `blockY` are the block's top-left corner in mask
/// pixels, so the mask is placed at (anchor − block origin) in a frame.
package final class TextMask {
    package private(set) var width = 0
    package private(set) var height = 0
    package private(set) var blockX = 0
    package private(set) var blockY = 0
    package private(set) var blockWidth: Float = 0
    package private(set) var blockHeight: Float = 0
    /// Coverage, `width × height`, rows packed: of every glyph, colour glyphs included.
    package private(set) var pixels: UnsafeMutablePointer<UInt8> = .allocate(capacity: 1)
    /// Colour glyphs' premultiplied RGBA (R in the low byte), `width × height`, 0 elsewhere; nil
    /// when the text has none.
    package var colours: UnsafePointer<UInt32>? { hasColour ? UnsafePointer(colourPixels) : nil }
    private var colourPixels: UnsafeMutablePointer<UInt32> = .allocate(capacity: 1)
    private var hasColour = false
    private var capacity = 1
    private let cache = GlyphCache()

    package init() { pixels.initialize(to: 0); colourPixels.initialize(to: 0) }
    deinit { pixels.deallocate(); colourPixels.deallocate() }

    /// True when no pixel has ink.
    package private(set) var isEmpty = true

    /// Draws `layout`'s glyphs (pens rounded to whole pixels: crisp, hinted text), lines aligned by
    /// `alignment` inside the block, with `margin` transparent pixels around the ink.
    package func draw(_ layout: TextLayout, alignment: TextAlignment, margin: Int, lineSpacing: Float = 1) {
        let (ascender, descender, lineHeight) = layout.metrics
        let step = (lineHeight * lineSpacing).rounded()
        let lines = layout.lines
        blockWidth = lines.reduce(0) { max($0, $1.width) }
        blockHeight = lines.isEmpty ? 0 : ascender + descender + step * Float(lines.count - 1)
        // Pass 1: the ink's extent in block coordinates (y down from the block's top).
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        hasColour = false
        forEachGlyph(layout, alignment, ascender, step) { e, x, y in
            minX = min(minX, x + e.left); maxX = max(maxX, x + e.left + e.width)
            minY = min(minY, y - e.top); maxY = max(maxY, y - e.top + e.height)
            if e.colour >= 0 { hasColour = true }
        }
        isEmpty = minX >= maxX || minY >= maxY
        guard !isEmpty else { width = 0; height = 0; blockX = 0; blockY = 0; hasColour = false; return }
        width = maxX - minX + 2 * margin
        height = maxY - minY + 2 * margin
        blockX = margin - minX
        blockY = margin - minY
        if width * height > capacity {
            pixels.deallocate(); colourPixels.deallocate()
            capacity = width * height * 3 / 2   // headroom: a clock's ink box wobbles by a few pixels
            pixels = .allocate(capacity: capacity); colourPixels = .allocate(capacity: capacity)
        }
        pixels.update(repeating: 0, count: width * height)
        if hasColour { colourPixels.update(repeating: 0, count: width * height) }
        // Pass 2: glyph bitmaps added in (saturating: joined and overlapping glyphs stay solid); colour
        // glyphs' colours laid over each other.
        let pixels = self.pixels, colourPixels = self.colourPixels, stride = width, ox = blockX, oy = blockY
        cache.pool.withUnsafeBufferPointer { pool in
            cache.colourPool.withUnsafeBufferPointer { colourPool in
                forEachGlyph(layout, alignment, ascender, step) { e, x, y in
                    let left = ox + x + e.left, top = oy + y - e.top
                    for row in 0..<e.height {
                        let src = pool.baseAddress! + e.offset + row * e.width
                        let dst = pixels + (top + row) * stride + left
                        for col in 0..<e.width {
                            let sum = UInt16(dst[col]) + UInt16(src[col])
                            dst[col] = UInt8(min(255, sum))
                        }
                        guard e.colour >= 0 else { continue }
                        let from = colourPool.baseAddress! + e.colour + row * e.width
                        let to = colourPixels + (top + row) * stride + left
                        for col in 0..<e.width { to[col] = Self.over(from[col], to[col]) }
                    }
                }
            }
        }
    }

    /// Premultiplied `top` over `bottom`, per byte.
    private static func over(_ top: UInt32, _ bottom: UInt32) -> UInt32 {
        let keep = 255 - (top >> 24)
        guard keep < 255 else { return bottom }
        var out: UInt32 = 0
        for shift in stride(from: UInt32(0), through: 24, by: 8) {
            let t = (top >> shift) & 0xFF, b = (bottom >> shift) & 0xFF
            out |= min(255, t + (b * keep + 127) / 255) << shift
        }
        return out
    }

    /// Every glyph with its cache entry and its pen position in block pixels.
    private func forEachGlyph(_ layout: TextLayout, _ alignment: TextAlignment, _ ascender: Float, _ step: Float,
                              _ body: (GlyphCache.Entry, Int, Int) -> Void) {
        let lines = layout.lines, glyphs = layout.glyphs
        for (n, line) in lines.enumerated() {
            let shift: Float = switch alignment {
            case .left: 0
            case .center: ((blockWidth - line.width) / 2).rounded(.down)
            case .right: blockWidth - line.width
            }
            let baseline = ascender.rounded() + step * Float(n)
            for g in glyphs[line.range] {
                let e = cache.entry(font: g.font, glyph: g.glyph, pixelSize: layout.pixelSize, fonts: layout.fonts)
                guard e.width > 0 else { continue }
                body(e, Int((g.x + shift).rounded()), Int((baseline + g.y).rounded()))
            }
        }
    }
}
