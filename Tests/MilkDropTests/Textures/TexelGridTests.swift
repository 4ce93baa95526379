import MarbleCore
@testable import MilkDrop
import Testing

@Suite("Texture reads: bilinear and nearest, wrapped and clamped, 2-D and 3-D, Direct3D's texel centres")
struct TexelGridTests {
    // A 4 × 2 texture: row 0 red ramps 0, 40, 80, 255; row 1 green 10, 20, 30, 40; distinct alphas.
    let row0: [UInt32] = [packed(0, 0, 0, 255), packed(40, 0, 0, 200), packed(80, 0, 0, 100), packed(255, 0, 0, 0)]
    let row1: [UInt32] = [packed(0, 10, 5), packed(0, 20, 5), packed(0, 30, 5), packed(0, 40, 5)]
    var grid: OwnedTexture { texture(4, 2, row0 + row1) }

    @Test("at a texel's centre every mode reads that texel exactly")
    func centres() {
        let t = grid
        for mode in [Modes.fw, Modes.fc, Modes.pw, Modes.pc] {
            for x in 0..<4 {
                for y in 0..<2 {
                    let u = (Float(x) + 0.5) / 4, v = (Float(y) + 0.5) / 2
                    #expect(close(read(t, mode, u, v), unit((y == 0 ? row0 : row1)[x])))
                }
            }
        }
    }

    @Test("bilinear between centres: a quarter of the way, halfway, and across both axes")
    func bilinear() {
        let t = grid
        // u = (0.25 + 0.5) / 4: a quarter of the way from texel 0 to texel 1 → red 0.75·0 + 0.25·40 = 10.
        #expect(close(read(t, Modes.fc, 0.1875, 0.25), SIMD4(10, 0, 0, 0.75 * 255 + 0.25 * 200) / 255))
        // u = 0.25: halfway between texels 0 and 1.
        #expect(close(read(t, Modes.fc, 0.25, 0.25), SIMD4(20, 0, 0, 227.5) / 255))
        // (0.5, 0.5): the four texels 1, 2 of both rows, a quarter each.
        let mean = (unit(row0[1]) + unit(row0[2]) + unit(row1[1]) + unit(row1[2])) / 4
        #expect(close(read(t, Modes.fw, 0.5, 0.5), mean))
    }

    @Test("a filtered value is not rounded to a byte (a shader scaling noise sees no steps)")
    func precision() {
        let t = texture(2, 1, [packed(0, 0, 0, 0), packed(1, 0, 0, 0)])
        // A quarter of the way from 0 to 1: 0.25 / 255, which no byte holds.
        let r = read(t, Modes.fc, (0.25 + 0.5) / 2, 0.5)[0]
        #expect(abs(r - 0.25 / 255) < 1e-9)
    }

    @Test("at the edges: wrap blends the last texel with the first, clamp holds the edge texel")
    func edges() {
        let t = grid
        let v: Float = 0.25   // row 0's centre
        // u = 0 is half a texel left of texel 0's centre.
        #expect(close(read(t, Modes.fw, 0, v), (unit(row0[3]) + unit(row0[0])) / 2))
        #expect(close(read(t, Modes.fc, 0, v), unit(row0[0])))
        #expect(close(read(t, Modes.fw, 1, v), (unit(row0[3]) + unit(row0[0])) / 2))
        #expect(close(read(t, Modes.fc, 1, v), unit(row0[3])))
        // Far outside: wrap repeats (−0.75 ≡ 0.25, 1.125 ≡ 0.125), clamp holds.
        #expect(close(read(t, Modes.fw, -0.75, v), (unit(row0[0]) + unit(row0[1])) / 2))
        #expect(close(read(t, Modes.fw, 1.125, v), unit(row0[0])))
        #expect(close(read(t, Modes.fc, -7, v), unit(row0[0])))
        #expect(close(read(t, Modes.fc, 9, v), unit(row0[3])))
        // Nearest: the texel the coordinate falls in, then wrapped or clamped.
        #expect(close(read(t, Modes.pw, -0.1, v), unit(row0[3])))   // 0.9 → texel 3
        #expect(close(read(t, Modes.pc, -0.1, v), unit(row0[0])))
        #expect(close(read(t, Modes.pw, 1.3, v), unit(row0[1])))    // 0.3 → texel 1
        #expect(close(read(t, Modes.pc, 1.3, v), unit(row0[3])))
        #expect(close(read(t, Modes.pc, 0.2499, v), unit(row0[0])))
        #expect(close(read(t, Modes.pc, 0.2501, v), unit(row0[1])))
        // Vertically the same: v = 0 wraps to the mix of rows 1 and 0, clamps to row 0.
        let u: Float = 0.125
        #expect(close(read(t, Modes.fw, u, 0), (unit(row0[0]) + unit(row1[0])) / 2))
        #expect(close(read(t, Modes.fc, u, 0), unit(row0[0])))
        #expect(close(read(t, Modes.pw, u, -0.2), unit(row1[0])))
    }

    @Test("NaN and infinite coordinates read some texel of the texture, in every mode")
    func nonFinite() {
        let t = grid
        for mode in [Modes.fw, Modes.fc, Modes.pw, Modes.pc] {
            for c in [Float.nan, .infinity, -.infinity, 1e30, -1e30] {
                let p = read(t, mode, c, c)
                #expect(p.min() >= 0 && p.max() <= 1)
            }
        }
    }

    @Test("a volume: trilinear across slices, nearest picks a texel, a 2-D read takes the first slice")
    func volume() {
        // 2 × 2 × 2: slice 0 red 0, 100, 20, 60; slice 1 all red 200.
        let slice0 = [packed(0, 0, 0), packed(100, 0, 0), packed(20, 0, 0), packed(60, 0, 0)]
        let slice1 = [UInt32](repeating: packed(200, 0, 0), count: 4)
        let t = texture(2, 2, depth: 2, slice0 + slice1)
        #expect(t.depth == 2)
        // Centre of the cube: all eight, an eighth each → red (0 + 100 + 20 + 60 + 4·200) / 8 = 122.5.
        #expect(abs(read(t, Modes.fc, 0.5, 0.5, 0.5)[0] - 122.5 / 255) < 1e-6)
        // On slice 0's centre (w = 0.25, clamped): the 2-D bilinear of slice 0 → 45.
        #expect(abs(read(t, Modes.fc, 0.5, 0.5, 0.25)[0] - 45 / 255) < 1e-6)
        // Wrapped, w = 0 is halfway between slice 1 and slice 0.
        #expect(abs(read(t, Modes.fw, 0.25, 0.25, 0)[0] - 100 / 255) < 1e-6)
        // A quarter of the way from slice 0 to slice 1 at texel (1, 0): 0.75·100 + 0.25·200 = 125.
        #expect(abs(read(t, Modes.fc, 0.75, 0.25, 0.375)[0] - 125 / 255) < 1e-6)
        // Nearest in 3-D.
        #expect(abs(read(t, Modes.pc, 0.9, 0.1, 0.1)[0] - 100 / 255) < 1e-6)
        #expect(abs(read(t, Modes.pc, 0.9, 0.1, 0.9)[0] - 200 / 255) < 1e-6)
        #expect(abs(read(t, Modes.pw, 0.9, 0.1, -0.1)[0] - 200 / 255) < 1e-6)
        // tex2D on a volume: slice 0.
        #expect(abs(read(t, Modes.fc, 0.75, 0.75)[0] - 60 / 255) < 1e-6)
        // tex3D on a 2-D texture: w is ignored.
        #expect(close(read(grid, Modes.fc, 0.125, 0.25, 0.9), unit(row0[0])))
    }

    @Test("a batch equals its lanes read one at a time; unwanted channels are not written")
    func batch() {
        let t = grid
        var u: [Float] = [], v: [Float] = []
        var g = SplitMix64(seed: 7)
        for _ in 0..<333 { u.append(g.unit() * 3 - 1); v.append(g.unit() * 3 - 1) }
        for mode in [Modes.fw, Modes.fc, Modes.pw, Modes.pc] {
            var r = [Float](repeating: 0, count: 333), a = r
            t.sample(mode: mode, count: 333, u: u, v: v, w: nil, r: &r, g: nil, b: nil, a: &a)
            for i in 0..<333 {
                let one = read(t, mode, u[i], v[i])
                #expect(r[i] == one[0] && a[i] == one[3])
            }
        }
        // Nil pointers for green and blue: nothing else is touched (checked by not crashing) and
        // count 0 writes nothing.
        var r: [Float] = [-1]
        t.sample(mode: Modes.fw, count: 0, u: u, v: v, w: nil, r: &r, g: nil, b: nil, a: nil)
        #expect(r == [-1])
    }
}
