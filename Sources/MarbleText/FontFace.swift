internal import CFreeType
internal import CHarfBuzz

/// One opened face: FreeType's (glyph outlines, rasterising) and HarfBuzz's view of it (shaping),
/// set to one pixel size. Not thread-safe: used by one ``FontStack`` at a time.
final class FontFace {
    let file: FontFile
    let face: FT_Face
    /// hb_font_t, reading metrics and tables through `face` (hb-ft), so both agree on the size.
    let font: OpaquePointer
    private(set) var pixelSize = 0

    /// Opens the face, or nil when FreeType cannot read it or it has no scalable outlines.
    init?(library: FT_Library, file: FontFile) {
        var opened: FT_Face?
        guard FT_New_Face(library, file.path, FT_Long(file.index), &opened) == 0, let opened else { return nil }
        guard opened.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0,
              let font = hb_ft_font_create_referenced(opened) else {
            FT_Done_Face(opened)
            return nil
        }
        self.file = file
        self.face = opened
        self.font = font
        hb_ft_font_set_load_flags(font, marble_ft_load_flags())
    }

    deinit {
        hb_font_destroy(font)
        FT_Done_Face(face)
    }

    /// Sets the em size in pixels (FreeType and HarfBuzz both).
    func setPixelSize(_ pixels: Int) {
        guard pixels != pixelSize else { return }
        pixelSize = pixels
        FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixels))
        hb_ft_font_changed(font)
    }

    /// True when the face has a glyph for the character.
    func covers(_ scalar: UInt32) -> Bool { FT_Get_Char_Index(face, FT_ULong(scalar)) != 0 }

    /// Distance from the baseline up to the top of the line, in pixels at the current size.
    var ascender: Float { Float(face.pointee.size.pointee.metrics.ascender) / 64 }
    /// Distance from the baseline down to the bottom of the line (positive), in pixels.
    var descender: Float { -Float(face.pointee.size.pointee.metrics.descender) / 64 }
    /// Baseline-to-baseline distance, in pixels.
    var lineHeight: Float { Float(face.pointee.size.pointee.metrics.height) / 64 }
    /// The family name FreeType reads from the file.
    var familyName: String { face.pointee.family_name.map { String(cString: $0) } ?? "" }

    /// Rasterises glyph `glyph` (anti-aliased 8-bit coverage) and hands its bitmap to `body`: width,
    /// rows, pitch, the bitmap's left edge and top edge relative to the pen (y up). False when the
    /// glyph does not load.
    func rasterise(_ glyph: UInt32, _ body: (UnsafePointer<UInt8>?, Int, Int, Int, Int, Int) -> Void) -> Bool {
        guard FT_Load_Glyph(face, glyph, marble_ft_load_flags()) == 0,
              let slot = face.pointee.glyph,
              FT_Render_Glyph(slot, marble_ft_render_gray()) == 0 else { return false }
        let bitmap = slot.pointee.bitmap
        body(UnsafePointer(bitmap.buffer), Int(bitmap.width), Int(bitmap.rows), Int(bitmap.pitch),
             Int(slot.pointee.bitmap_left), Int(slot.pointee.bitmap_top))
        return true
    }
}
