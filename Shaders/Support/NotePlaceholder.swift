import MarbleCore

/// The picture the `cover` layer shows when the song has none: a diagonal violet-to-teal gradient with
/// an eighth note, drawn from distances (antialiased at any size).
enum NotePlaceholder {
    /// Paints the placeholder into `side`×`side` packed pixels (rows `side` apart).
    static func paint(into pixels: UnsafeMutablePointer<UInt32>, side: Int) {
        let scale = 2 / Float(side)
        for i in 0..<side {
            for j in 0..<side {
                pixels[i * side + j] = pixel((Float(j) + 0.5) * scale - 1, (Float(i) + 0.5) * scale - 1,
                                             pixelsPerUnit: Float(side) / 2)
            }
        }
    }

    /// The placeholder at (`u`, `v`) in −1…1 across the face; `pixelsPerUnit` turns distances into
    /// pixels for the edges.
    static func pixel(_ u: Float, _ v: Float, pixelsPerUnit: Float) -> UInt32 {
        let t = clamp01(0.5 + 0.35 * (u + v))
        let background = packOpaque(mix(0.23, 0.05, t), mix(0.12, 0.45, t), mix(0.42, 0.50, t))
        // The note: a tilted oval head, a stem and a flag (a thick segment), in shape units.
        let hx = u + 0.12, hy = v - 0.30
        let rx = 0.8 * hx + 0.35 * hy, ry = -0.35 * hx + 0.8 * hy
        let head = ((rx * rx) / 0.04 + (ry * ry) / 0.018).squareRoot() - 1
        let headDistance = head * 0.14
        let stem = max(abs(u - 0.09) - 0.025, abs(v + 0.08) - 0.38)
        let fx = u - 0.09, fy = v + 0.46
        let along = clamp01((fx * 0.2 + fy * 0.22) / (0.2 * 0.2 + 0.22 * 0.22))
        let flag = ((fx - 0.2 * along) * (fx - 0.2 * along) + (fy - 0.22 * along) * (fy - 0.22 * along)).squareRoot() - 0.045
        let glyph = min(headDistance, min(stem, flag)) * pixelsPerUnit
        return lerpPixel(background, 0xFFF0_F0F0, weight256(clamp01(0.5 - glyph) * 0.85))
    }
}
