import Foundation
import MarbleCore

/// Plain scalar building blocks for the reference renderers: Double math, Foundation's libm, arrays.
/// Written for clarity, not speed; the kernels are tested against them.
enum Reference {
    static func clamp01(_ x: Double) -> Double { x.isNaN ? 0 : min(1, max(0, x)) }
    static func byte(_ x: Double) -> UInt8 { UInt8((clamp01(x) * 255).rounded()) }

    /// A premultiplied pixel from premultiplied channels in 0…1.
    static func pixel(_ r: Double, _ g: Double, _ b: Double, _ a: Double) -> [UInt8] {
        [byte(r), byte(g), byte(b), byte(a)]
    }

    /// Premultiplied channels of a straight colour.
    static func premultiplied(_ c: Color) -> [Double] {
        let a = clamp01(Double(c.alpha))
        return [clamp01(Double(c.red)) * a, clamp01(Double(c.green)) * a, clamp01(Double(c.blue)) * a, a]
    }

    /// Band levels onto `count` slots: loudest covered band, or linear interpolation when stretching.
    static func resample(_ bands: [Float], count: Int) -> [Double] {
        let n = bands.count
        if n == 0 { return [Double](repeating: 0, count: count) }
        return (0..<count).map { i in
            if n >= count {
                let start = i * n / count, end = max(start + 1, (i + 1) * n / count)
                return bands[start..<end].map { clamp01(Double($0)) }.max()!
            }
            let p = min(Double(n - 1), max(0, (Double(i) + 0.5) * Double(n) / Double(count) - 0.5))
            let j = Int(p), k = min(j + 1, n - 1)
            return clamp01(Double(bands[j]) + (Double(bands[k]) - Double(bands[j])) * (p - Double(j)))
        }
    }

    /// An image as rows of pixels of four bytes.
    static func bytes(width: Int, height: Int, _ pixel: (Int, Int) -> [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(width * height * 4)
        for y in 0..<height { for x in 0..<width { out += pixel(x, y) } }
        return out
    }
}

extension Texture {
    /// Pixel (x, y) as four bytes.
    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
        let p = view.row(y) + x * 4
        return [p[0], p[1], p[2], p[3]]
    }
}
