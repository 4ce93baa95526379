import MarbleCore

/// Area-averaging (box filter) resampling of pictures, for kernels that shrink a picture once and then
/// sample it every frame (the cover): every source pixel counts by the part of it a destination pixel
/// covers, so no detail aliases however large the shrink. Premultiplied channels average correctly.
enum AreaDownscale {
    /// The centred square crop of `source` (side min(width, height)) averaged into `side`×`side` packed
    /// pixels at `destination` (rows `side` apart). `side` must not exceed the crop's side. Allocates
    /// nothing; costs one read per source pixel of the crop (plus the edges shared by two destination pixels).
    static func squareCrop(of source: TextureView, into destination: UnsafeMutablePointer<UInt32>, side: Int) {
        let crop = min(source.width, source.height)
        guard side > 0, crop >= side else { return }
        let ox = (source.width - crop) / 2, oy = (source.height - crop) / 2
        let k = Double(crop) / Double(side)
        let norm = Float(1 / (k * k))
        for i in 0..<side {
            let y0 = Double(i) * k, y1 = Double(i + 1) * k
            let rowFirst = Int(y0), rowEnd = min(crop, Int(y1.rounded(.up)))
            for j in 0..<side {
                let x0 = Double(j) * k, x1 = Double(j + 1) * k
                let colFirst = Int(x0), colEnd = min(crop, Int(x1.rounded(.up)))
                var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                for sy in rowFirst..<rowEnd {
                    let wy = Float(min(y1, Double(sy + 1)) - max(y0, Double(sy)))
                    let row = source.row32(oy + sy) + ox
                    var rr: Float = 0, rg: Float = 0, rb: Float = 0, ra: Float = 0
                    for sx in colFirst..<colEnd {
                        let wx = Float(min(x1, Double(sx + 1)) - max(x0, Double(sx)))
                        let p = row[sx]
                        rr += wx * channel(p, 0); rg += wx * channel(p, 8)
                        rb += wx * channel(p, 16); ra += wx * channel(p, 24)
                    }
                    r += wy * rr; g += wy * rg; b += wy * rb; a += wy * ra
                }
                destination[i * side + j] = packPremultiplied(r * norm / 255, g * norm / 255, b * norm / 255, a * norm / 255)
            }
        }
    }
}
