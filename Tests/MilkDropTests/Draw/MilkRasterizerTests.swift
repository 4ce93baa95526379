import MarbleCore
@testable import MilkDrop
import Testing

@Suite("MilkRasterizer")
struct MilkRasterizerTests {
    @Test("a one-pixel line between pixel centres lights its row and leaves the rows around it dark")
    func horizontalLine() {
        let canvas = Canvas()
        var list = MilkDrawList(width: 64, height: 36)
        list.begin(.lineStrip, blend: .alpha)
        list.append(SIMD2(2.5, 10.5), MilkColor(1, 1, 1, 1))
        list.append(SIMD2(60.5, 10.5), MilkColor(1, 1, 1, 1))
        list.end()
        canvas.draw(list)
        #expect(canvas.pixel(30, 10) == SIMD3(255, 255, 255))
        #expect(canvas.pixel(30, 9).x == 0 && canvas.pixel(30, 11).x == 0)
        #expect(canvas.pixel(1, 10).x == 0 && canvas.pixel(62, 10).x == 0)
        #expect(canvas.litRows() == [10])
    }

    @Test("sizes scale with the list's pixelScale: a line a quarter pixel wide is one pixel at a quarter strength")
    func scaledLines() {
        func draw(scale: Float, size: Float, kind: MilkPrimitive = .lineStrip) -> Canvas {
            let canvas = Canvas()
            var list = MilkDrawList(width: 64, height: 36)
            list.reset(width: 64, height: 36, pixelScale: scale)
            list.begin(kind, blend: .additive, size: size)
            list.append(SIMD2(2.5, 10.5), MilkColor(1, 1, 1, 1))
            list.append(SIMD2(60.5, 10.5), MilkColor(1, 1, 1, 1))
            list.end()
            canvas.draw(list)
            return canvas
        }
        #expect(draw(scale: 1, size: 1).pixel(30, 10).x == 255)
        let quarter = draw(scale: 0.25, size: 1)
        #expect(quarter.pixel(30, 10).x == 64 && quarter.litRows(threshold: 0) == [10])   // 255 · 64/256
        let half = draw(scale: 0.25, size: 2)   // a thick line at a quarter scale: half a pixel
        #expect(half.pixel(30, 10).x == 128)
        let wide = draw(scale: 3, size: 1)      // three pixels wide
        #expect(wide.litRows(threshold: 250) == [9, 10, 11])
        // A dot of side 2 at scale 0.25 is half a pixel square: a quarter of the pixel's area.
        let dot = draw(scale: 0.25, size: 2, kind: .dots)
        #expect(dot.pixel(2, 10).x == 64)
    }

    @Test("a line halfway between two rows covers both at half strength (antialiased, no jaggies)")
    func antialiasedLine() {
        let canvas = Canvas()
        var list = MilkDrawList(width: 64, height: 36)
        list.begin(.lineStrip, blend: .additive)
        list.append(SIMD2(2, 10), MilkColor(1, 0, 0, 1))
        list.append(SIMD2(60, 10), MilkColor(1, 0, 0, 1))
        list.end()
        canvas.draw(list)
        #expect(abs(canvas.pixel(30, 9).x - 128) <= 1 && abs(canvas.pixel(30, 10).x - 128) <= 1)
    }

    @Test("alpha blending mixes with the buffer; additive blending adds to it and saturates")
    func blendModes() {
        for (blend, expected) in [(MilkBlend.alpha, SIMD3(150, 50, 50)), (.additive, SIMD3(200, 100, 100))] {
            let canvas = Canvas(fill: RGBA8(r: 100, g: 100, b: 100))
            var list = MilkDrawList(width: 64, height: 36)
            list.addFrame(outer: (SIMD2(10, 10), SIMD2(20, 20)), inner: (.zero, .zero),
                          color: MilkColor(0.7843, 0, 0, 0.5), blend: blend)
            canvas.draw(list)
            let p = canvas.pixel(15, 15)
            #expect(abs(p.x - expected.x) <= 1 && p.y == expected.y && p.z == expected.z, "\(blend): \(p)")
            #expect(canvas.pixel(9, 15) == SIMD3(100, 100, 100))
        }
        let canvas = Canvas(fill: RGBA8(r: 200, g: 200, b: 200))
        var list = MilkDrawList(width: 64, height: 36)
        list.addFrame(outer: (SIMD2(0, 0), SIMD2(64, 36)), inner: (.zero, .zero), color: MilkColor(1, 1, 1, 1), blend: .additive)
        canvas.draw(list)
        #expect(canvas.pixel(5, 5) == SIMD3(255, 255, 255))
    }

    @Test("a quad edge through the middle of a pixel covers it by half")
    func quadCoverage() {
        let canvas = Canvas()
        var list = MilkDrawList(width: 64, height: 36)
        list.addFrame(outer: (SIMD2(10.5, 4), SIMD2(20, 8)), inner: (.zero, .zero), color: MilkColor(1, 1, 1, 1))
        canvas.draw(list)
        #expect(abs(canvas.pixel(10, 5).x - 128) <= 1)
        #expect(canvas.pixel(11, 5).x == 255 && canvas.pixel(9, 5).x == 0 && canvas.pixel(15, 8).x == 0)
    }

    @Test("a fan fades from its centre colour to its edge colour and antialiases its outline")
    func fanGradient() {
        let canvas = Canvas()
        var list = MilkDrawList(width: 64, height: 36)
        list.begin(.fan, blend: .alpha)
        list.append(SIMD2(32, 18), MilkColor(1, 0, 0, 1))
        for (x, y) in [(22.0, 8.0), (42.0, 8.0), (42.0, 28.0), (22.0, 28.0)] as [(Float, Float)] {
            list.append(SIMD2(x, y), MilkColor(0, 0, 1, 1))
        }
        list.end()
        canvas.draw(list)
        let centre = canvas.pixel(31, 17), edge = canvas.pixel(22, 17), middle = canvas.pixel(27, 17)
        #expect(centre.x > 230 && centre.z < 25)
        #expect(edge.z > 230 && edge.x < 25)
        #expect(abs(middle.x - 128) < 20 && abs(middle.z - 128) < 20)
        #expect(canvas.pixel(21, 17) == SIMD3(0, 0, 0) && canvas.pixel(42, 17) == SIMD3(0, 0, 0))
        // A fan whose outline crosses pixels: partial coverage there.
        let tilted = Canvas()
        var list2 = MilkDrawList(width: 64, height: 36)
        list2.begin(.fan, blend: .alpha)
        list2.append(SIMD2(32, 18), MilkColor(1, 1, 1, 1))
        for (x, y) in [(32.0, 4.0), (46.0, 18.0), (32.0, 32.0), (18.0, 18.0)] as [(Float, Float)] {
            list2.append(SIMD2(x, y), MilkColor(1, 1, 1, 1))
        }
        list2.end()
        tilted.draw(list2)
        let partial = (0..<64).map { tilted.pixel($0, 10).x }.filter { $0 > 10 && $0 < 245 }
        #expect(partial.count >= 2)
    }

    @Test("a textured fan whose map is the identity copies the texture inside its outline")
    func texturedFan() {
        let source = Texture(width: 64, height: 36)
        for y in 0..<36 { for x in 0..<64 { let p = source.view.row(y) + x * 4; p[0] = UInt8(x * 4); p[1] = UInt8(y * 7); p[2] = 9; p[3] = 255 } }
        let canvas = Canvas()
        var list = MilkDrawList(width: 64, height: 36)
        let identity = MilkTextureMap(ux: 1 / 64, uy: 0, u0: 0, vx: 0, vy: 1 / 36, v0: 0)
        list.begin(.fan, blend: .alpha, texture: identity)
        list.append(SIMD2(32, 18), MilkColor(1, 1, 1, 1))
        for (x, y) in [(10.0, 5.0), (54.0, 5.0), (54.0, 31.0), (10.0, 31.0)] as [(Float, Float)] {
            list.append(SIMD2(x, y), MilkColor(1, 1, 1, 1))
        }
        list.end()
        canvas.draw(list, texture: source.view)
        for (x, y) in [(12, 6), (40, 20), (53, 30)] {
            #expect(canvas.pixel(x, y) == SIMD3(x * 4, y * 7, 9))
        }
        #expect(canvas.pixel(5, 20) == SIMD3(0, 0, 0))
    }

    @Test("strips drawn separately, in any split, give the same bytes as one pass")
    func stripsSplitAnyWay() {
        let source = Texture(width: 64, height: 36)
        for y in 0..<36 { for x in 0..<64 { let p = source.view.row(y) + x * 4; p[0] = UInt8(x * 3); p[1] = UInt8(255 - y * 5); p[2] = 77 } }
        var list = MilkDrawList(width: 64, height: 36)
        var rng = SplitMix64(seed: 7)
        for k in 0..<12 {
            let kind: MilkPrimitive = [.lineStrip, .lineLoop, .dots, .segments][k % 4]
            list.begin(kind, blend: k % 3 == 0 ? .additive : .alpha, size: Float(1 + k % 3))
            for _ in 0..<20 { list.append(SIMD2(rng.float(-5, 69), rng.float(-5, 41)), MilkColor(rng.float(0, 1), rng.float(0, 1), rng.float(0, 1), rng.float(0.2, 1))) }
            list.end()
        }
        for k in 0..<3 {
            let map = MilkTextureMap(ux: 0.013, uy: 0.004, u0: 0.2, vx: -0.003, vy: 0.02, v0: 0.5)
            list.begin(.fan, blend: .alpha, texture: k == 1 ? map : nil)
            let c = SIMD2(rng.float(10, 54), rng.float(8, 28))
            list.append(c, MilkColor(1, 0.5, 0, 0.9))
            // A heptagon (cos, sin of i·2π/7).
            let ring: [SIMD2<Float>] = [SIMD2(1, 0), SIMD2(0.6235, 0.7818), SIMD2(-0.2225, 0.9749), SIMD2(-0.9010, 0.4339),
                                        SIMD2(-0.9010, -0.4339), SIMD2(-0.2225, -0.9749), SIMD2(0.6235, -0.7818)]
            for r in ring { list.append(c + r * SIMD2(13, 9), MilkColor(0, 0.3, 1, 0.4)) }
            list.end()
        }
        list.addFrame(outer: (SIMD2(0, 0), SIMD2(64, 36)), inner: (SIMD2(3.3, 2.7), SIMD2(60.6, 33.1)), color: MilkColor(0.2, 0.9, 0.1, 0.6))
        let whole = Canvas(fill: RGBA8(r: 30, g: 60, b: 90))
        whole.draw(list, texture: source.view)
        for split in [[0, 1, 36], [0, 5, 17, 18, 36], [0, 12, 24, 36], Array(0...36)] {
            let strips = Canvas(fill: RGBA8(r: 30, g: 60, b: 90))
            for (a, b) in zip(split, split.dropFirst()) {
                MilkRasterizer.draw(list, into: strips.texture.view, rows: a..<b, texture: source.view)
            }
            #expect(strips.texture.packedBytes() == whole.texture.packedBytes(), "split \(split)")
        }
        #expect(whole.texture.packedBytes() != Canvas(fill: RGBA8(r: 30, g: 60, b: 90)).texture.packedBytes())
    }

    @Test("after reset the list reuses its storage: rebuilding a frame does not grow it")
    func resetKeepsCapacity() {
        var list = MilkDrawList(width: 64, height: 36, reservingVertices: 64, commands: 8)
        list.begin(.lineStrip, blend: .alpha)
        for i in 0..<40 { list.append(SIMD2(Float(i), 3), MilkColor(1, 1, 1, 1)) }
        list.end()
        #expect(list.commandCount == 1 && list.vertexCount == 40)
        list.reset(width: 32, height: 18)
        #expect(list.commandCount == 0 && list.vertexCount == 0 && list.width == 32)
        // Invisible or degenerate primitives are dropped with their vertices.
        list.begin(.lineStrip, blend: .alpha)
        list.append(SIMD2(1, 1), MilkColor(1, 1, 1, 0)); list.append(SIMD2(5, 5), MilkColor(1, 1, 1, 0))
        list.end()
        list.begin(.fan, blend: .alpha)
        for _ in 0..<5 { list.append(SIMD2(3, 3), MilkColor(1, 1, 1, 1)) }
        list.end()
        #expect(list.commandCount == 0 && list.vertexCount == 0)
    }
}

/// Test data from the module's deterministic generator.
extension SplitMix64 {
    mutating func float(_ lo: Float, _ hi: Float) -> Float { lo + (hi - lo) * Float(next() >> 40) / Float(1 << 24) }
}
