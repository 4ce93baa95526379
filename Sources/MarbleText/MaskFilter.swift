/// Operations on 8-bit coverage masks (`width × height`, rows packed), for text outlines and shadows.
/// They write into buffers the caller owns and allocate nothing.
public enum MaskFilter {
    /// `destination` = `source` dilated by a disk of `radius` pixels, antialiased: each offset (dx, dy)
    /// contributes the source's coverage weighted by how much of its pixel lies inside the disk
    /// (clamp(radius + 0.5 − |d|, 0, 1)), and the result is the maximum over offsets. An outline of
    /// `radius` pixels around glyph edges, with soft corners. `destination` must not be `source`.
    public static func dilate(_ source: UnsafePointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>,
                              width: Int, height: Int, radius: Float) {
        let count = width * height
        destination.update(from: source, count: count)
        let reach = Int((radius + 0.5).rounded(.up))
        guard radius > 0, reach > 0 else { return }
        for dy in -reach...reach {
            for dx in -reach...reach where dx != 0 || dy != 0 {
                let distance = Float(dx * dx + dy * dy).squareRoot()
                let weight = UInt16(max(0, min(1, radius + 0.5 - distance)) * 256)
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
    /// (a close approximation of a Gaussian of σ ≈ 0.8·radius). `scratch` holds at least
    /// `width × height` bytes.
    public static func blur(_ mask: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<UInt8>,
                            width: Int, height: Int, radius: Int) {
        guard radius > 0, width > 0, height > 0 else { return }
        for _ in 0..<2 {
            boxPass(from: mask, to: scratch, count: height, length: width, step: 1, lineStep: width, radius: radius)
            boxPass(from: scratch, to: mask, count: height, length: width, step: 1, lineStep: width, radius: radius)
        }
        for _ in 0..<2 {
            boxPass(from: mask, to: scratch, count: width, length: height, step: width, lineStep: 1, radius: radius)
            boxPass(from: scratch, to: mask, count: width, length: height, step: width, lineStep: 1, radius: radius)
        }
    }

    /// One box pass over `count` lines of `length` samples (`step` apart; lines `lineStep` apart):
    /// each output is the mean of the 2·radius + 1 inputs around it, zero beyond the ends.
    private static func boxPass(from source: UnsafeMutablePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>,
                                count: Int, length: Int, step: Int, lineStep: Int, radius: Int) {
        let span = UInt32(2 * radius + 1)
        let scale = (UInt32(1) << 16) / span + 1
        for line in 0..<count {
            let src = source + line * lineStep, dst = target + line * lineStep
            var sum: UInt32 = 0
            for i in 0..<min(radius, length) { sum &+= UInt32(src[i * step]) }
            for i in 0..<length {
                let enter = i + radius, leave = i - radius - 1
                if enter < length { sum &+= UInt32(src[enter * step]) }
                if leave >= 0 { sum &-= UInt32(src[leave * step]) }
                dst[i * step] = UInt8(min(255, (sum &* scale) >> 16))
            }
        }
    }
}
