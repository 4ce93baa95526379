/// Colour glyphs (emoji) brought to the text's size. FreeType hands them over as premultiplied BGRA,
/// from a bitmap strike at the font's own size (109 pixels per em for Noto Color Emoji), which is
/// resampled here by area: each output pixel is the mean of the source pixels under it, weighted by
/// how much of each it covers (sharp when shrinking, no ringing, exact at scale 1).
enum ColourGlyph {
    /// Appends the `width` × `rows` BGRA bitmap (rows `pitch` bytes apart), scaled by `scale`, to
    /// `colours` as packed premultiplied RGBA (R in the low byte, the textures' order) and its alpha to
    /// `coverage` (so that outlines and shadows grow from the emoji's shape). Returns the scaled size.
    static func append(bgra: UnsafePointer<UInt8>, width: Int, rows: Int, pitch: Int, scale: Float,
                       colours: inout [UInt32], coverage: inout [UInt8]) -> (width: Int, height: Int) {
        let outW = max(1, Int((Float(width) * scale).rounded())), outH = max(1, Int((Float(rows) * scale).rounded()))
        // Source pixels per output pixel along each axis (the exact ratio of the rounded sizes).
        let stepX = Float(width) / Float(outW), stepY = Float(rows) / Float(outH)
        let area = stepX * stepY
        for oy in 0..<outH {
            let y0 = Float(oy) * stepY, y1 = y0 + stepY
            for ox in 0..<outW {
                let x0 = Float(ox) * stepX, x1 = x0 + stepX
                var sum = SIMD4<Float>()   // B, G, R, A
                for sy in Int(y0)..<min(rows, Int(y1.rounded(.up))) {
                    let wy = min(y1, Float(sy + 1)) - max(y0, Float(sy))
                    let row = pitch >= 0 ? bgra + sy * pitch : bgra + (rows - 1 - sy) * -pitch
                    for sx in Int(x0)..<min(width, Int(x1.rounded(.up))) {
                        let wx = min(x1, Float(sx + 1)) - max(x0, Float(sx))
                        let p = row + 4 * sx
                        sum += SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3])) * (wx * wy)
                    }
                }
                let v = (sum / area).rounded(.toNearestOrEven)
                let b = UInt32(min(255, v[0])), g = UInt32(min(255, v[1])), r = UInt32(min(255, v[2])), a = UInt32(min(255, v[3]))
                colours.append(r | g << 8 | b << 16 | a << 24)
                coverage.append(UInt8(a))
            }
        }
        return (outW, outH)
    }
}
