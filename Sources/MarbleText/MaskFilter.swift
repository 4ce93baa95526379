/// Operations on 8-bit coverage masks (`width × height`, rows packed), for text outlines and shadows.
/// They write into buffers the caller owns and allocate nothing.
package enum MaskFilter {
    /// `destination` = `source` dilated by a disk of `radius` pixels, antialiased: each offset (dx, dy)
    /// contributes the source's coverage weighted by how much a pixel that far away is covered by the
    /// grown pixel (clamp(radius + 1 − |d|, 0, 1): full up to the radius, none a pixel beyond), and the
    /// result is the maximum over offsets. An outline of
    /// `radius` pixels around glyph edges, with soft corners. `destination` must not be `source`.
    package static func dilate(_ source: UnsafePointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>,
                              width: Int, height: Int, radius: Float) {
        let count = width * height
        destination.update(from: source, count: count)
        let reach = Int((radius + 1).rounded(.up))
        guard radius > 0, reach > 0 else { return }
        for dy in -reach...reach {
            for dx in -reach...reach where dx != 0 || dy != 0 {
                let distance = Float(dx * dx + dy * dy).squareRoot()
                let weight = UInt16(max(0, min(1, radius + 1 - distance)) * 256)
                guard weight > 0 else { continue }
                // destination[y][x] = max(destination[y][x], source[y + dy][x + dx] · weight)
                let y0 = max(0, -dy), y1 = min(height, height - dy)
                let x0 = max(0, -dx), x1 = min(width, width - dx)
                guard y0 < y1, x0 < x1 else { continue }
                for y in y0..<y1 {
                    let src = source + (y + dy) * width + dx, dst = destination + y * width
                    for x in x0..<x1 {
                        let v = UInt8(truncatingIfNeeded: (UInt16(src[x]) &* weight) >> 8)
                        dst[x] = max(dst[x], v)
                    }
                }
            }
        }
    }

    /// Blurs `mask` in place: a box of `radius` pixels run twice horizontally and twice vertically
    /// (close to a Gaussian of σ ≈ 0.8·radius). `scratch` holds at least `width × height` bytes and
    /// `sums` at least `width` counters (the vertical passes run along rows, all columns at once).
    package static func blur(_ mask: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<UInt8>,
                            sums: UnsafeMutablePointer<UInt32>, width: Int, height: Int, radius: Int) {
        guard radius > 0, width > 0, height > 0 else { return }
        let scale = (UInt32(1) << 16) / UInt32(2 * radius + 1) + 1
        for _ in 0..<2 {
            horizontalPass(from: mask, to: scratch, width: width, height: height, radius: radius, scale: scale)
            horizontalPass(from: scratch, to: mask, width: width, height: height, radius: radius, scale: scale)
        }
        for _ in 0..<2 {
            verticalPass(from: mask, to: scratch, sums: sums, width: width, height: height, radius: radius, scale: scale)
            verticalPass(from: scratch, to: mask, sums: sums, width: width, height: height, radius: radius, scale: scale)
        }
    }

    /// Each output is the mean of the 2·radius + 1 inputs around it on its row, zero beyond the ends.
    private static func horizontalPass(from source: UnsafeMutablePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>,
                                       width: Int, height: Int, radius: Int, scale: UInt32) {
        for y in 0..<height {
            let src = source + y * width, dst = target + y * width
            var sum: UInt32 = 0
            for i in 0..<min(radius, width) { sum &+= UInt32(src[i]) }
            for i in 0..<width {
                if i + radius < width { sum &+= UInt32(src[i + radius]) }
                if i - radius - 1 >= 0 { sum &-= UInt32(src[i - radius - 1]) }
                dst[i] = UInt8(min(255, (sum &* scale) >> 16))
            }
        }
    }

    /// The same down the columns, a row at a time: `sums` holds every column's running sum.
    private static func verticalPass(from source: UnsafeMutablePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>,
                                     sums: UnsafeMutablePointer<UInt32>, width: Int, height: Int, radius: Int, scale: UInt32) {
        sums.update(repeating: 0, count: width)
        for y in 0..<min(radius, height) {
            let src = source + y * width
            for x in 0..<width { sums[x] &+= UInt32(src[x]) }
        }
        for y in 0..<height {
            if y + radius < height {
                let src = source + (y + radius) * width
                for x in 0..<width { sums[x] &+= UInt32(src[x]) }
            }
            if y - radius - 1 >= 0 {
                let src = source + (y - radius - 1) * width
                for x in 0..<width { sums[x] &-= UInt32(src[x]) }
            }
            let dst = target + y * width
            for x in 0..<width { dst[x] = UInt8(truncatingIfNeeded: min(255, (sums[x] &* scale) >> 16)) }
        }
    }
}
