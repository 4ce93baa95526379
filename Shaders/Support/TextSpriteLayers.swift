/// The layers of a text sprite, premultiplied: the fill over the outline over the shadow (the shadow
/// offset down and right by `offset` pixels), each coloured from its coverage mask; colour glyphs
/// (emoji) keep their own colours in place of the fill. Shared by the `text` and `lyrics` layers,
/// which make the masks the same way (MarbleText's `TextMask`, then `MaskFilter`'s dilation and blur).
enum TextSpriteLayers {
    /// Colours `sprite` (`width`×`height`, rows packed) from the three masks and, where `colours` (the
    /// mask's colour plane) has ink, from it. An `outline` or `shadow` colour of 0 draws none.
    /// Allocates nothing.
    static func compose(into sprite: UnsafeMutablePointer<UInt32>, width w: Int, height h: Int,
                        fill: UInt32, fillMask: UnsafePointer<UInt8>, colours: UnsafePointer<UInt32>?,
                        outline: UInt32, outlineMask: UnsafePointer<UInt8>,
                        shadow: UInt32, shadowMask: UnsafePointer<UInt8>, offset: Int) {
        let hasShadow = shadow >> 24 != 0
        for y in 0..<h {
            let row = sprite + y * w, fillRow = fillMask + y * w, outlineRow = outlineMask + y * w
            let colourRow = colours.map { $0 + y * w }
            let sy = y - offset
            for x in 0..<w {
                var p: UInt32 = 0
                let sx = x - offset
                if hasShadow, sy >= 0, sx >= 0 { p = Blend.scale255(shadow, UInt32(shadowMask[sy * w + sx])) }
                if outline != 0 { p = NormalBlend.blend(Blend.scale255(outline, UInt32(outlineRow[x])), onto: p) }
                var coverage = UInt32(fillRow[x])
                if let colourRow, case let c = colourRow[x], c != 0 {
                    // The emoji's own colour; what coverage is left beyond its alpha is other text.
                    coverage -= min(coverage, c >> 24)
                    p = NormalBlend.blend(c, onto: p)
                }
                row[x] = NormalBlend.blend(Blend.scale255(fill, coverage), onto: p)
            }
        }
    }
}
