import MarbleCore
@testable import MilkDrop
import Testing

@Suite("The blur pyramid: MilkDrop's sizes, taps, geometry and 8-bit range encoding")
struct BlurPyramidTests {
    /// Runs strips of 3 rows from the bottom up, alternating worker 0 and 1, on this thread.
    final class BackwardsStrips: StripRunner, @unchecked Sendable {
        var threads: Int { 2 }
        func run(count: Int, _ task: any StripTask) {
            var end = count, worker = 0
            while end > 0 {
                task.run(strip: max(0, end - 3)..<end, worker: worker)
                end -= 3; worker = 1 - worker
            }
        }
    }

    func flat(_ width: Int, _ height: Int, _ color: RGBA8) -> Texture {
        let t = Texture(width: width, height: height)
        t.fill(color)
        return t
    }

    func texel(_ t: BorrowedTexture, _ x: Int, _ y: Int) -> SIMD4<Int> {
        let p = read(t, Modes.pc, (Float(x) + 0.5) / Float(t.width), (Float(y) + 0.5) / Float(t.height)) * 255
        return SIMD4(Int(p[0].rounded()), Int(p[1].rounded()), Int(p[2].rounded()), Int(p[3].rounded()))
    }

    /// The red-weighted mean position along row `y` (or column `x`) of a level.
    func centroid(_ t: BorrowedTexture, row y: Int? = nil, column x: Int? = nil) -> (mean: Double, mass: Int) {
        var sum = 0, moment = 0
        let n = y != nil ? t.width : t.height
        for i in 0..<n {
            let r = y != nil ? texel(t, i, y!)[0] : texel(t, x!, i)[0]
            sum += r; moment += r * i
        }
        return (Double(moment) / Double(max(sum, 1)), sum)
    }

    @Test("sizes: halved, halved again, then halved per level, at least 16, widths by 16 and heights by 4")
    func sizes() {
        let s = BlurPyramid.sizes(width: 1280, height: 720)
        let expected = [(640, 360), (320, 180), (160, 92), (160, 92), (80, 48), (80, 48)]
        #expect(s.map { $0.width } == expected.map { $0.0 } && s.map { $0.height } == expected.map { $0.1 })
        let small = BlurPyramid.sizes(width: 20, height: 10)
        #expect(small.allSatisfy { $0.width == 16 && $0.height == 16 })
        // 1920 × 1080: 960 × 540, 480 × 270 → (273 / 4) × 4 = 272, 240 × 135 → 240 × 136, 120 × 67 → 112 × 68.
        let hd = BlurPyramid.sizes(width: 1920, height: 1080)
        #expect(hd[1].width == 480 && hd[1].height == 272 && hd[3].width == 240 && hd[3].height == 136)
        #expect(hd[5].width == 112 && hd[5].height == 68)
    }

    @Test("a tap table: a read between centres splits its weight between the two texels by 8-bit fraction")
    func taps() {
        // One output reading a 4-texel axis at u = 0.4375 (texel 1.25) with weight 0.5, and at u = 0.0 clamped.
        let t = BlurTaps(outputs: 1, size: 4, centre: { _ in 0.4375 }, offsets: [0, -0.5], weights: [0.5, 0.25])
        let e = t.entries(0)
        #expect(e.count == 4)
        #expect(e[0].index == 1 && e[0].weight == 0.375 && e[1].index == 2 && e[1].weight == 0.125)
        // u = −0.0625 clamps to 0: texel 0 alone.
        #expect(e[2].index == 0 && e[3].index == 0 && e[2].weight + e[3].weight == 0.25)
    }

    @Test("a flat picture stays flat at every level (the weights sum to 1)")
    func flatStaysFlat() {
        let source = flat(128, 96, RGBA8(r: 100, g: 150, b: 200))
        let pyramid = BlurPyramid()
        pyramid.update(source: source.view, levels: 3, range: .standard, edgeDarken: 0, strips: nil)
        for level in pyramid.levels {
            for y in 0..<level.height { for x in 0..<level.width {
                #expect(texel(level, x, y) == SIMD4(100, 150, 200, 255))
            } }
        }
        #expect(pyramid.levels[0].width == 32 && pyramid.levels[0].height == 24)
    }

    @Test("blur1_edge_darken: the border × (1 − d), rising with the square root of the distance")
    func edgeDarken() {
        let source = flat(128, 96, RGBA8(r: 100, g: 150, b: 200))
        let pyramid = BlurPyramid()
        pyramid.update(source: source.view, levels: 1, range: .standard, edgeDarken: 0.25, strips: nil)
        let blur1 = pyramid.levels[0]   // 32 × 24; quad coordinate (i / 32, 1 − j / 24)
        #expect(texel(blur1, 0, 5) == SIMD4(75, 113, 150, 255))           // u = 0: × 0.75
        #expect(texel(blur1, 7, 0) == SIMD4(75, 113, 150, 255))           // v = 1: × 0.75
        // u = 1/32: 0.75 + 0.25 × 5 × √(1/32) = 0.97097.
        #expect(texel(blur1, 1, 5) == SIMD4(97, 146, 194, 255))
        #expect(texel(blur1, 31, 23) == SIMD4(97, 146, 194, 255))         // 1 − u = 1/32 is the nearest edge
        #expect(texel(blur1, 16, 23) == SIMD4(100, 150, 200, 255))        // v = 1/24: √ × 5 > 1, untouched
        #expect(texel(blur1, 16, 12) == SIMD4(100, 150, 200, 255))
    }

    @Test("the range encoding round-trips: 0.6 through levels 1 and 2, and values outside clamp")
    func encoding() {
        let range = BlurRange(min: [0.5, 0.55, 0.55], max: [1, 0.75, 0.75])
        let pyramid = BlurPyramid()
        let source = flat(64, 64, RGBA8(r: 153, g: 51, b: 255))
        pyramid.update(source: source.view, levels: 3, range: range, edgeDarken: 0, strips: nil)
        // Level 1 stores (x − 0.5) / 0.5: 0.6 → 0.2 (51); 0.2 → 0 (clamped); 1 → 1.
        #expect(texel(pyramid.levels[0], 5, 5) == SIMD4(51, 0, 255, 255))
        // Level 2 stores level 1's 0.2 as (0.2 − 0.1) / 0.4 = 0.25 → 63.75 → 64; level 3 the same.
        #expect(texel(pyramid.levels[1], 5, 5) == SIMD4(64, 0, 255, 255))
        #expect(texel(pyramid.levels[2], 5, 5) == SIMD4(64, 0, 255, 255))
        // Decoded as GetBlur2 does: 64 / 255 × 0.2 + 0.55 ≈ 0.6; the clamped channel reads back the minimum.
        let (scale, bias) = pyramid.decode(level: 1)
        #expect(abs(Float(64) / 255 * scale + bias - 0.6) < 0.2 / 255)
        #expect(pyramid.decode(level: 0) == (0.5, 0.5))
    }

    @Test("an impulse spreads as the taps say; level 1 lines up with the buffer, level 2 sits half a texel up-left")
    func impulse() {
        // A vertical white line at column 36 and a horizontal one at row 36 of a 128 × 128 black buffer.
        let source = flat(128, 128, RGBA8(r: 0, g: 0, b: 0))
        for y in 0..<128 { source.view.row32(y)[36] = packed(255, 255, 255) }
        source.view.row32(36).update(repeating: packed(255, 255, 255), count: 128)
        let pyramid = BlurPyramid()
        pyramid.update(source: source.view, levels: 2, range: .standard, edgeDarken: 0, strips: nil)
        let blur1 = pyramid.levels[0], blur2 = pyramid.levels[1]   // 32², 16²
        // Down (column 16, away from the vertical line). The horizontal pass's row j reads buffer rows
        // 128.5 − 2j ± 0.5: row 46 holds rows 36 and 37, 255 / 2 → 128; every other row is black. The
        // vertical pass's row j reads the 64-row target around 63.5 − 2j at ±0.901 (weight 14.2) and
        // ±2.488 (4.1), over 36.6: row 8 takes 0.402 of row 46 on one tap → 128 × 14.2 × 0.402 / 36.6 = 20,
        // row 9 0.598 → 30, row 10 0.988 on a far tap → 128 × 4.1 × 0.988 / 36.6 = 14.
        let down = (0..<32).map { texel(blur1, 16, $0)[0] }
        #expect(down == [Int](repeating: 0, count: 8) + [20, 30, 14] + [Int](repeating: 0, count: 21))
        // Across (row 16). The horizontal pass's column i reads around buffer column 2i + 0.5 at
        // ±0.974, ±2.906, ±4.774, ±6.6 (weights 7.8, 6.4, 3.1, 1.0 over 36.6): columns 14…21 take
        // 0.1, 0.27, 0.41, 0.47, 0.52, 0.59, 0.73, 0.9 of column 36 on one tap each → 1, 6, 18, 26, 28, 26,
        // 16, 6; the vertical pass averages pairs of columns: (1 + 6) / 2 → 4, 22, 27, 11.
        let across = (0..<32).map { texel(blur1, $0, 16)[0] }
        #expect(across == [Int](repeating: 0, count: 7) + [4, 22, 27, 11] + [Int](repeating: 0, count: 21))
        // Level 2 from level 1: lined up, its centroid would be at (c + 0.5) / 2 − 0.5; MilkDrop's second
        // vertical pass reads half a texel right and down of its pixel, so it sits at c / 2 − 0.75.
        let c1 = centroid(blur1, row: 16).mean, c2 = centroid(blur2, row: 8).mean
        let r1 = centroid(blur1, column: 16).mean, r2 = centroid(blur2, column: 8).mean
        #expect(abs(c2 - (c1 / 2 - 0.75)) < 0.06 && abs(r2 - (r1 / 2 - 0.75)) < 0.06)
    }

    @Test("only the levels asked for are drawn; strips in any order on two workers give the same bytes")
    func levelsAndStrips() {
        let source = Texture(width: 96, height: 80)
        var g = SplitMix64(seed: 11)
        for y in 0..<80 { for x in 0..<96 { source.view.row32(y)[x] = UInt32(truncatingIfNeeded: g.next()) | 0xFF00_0000 } }
        let serial = BlurPyramid(), parallel = BlurPyramid()
        serial.update(source: source.view, levels: 1, range: .standard, edgeDarken: 0.25, strips: nil)
        #expect(texel(serial.levels[0], 3, 3)[3] == 255)
        #expect(texel(serial.levels[1], 3, 3)[3] == 0)   // level 2 never drawn: still the blank target
        serial.update(source: source.view, levels: 3, range: .standard, edgeDarken: 0.25, strips: nil)
        parallel.update(source: source.view, levels: 3, range: .standard, edgeDarken: 0.25, strips: BackwardsStrips())
        for (a, b) in zip(serial.levels, parallel.levels) {
            for y in 0..<a.height { for x in 0..<a.width { #expect(texel(a, x, y) == texel(b, x, y)) } }
        }
    }

    @Test("a new buffer size keeps the same level objects at new sizes; a 1 × 1 buffer works")
    func resize() {
        let pyramid = BlurPyramid()
        let first = pyramid.levels.map { ObjectIdentifier($0) }
        #expect(pyramid.levels[0].width == 16)
        let wide = flat(256, 128, RGBA8(r: 9, g: 9, b: 9)), tiny = flat(1, 1, RGBA8(r: 9, g: 9, b: 9))
        pyramid.update(source: wide.view, levels: 3, range: .standard, edgeDarken: 0, strips: nil)
        #expect(pyramid.levels[0].width == 64 && pyramid.levels[0].height == 32)
        pyramid.update(source: tiny.view, levels: 3, range: .standard, edgeDarken: 0, strips: nil)
        #expect(pyramid.levels.map { ObjectIdentifier($0) } == first)
        #expect(pyramid.levels[2].width == 16 && texel(pyramid.levels[2], 8, 8) == SIMD4(9, 9, 9, 255))
    }
}
