import MarbleCore
@testable import MilkDrop
import Testing

@Suite("The noise textures, generated as MilkDrop generates them, repeatably")
struct NoiseTexturesTests {
    let set = NoiseTextures(seed: 1)

    /// One byte channel (0 red … 3 alpha) of every texel of slice 0.
    func channel(_ t: OwnedTexture, _ c: UInt32, z: Int = 0) -> [Int] {
        var out: [Int] = []
        for y in 0..<t.height { for x in 0..<t.width { out.append(Int((t.texel(x, y, z) >> (8 * c)) & 0xFF)) } }
        return out
    }

    func meanStep(_ t: OwnedTexture) -> Double {
        let red = channel(t, 0)
        var sum = 0
        for y in 0..<t.height { for x in 0..<(t.width - 1) { sum += abs(red[y * t.width + x + 1] - red[y * t.width + x]) } }
        return Double(sum) / Double(t.height * (t.width - 1))
    }

    @Test("names and sizes: 256², 32², 256², 256², 32³, 32³")
    func sizes() {
        let expected: [(String, Int, Int)] = [("noise_lq", 256, 1), ("noise_lq_lite", 32, 1), ("noise_mq", 256, 1),
                                              ("noise_hq", 256, 1), ("noisevol_lq", 32, 32), ("noisevol_hq", 32, 32)]
        for (name, size, depth) in expected {
            let t = set.texture(named: name)
            #expect(t?.width == size && t?.height == size && t?.depth == depth, "\(name)")
        }
        #expect(set.texture(named: "noise_xq") == nil && set.texture(named: "main") == nil)
        #expect(NoiseTextures.names.count == 6)
        #expect(set.standIn.width == 256 && set.standIn.depth == 1)
    }

    @Test("the same seed gives the same texels, another seed others; the shared set is made once")
    func repeatable() {
        let again = NoiseTextures(seed: 1), other = NoiseTextures(seed: 2)
        for name in NoiseTextures.names {
            let a = set.texture(named: name)!, b = again.texture(named: name)!, c = other.texture(named: name)!
            var same = true, differs = false
            for z in 0..<a.depth { for y in 0..<a.height { for x in 0..<a.width {
                same = same && a.texel(x, y, z) == b.texel(x, y, z)
                differs = differs || a.texel(x, y, z) != c.texel(x, y, z)
            } } }
            #expect(same && differs, "\(name)")
        }
        #expect(NoiseTextures.shared === NoiseTextures.shared)
        #expect(NoiseTextures.shared.lq.texel(0, 0) == NoiseTextures(seed: 0x4D69_6C6B_4E6F_6973).lq.texel(0, 0))
    }

    @Test("the shared set is one set, however many threads ask for it first")
    func sharedOnce() async {
        let ids = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<8 { group.addTask { ObjectIdentifier(NoiseTextures.shared) } }
            var all = Set<ObjectIdentifier>()
            for await id in group { all.insert(id) }
            return all
        }
        #expect(ids.count == 1)
    }

    @Test("pure noise: every byte value occurs, the mean is about 127.5, neighbours are unrelated")
    func pureNoise() {
        for c: UInt32 in 0..<4 {
            let values = channel(set.lq, c)
            var seen = Set<Int>()
            for v in values { seen.insert(v) }
            #expect(seen.count == 256)
            let mean = Double(values.reduce(0, +)) / Double(values.count)
            // Uniform bytes, plus the ninth bit of the channel below spilling into the lowest bit
            // (red, green, alpha: +0.25 on average).
            #expect(abs(mean - 127.5) < 1.5, "channel \(c): \(mean)")
        }
        // Adjacent uniform bytes differ by 85 on average.
        #expect(abs(meanStep(set.lq) - 85) < 3)
    }

    @Test("smoothed noise: key texels wrap past 255 as MilkDrop's do (none in 68…107), the rest is the cubic")
    func smoothed() {
        for (t, zoom) in [(set.mq, 4), (set.hq, 8)] {
            for y in stride(from: 0, to: 256, by: zoom) {
                for x in stride(from: 0, to: 256, by: zoom) {
                    let p = t.texel(x, y)
                    for c: UInt32 in 0..<4 {
                        let byte = (p >> (8 * c)) & 0xFF
                        #expect(!(68...107).contains(byte), "zoom \(zoom) key (\(x), \(y))")
                    }
                }
            }
            // On a key row, along x from the key texels around; off the key rows, along y from the filled rows.
            let k = zoom
            #expect(t.texel(1, 0) == NoiseTextures.cubic(t.texel(256 - k, 0), t.texel(0, 0), t.texel(k, 0), t.texel(2 * k, 0), 1 / Float(k)))
            #expect(t.texel(3, k) == NoiseTextures.cubic(t.texel(256 - k, k), t.texel(0, k), t.texel(k, k), t.texel(2 * k, k), 3 / Float(k)))
            #expect(t.texel(5, 2) == NoiseTextures.cubic(t.texel(5, 256 - k), t.texel(5, 0), t.texel(5, k), t.texel(5, 2 * k), 2 / Float(k)))
        }
        // Smoother as the features grow: the mean step shrinks.
        let lq = meanStep(set.lq), mq = meanStep(set.mq), hq = meanStep(set.hq)
        #expect(hq < mq && mq < lq / 2)
    }

    @Test("the volume: cubic along z between the key slices; pure noise everywhere in noisevol_lq")
    func volumes() {
        let t = set.volumeHQ
        #expect(t.texel(0, 0, 1) == NoiseTextures.cubic(t.texel(0, 0, 28), t.texel(0, 0, 0), t.texel(0, 0, 4), t.texel(0, 0, 8), 0.25))
        #expect(t.texel(2, 6, 7) == NoiseTextures.cubic(t.texel(2, 6, 0), t.texel(2, 6, 4), t.texel(2, 6, 8), t.texel(2, 6, 12), 0.75))
        // On a key slice, along y from key rows.
        #expect(t.texel(3, 1, 4) == NoiseTextures.cubic(t.texel(3, 28, 4), t.texel(3, 0, 4), t.texel(3, 4, 4), t.texel(3, 8, 4), 0.25))
        var seen = Set<UInt32>()
        for z in 0..<32 { seen.insert(set.volumeLQ.texel(0, 0, z) & 0xFF) }
        #expect(seen.count > 20)
    }

    @Test("MilkDrop's cubic by hand: through y1 at 0, y2 at 1, clamped, truncated to bytes")
    func cubic() {
        // Channels: red 0,0,255,255; green 0,255,0,0; blue all 77; alpha 255,0,0,255.
        let y0 = packed(0, 0, 77, 255), y1 = packed(0, 255, 77, 0), y2 = packed(255, 0, 77, 0), y3 = packed(255, 0, 77, 255)
        #expect(NoiseTextures.cubic(y0, y1, y2, y3, 0) == y1)
        let half = NoiseTextures.cubic(y0, y1, y2, y3, 0.5)
        // red: a0 = 0, a1 = 0, a2 = 1 → 0.5 → 127; green: a0 = 1, a1 = −2, a2 = 0, a3 = 1 → 0.625 → 159;
        // blue: 77; alpha: a0 = 1, a1 = 0, a2 = −1, a3 = 0 → 0.125 − 0.5 < 0 → 0.
        #expect(half == packed(127, 159, 77, 0))
        // A8R8G8B8 to RGBA8.
        #expect(NoiseTextures.rgba(fromARGB: 0x4433_2211) == packed(0x33, 0x22, 0x11, 0x44))
    }

    @Test("the ninth bit of a channel spills into the next one's lowest bit, as in MilkDrop's words")
    func spill() {
        var g = SplitMix64(seed: 3)
        let words = NoiseTextures.randomWords(size: 64, depth: 1, zoom: 1, &g)
        // Blue's sum reached 256…383 in about half the texels; green's lowest bit is then 1. Green on
        // its own is odd half the time, so with the spill about three quarters are odd.
        let odd = words.filter { ($0 >> 8) & 1 == 1 }.count
        #expect(abs(Double(odd) / Double(words.count) - 0.75) < 0.03)
    }
}
