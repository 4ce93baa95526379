import MarbleCore

/// The noise textures MilkDrop 2 makes at start-up for pixel shaders (`sampler_noise_lq` …
/// `sampler_noisevol_hq`), generated as it generates them, from ``SplitMix64`` instead of the C
/// library's `rand` so that every render is repeatable:
///
/// | name | size | features every |
/// |---|---|---|
/// | `noise_lq` | 256 × 256 | texel (pure noise) |
/// | `noise_lq_lite` | 32 × 32 | texel |
/// | `noise_mq` | 256 × 256 | 4 texels, cubic between |
/// | `noise_hq` | 256 × 256 | 8 texels, cubic between |
/// | `noisevol_lq` | 32 × 32 × 32 | texel |
/// | `noisevol_hq` | 32 × 32 × 32 | 4 texels, cubic between |
///
/// Each texel gets four random channels, written (as MilkDrop does) into an A8R8G8B8 word as
/// `n % range + range / 2` per channel with range 256 for pure noise and 216 for smoothed noise. Those
/// sums reach 383 and 323, so they wrap past 255 and their ninth bit lands in the next channel's
/// lowest bit; the wrapped bytes are what every MilkDrop shows (smoothed noise has no key texel
/// between 68 and 107), so they are kept. Each row's texels are then shuffled by `size` random swaps.
/// Smoothed noise keeps the random texels on a grid of `zoom` and fills the rest with MilkDrop's
/// cubic (`y1` at t = 0, `y2` at t = 1, wrapping around the texture), clamped and truncated to a byte:
/// first along x on the grid's rows, then along y on every column (a volume: along y on the grid's
/// slices, then along z everywhere).
package final class NoiseTextures: Sendable {
    package let lq: OwnedTexture
    package let lqLite: OwnedTexture
    package let mq: OwnedTexture
    package let hq: OwnedTexture
    package let volumeLQ: OwnedTexture
    package let volumeHQ: OwnedTexture
    /// What a shader reads in place of a disk texture that cannot be found or loaded (MilkDrop binds
    /// nothing, which reads black and kills the look): grey clouds, `noise_hq`'s red channel in red,
    /// green and blue, opaque, 256 × 256.
    package let standIn: OwnedTexture

    /// The set every preset reads, made from a fixed seed the first time it is asked for (Swift makes a
    /// static constant once, thread-safely) and never changed after.
    package static let shared = NoiseTextures(seed: 0x4D69_6C6B_4E6F_6973)

    /// A set generated from `seed`, in MilkDrop's order, from one random sequence.
    package init(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        lq = NoiseTextures.make(size: 256, volume: false, zoom: 1, &random)
        lqLite = NoiseTextures.make(size: 32, volume: false, zoom: 1, &random)
        mq = NoiseTextures.make(size: 256, volume: false, zoom: 4, &random)
        hq = NoiseTextures.make(size: 256, volume: false, zoom: 8, &random)
        volumeLQ = NoiseTextures.make(size: 32, volume: true, zoom: 1, &random)
        volumeHQ = NoiseTextures.make(size: 32, volume: true, zoom: 4, &random)
        let clouds = hq
        standIn = OwnedTexture(width: 256, height: 256) { out in
            for y in 0..<256 {
                for x in 0..<256 {
                    let grey = clouds.texel(x, y) & 0xFF
                    out[y * 256 + x] = grey | grey << 8 | grey << 16 | 0xFF00_0000
                }
            }
        }
    }

    /// The texture a shader names (`noise_lq` … `noisevol_hq`), or nil.
    package func texture(named name: String) -> OwnedTexture? {
        switch name {
        case "noise_lq": lq
        case "noise_lq_lite": lqLite
        case "noise_mq": mq
        case "noise_hq": hq
        case "noisevol_lq": volumeLQ
        case "noisevol_hq": volumeHQ
        default: nil
        }
    }

    /// The names ``texture(named:)`` knows.
    package static let names: Set<String> = ["noise_lq", "noise_lq_lite", "noise_mq", "noise_hq", "noisevol_lq", "noisevol_hq"]

    private static func make(size: Int, volume: Bool, zoom: Int, _ random: inout SplitMix64) -> OwnedTexture {
        let depth = volume ? size : 1
        var words = randomWords(size: size, depth: depth, zoom: zoom, &random)
        if zoom > 1 { smooth(&words, size: size, depth: depth, zoom: zoom) }
        return OwnedTexture(width: size, height: size, depth: depth) { out in
            for i in 0..<words.count { out[i] = rgba(fromARGB: words[i]) }
        }
    }

    /// The random A8R8G8B8 words, row by row, each row shuffled.
    static func randomWords(size: Int, depth: Int, zoom: Int, _ random: inout SplitMix64) -> [UInt32] {
        let range: UInt64 = zoom > 1 ? 216 : 256
        var words = [UInt32](repeating: 0, count: size * size * depth)
        func channel() -> UInt32 { UInt32(random.next() % range + range / 2) }
        for row in 0..<(size * depth) {
            let start = row * size
            for x in 0..<size {
                let a = channel(), r = channel(), g = channel(), b = channel()
                words[start + x] = a << 24 | r << 16 | g << 8 | b   // the ninth bits spill over, as in MilkDrop
            }
            for _ in 0..<size {
                let x1 = Int(random.next() % UInt64(size)), x2 = Int(random.next() % UInt64(size))
                words.swapAt(start + x1, start + x2)
            }
        }
        return words
    }

    /// Fills the texels between the grid of `zoom` with MilkDrop's cubic, axis by axis.
    static func smooth(_ words: inout [UInt32], size: Int, depth: Int, zoom: Int) {
        let slice = size * size
        // Along x on the grid's rows (of the grid's slices).
        for z in stride(from: 0, to: depth, by: zoom) {
            for y in stride(from: 0, to: size, by: zoom) {
                fillAxis(&words, start: z * slice + y * size, step: 1, size: size, zoom: zoom)
            }
        }
        if depth > 1 {
            // Along y on the grid's slices, then along z everywhere.
            for z in stride(from: 0, to: depth, by: zoom) {
                for x in 0..<size { fillAxis(&words, start: z * slice + x, step: size, size: size, zoom: zoom) }
            }
            for y in 0..<size {
                for x in 0..<size { fillAxis(&words, start: y * size + x, step: slice, size: size, zoom: zoom) }
            }
        } else {
            for x in 0..<size { fillAxis(&words, start: x, step: size, size: size, zoom: zoom) }
        }
    }

    /// The off-grid texels of one line (`size` texels `step` apart from `start`), from the grid texels
    /// before and after them, the line wrapping around.
    private static func fillAxis(_ words: inout [UInt32], start: Int, step: Int, size: Int, zoom: Int) {
        for i in 0..<size where i % zoom != 0 {
            let key = i / zoom * zoom
            func at(_ k: Int) -> UInt32 { words[start + ((k + size) % size) * step] }
            let t = Float(i % zoom) / Float(zoom)
            words[start + i * step] = cubic(at(key - zoom), at(key), at(key + zoom), at(key + 2 * zoom), t)
        }
    }

    /// MilkDrop's cubic through `y1` (t = 0) and `y2` (t = 1) on each byte of four words, clamped to
    /// 0…1 and truncated to a byte.
    static func cubic(_ y0: UInt32, _ y1: UInt32, _ y2: UInt32, _ y3: UInt32, _ t: Float) -> UInt32 {
        var result: UInt32 = 0
        for shift: UInt32 in [0, 8, 16, 24] {
            func unit(_ w: UInt32) -> Float { Float((w >> shift) & 0xFF) / 255 }
            let p0 = unit(y0), p1 = unit(y1), p2 = unit(y2), p3 = unit(y3)
            let a0 = p3 - p2 - p0 + p1
            let a1 = p0 - p1 - a0
            let a2 = p2 - p0
            let t2 = t * t
            let value = a0 * t * t2 + a1 * t2 + a2 * t + p1
            let clamped = min(max(value, 0), 1)
            result |= UInt32(clamped * 255) << shift
        }
        return result
    }

    /// A8R8G8B8 (alpha in the top byte, blue in the low one) to the textures' packed RGBA8.
    static func rgba(fromARGB w: UInt32) -> UInt32 {
        (w >> 16) & 0xFF | (w & 0xFF00) | (w & 0xFF) << 16 | (w & 0xFF00_0000)
    }
}
