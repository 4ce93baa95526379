internal import CFreeType
internal import CHarfBuzz

/// One opened face: FreeType's (glyph outlines, rasterising) and HarfBuzz's view of it (shaping),
/// set to one pixel size. Not thread-safe: used by one ``FontStack`` at a time.
///
/// Colour faces (emoji) are drawn in colour: their glyphs load as premultiplied BGRA, either from
/// colour layers (COLR) or from bitmap strikes (CBDT, as in Noto Color Emoji, whose only strike is
/// 109 pixels per em). A face with strikes but no outlines is set to the strike nearest the size at
/// or above it, and everything it measures is scaled by ``bitmapScale`` to the size asked for.
final class FontFace {
    let file: FontFile
    let face: FT_Face
    /// hb_font_t, reading metrics and tables through `face` (hb-ft), so both agree on the size.
    let font: OpaquePointer
    /// True when the face's glyphs are drawn in their own colours.
    let isColour: Bool
    /// True when the face has only bitmap strikes (no outlines to scale).
    let isBitmap: Bool
    private(set) var pixelSize = 0
    /// The size asked for over the strike's (1 for outline faces): multiplies advances, offsets,
    /// metrics and bitmaps of a bitmap face.
    private(set) var bitmapScale: Float = 1

    /// Opens the face, or nil when FreeType cannot read it, or it has neither scalable outlines nor
    /// colour bitmap strikes.
    init?(library: FT_Library, file: FontFile) {
        var opened: FT_Face?
        guard FT_New_Face(library, file.path, FT_Long(file.index), &opened) == 0, let opened else { return nil }
        let flags = opened.pointee.face_flags
        let scalable = flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0
        let colour = flags & FT_Long(FT_FACE_FLAG_COLOR) != 0
        let strikes = flags & FT_Long(FT_FACE_FLAG_FIXED_SIZES) != 0 && opened.pointee.num_fixed_sizes > 0
        guard scalable || (colour && strikes), let font = hb_ft_font_create_referenced(opened) else {
            FT_Done_Face(opened)
            return nil
        }
        self.file = file
        self.face = opened
        self.font = font
        isColour = colour
        isBitmap = !scalable
        hb_ft_font_set_load_flags(font, colour ? marble_ft_load_color_flags() : marble_ft_load_flags())
    }

    deinit {
        hb_font_destroy(font)
        FT_Done_Face(face)
    }

    /// Sets the em size in pixels (FreeType and HarfBuzz both); a bitmap face picks its strike.
    func setPixelSize(_ pixels: Int) {
        guard pixels != pixelSize else { return }
        pixelSize = pixels
        if isBitmap {
            let strike = strikeIndex(for: pixels)
            FT_Select_Size(face, FT_Int(strike))
            let ppem = Float(face.pointee.available_sizes[strike].y_ppem) / 64
            bitmapScale = ppem > 0 ? Float(pixels) / ppem : 1
        } else {
            FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixels))
        }
        hb_ft_font_changed(font)
    }

    /// The smallest strike at least `pixels` per em (scaling down looks better than up), else the largest.
    private func strikeIndex(for pixels: Int) -> Int {
        let sizes = UnsafeBufferPointer(start: face.pointee.available_sizes, count: Int(face.pointee.num_fixed_sizes))
        let ppem = sizes.map { Int($0.y_ppem) / 64 }
        let larger = ppem.indices.filter { ppem[$0] >= pixels }
        if let best = larger.min(by: { ppem[$0] < ppem[$1] }) { return best }
        return ppem.indices.max(by: { ppem[$0] < ppem[$1] }) ?? 0
    }

    /// True when the face has a glyph for the character.
    func covers(_ scalar: UInt32) -> Bool { FT_Get_Char_Index(face, FT_ULong(scalar)) != 0 }

    /// Distance from the baseline up to the top of the line, in pixels at the current size.
    var ascender: Float { Float(face.pointee.size.pointee.metrics.ascender) / 64 * bitmapScale }
    /// Distance from the baseline down to the bottom of the line (positive), in pixels.
    var descender: Float { -Float(face.pointee.size.pointee.metrics.descender) / 64 * bitmapScale }
    /// Baseline-to-baseline distance, in pixels.
    var lineHeight: Float { Float(face.pointee.size.pointee.metrics.height) / 64 * bitmapScale }
    /// The family name FreeType reads from the file.
    var familyName: String { face.pointee.family_name.map { String(cString: $0) } ?? "" }

    /// Rasterises glyph `glyph` and hands its bitmap to `body`: the bitmap, its width, rows and pitch,
    /// its left and top edges relative to the pen (y up), and whether it is colour (4 bytes per pixel,
    /// premultiplied B, G, R, A; at the strike's size for a bitmap face, see ``bitmapScale``) or
    /// coverage (1 byte, anti-aliased). False when the glyph does not load.
    func rasterise(_ glyph: UInt32, _ body: (UnsafePointer<UInt8>?, Int, Int, Int, Int, Int, Bool) -> Void) -> Bool {
        guard FT_Load_Glyph(face, glyph, isColour ? marble_ft_load_color_flags() : marble_ft_load_flags()) == 0,
              let slot = face.pointee.glyph,
              FT_Render_Glyph(slot, marble_ft_render_gray()) == 0 else { return false }
        let bitmap = slot.pointee.bitmap
        let colour = bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue)
        guard colour || bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) else { return false }
        body(UnsafePointer(bitmap.buffer), Int(bitmap.width), Int(bitmap.rows), Int(bitmap.pitch),
             Int(slot.pointee.bitmap_left), Int(slot.pointee.bitmap_top), colour)
        return true
    }
}
