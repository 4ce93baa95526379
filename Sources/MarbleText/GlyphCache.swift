/// Rasterised glyphs of one ``FontStack`` at one pixel size: 8-bit coverage bitmaps in one pool (and,
/// for colour glyphs, their premultiplied RGBA in another), found by font and glyph index. A glyph is
/// rasterised the first time it is drawn; changing the size empties the cache (keeping its memory).
/// Not thread-safe.
final class GlyphCache {
    /// Where a glyph's bitmap is in the pool, its size, its left and top edges relative to the pen
    /// (top in pixels above the baseline), and where its colours are in the colour pool (-1: a
    /// coverage glyph, drawn in the text's colour).
    struct Entry { var offset: Int, width: Int, height: Int, left: Int, top: Int, colour = -1 }

    private(set) var pool: [UInt8] = []
    private(set) var colourPool: [UInt32] = []
    private var entries: [UInt64: Entry] = [:]
    private var size = 0

    init() {
        pool.reserveCapacity(1 << 16)
        entries.reserveCapacity(256)
    }

    /// The glyph's bitmap entry at `pixelSize`, rasterising it with `fonts` on a miss (an empty entry
    /// when the glyph does not load).
    func entry(font: Int32, glyph: UInt32, pixelSize: Int, fonts: FontStack) -> Entry {
        if pixelSize != size {
            size = pixelSize
            pool.removeAll(keepingCapacity: true)
            colourPool.removeAll(keepingCapacity: true)
            entries.removeAll(keepingCapacity: true)
        }
        let key = UInt64(UInt32(bitPattern: font)) << 32 | UInt64(glyph)
        if let e = entries[key] { return e }
        var entry = Entry(offset: pool.count, width: 0, height: 0, left: 0, top: 0)
        let face = fonts.face(at: Int(font))
        _ = face?.rasterise(glyph) { bits, width, rows, pitch, left, top, colour in
            guard let bits, width > 0, rows > 0 else { return }
            if colour {
                let scale = face?.bitmapScale ?? 1
                entry = Entry(offset: pool.count, width: 0, height: 0, left: Int((Float(left) * scale).rounded()),
                              top: Int((Float(top) * scale).rounded()), colour: colourPool.count)
                (entry.width, entry.height) = ColourGlyph.append(bgra: bits, width: width, rows: rows, pitch: pitch, scale: scale,
                                                                 colours: &colourPool, coverage: &pool)
                return
            }
            entry = Entry(offset: pool.count, width: width, height: rows, left: left, top: top)
            for y in 0..<rows {
                let row = pitch >= 0 ? bits + y * pitch : bits + (rows - 1 - y) * -pitch
                pool.append(contentsOf: UnsafeBufferPointer(start: row, count: width))
            }
        }
        entries[key] = entry
        return entry
    }
}
