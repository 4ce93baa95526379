import Glibc
import MarbleCore
@testable import MilkDrop
import Testing

@Suite("The shader pass: per-pixel inputs, the bytes it writes, strips and workers")
struct ShaderPassTests {
    /// Runs `pass` over every row of a new `width × height` target in `strips` (one worker each).
    private func render(_ pass: ShaderPass, width: Int, height: Int, strips: [Range<Int>] = []) -> Texture {
        let texture = Texture(width: width, height: height)
        texture.fill(RGBA8(r: 1, g: 2, b: 3, a: 4))
        pass.setTarget(texture.view)
        let parts = strips.isEmpty ? [0..<height] : strips
        for (worker, rows) in parts.enumerated() { pass.run(strip: rows, worker: worker) }
        return texture
    }

    private func pixel(_ t: Texture, _ x: Int, _ y: Int) -> RGBA8 {
        let p = t.view.row32(y)[x]
        return RGBA8(r: UInt8(p & 0xFF), g: UInt8((p >> 8) & 0xFF), b: UInt8((p >> 16) & 0xFF), a: UInt8(p >> 24))
    }

    /// A pass of `kind` running `ret = (r, g, b)` built by `body`.
    private func pass(_ kind: ShaderPass.Kind, workers: Int = 1,
                      _ body: (inout ProgramBuilder) -> (Int32, Int32, Int32)) throws -> ShaderPass {
        var b = ProgramBuilder()
        let (r, g, bb) = body(&b)
        let pass = ShaderPass(kind: kind)
        try pass.setProgram(b.program(r, g, bb), workers: workers)
        try pass.bind(textures: [])
        pass.setUniforms([])
        return pass
    }

    @Test("composite: uv and uv_orig are the pixel centre; bytes round to nearest; alpha is opaque")
    func compositeCoordinates() throws {
        let p = try pass(.composite) { b in (b.input(.uvX), b.input(.uvOrigY), b.constant(0.5)) }
        let t = render(p, width: 4, height: 2)
        // (x + 0.5) / 4 × 255 = 31.875, 95.625, 159.375, 223.125; (y + 0.5) / 2 × 255 = 63.75, 191.25;
        // 127.5 rounds to the even 128.
        let reds: [UInt8] = [32, 96, 159, 223], greens: [UInt8] = [64, 191]
        for y in 0..<2 { for x in 0..<4 { #expect(pixel(t, x, y) == RGBA8(r: reds[x], g: greens[y], b: 128, a: 255)) } }
    }

    @Test("NaN becomes 0, +inf and values past 1 become 255, negatives and −inf 0")
    func outputClamping() throws {
        let p = try pass(.composite) { b in
            let zero = b.constant(0), one = b.constant(1)
            let nan = b.binary(.divide, zero, zero), inf = b.binary(.divide, one, zero)
            let x = b.input(.uvX)
            // Left half: (NaN, inf, −1); right half: (2, −inf, 0.2).
            let right = b.binary(.greater, x, b.constant(0.5))
            let r = b.ternary(.select, right, b.constant(2), nan)
            let g = b.ternary(.select, right, b.unary(.negate, inf), inf)
            let bb = b.ternary(.select, right, b.constant(0.2), b.constant(-1))
            return (r, g, bb)
        }
        let t = render(p, width: 4, height: 1)
        #expect(pixel(t, 0, 0) == RGBA8(r: 0, g: 255, b: 0, a: 255))
        #expect(pixel(t, 3, 0) == RGBA8(r: 255, g: 0, b: 51, a: 255))
    }

    @Test("composite: rad (1 at the corners), ang (0…2π, v down) and hue_shader interpolated from the corners")
    func compositeInputs() throws {
        let p = try pass(.composite) { b in
            let quarter = b.constant(0.25)
            return (b.input(.rad), b.binary(.multiply, b.input(.ang), b.constant(1 / 6.283_185_3)), b.binary(.multiply, b.input(.hueR), quarter))
        }
        // Corners top-left red, top-right green, bottom-left blue, bottom-right white.
        p.hue = [1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1]
        let t = render(p, width: 4, height: 2)
        // Pixel (0, 0): u 0.125, v 0.25; aspect (1, 0.5): offset (−0.75, −0.25), rad = √0.625 / √1.25 = 0.70711
        // → 180.3; ang = atan2(−0.25, −0.75) + 2π = 3.46334 → / 2π × 255 = 140.56; hue r: left edge
        // 1 − 0.25 = 0.75, right edge 0.25, at u 0.125: 0.6875, × 0.25 × 255 = 43.83.
        #expect(pixel(t, 0, 0) == RGBA8(r: 180, g: 141, b: 44, a: 255))
        // Pixel (3, 1): u 0.875, v 0.75: offset (0.75, 0.25): rad the same, ang = atan2(0.25, 0.75) = 0.32175
        // → 13.06; hue r: left edge 1 − 0.75 = 0.25, right edge 0.75, at u 0.875: 0.6875.
        #expect(pixel(t, 3, 1) == RGBA8(r: 180, g: 13, b: 44, a: 255))
    }

    @Test("warp: uv is the mesh's coordinate at the pixel; rad and ang the mesh's, with MilkDrop's seam")
    func warpInputs() throws {
        let mesh = WarpMesh(columns: 2, rows: 2)
        mesh.configure(width: 8, height: 4)
        var m = WarpMesh.Motion()
        m.zoom = 2; m.warp = 0
        mesh.warpAll(m, WarpMesh.Wobble(time: 0, animationSpeed: 1, scale: 1))
        let p = try pass(.warp) { b in
            let eighth = b.constant(0.125), half = b.constant(0.5)
            return (b.input(.uvX), b.binary(.multiply, b.input(.rad), half), b.ternary(.multiplyAdd, b.input(.ang), eighth, half))
        }
        p.setMesh(mesh)
        let t = render(p, width: 8, height: 4)
        // Zoom 2 about the centre: u = 0.25 + x_pixel_centre / 2, linear, so exact at every pixel:
        // pixel 0: 0.25 + 0.0625 / 2 = 0.28125 → 71.72.
        #expect(pixel(t, 0, 0).r == 72)
        #expect(pixel(t, 7, 3).r == 183)   // 0.25 + 0.9375 / 2 = 0.71875 → 183.28
        // Pixel (0, 1): row 1 is at t = 0.75 in the upper cell row (vertices y −1 and 0, aspect 0.5),
        // column at 0.125 of cell 0 (vertices x −1 and 0).
        // rad: top (−1, −1) √1.25 = 1.11803, (0, −1) 0.5; centre row (−1, 0) 1, (0, 0) 0.
        //   left 1.11803 − 0.11803 × 0.75 = 1.02951, right 0.5 − 0.5 × 0.75 = 0.125 → 1.02951 − 0.90451 × 0.125 = 0.91645.
        // ang: top-left 2.67795 (atan2(0.5, −1)), top 1.5708; centre row left +π (the seam, seen from
        //   above), centre 0: left 2.67795 + 0.46364 × 0.75 = 3.02568, right 0.39270 → 2.69656.
        #expect(pixel(t, 0, 1).g == 117)   // 0.91645 / 2 × 255 = 116.85
        #expect(pixel(t, 0, 1).b == 213)   // (2.69656 / 8 + 0.5) × 255 = 213.45
        // Pixel (0, 2), below the centre row: the seam vertex is −π: left −3.02568, right −0.39270 → −2.69656.
        #expect(pixel(t, 0, 2).b == 42)    // (−2.69656 / 8 + 0.5) × 255 = 41.55
    }

    @Test("a warp shader that reads main at uv draws the mesh's coordinates (the sample's inputs per pixel)")
    func warpSample() throws {
        let mesh = WarpMesh(columns: 4, rows: 3)
        mesh.configure(width: 21, height: 9)
        var m = WarpMesh.Motion()
        m.rotation = 0.3; m.dx = 0.05
        mesh.warpAll(m, WarpMesh.Wobble(time: 1.5, animationSpeed: 1, scale: 1))
        var b = ProgramBuilder()
        b.samplers = [ShaderSamplerUse(name: "main", mode: SamplerMode(bilinear: true, wraps: true), isVolume: false)]
        let u = b.input(.uvX), v = b.input(.uvY)
        let r = b.register(), g = b.register()
        b.code.append(.sample(slot: 0, u: u, v: v, w: -1, r: r, g: g, b: -1, a: -1))
        let pass = ShaderPass(kind: .warp)
        try pass.setProgram(b.program(r, g, r), workers: 1)
        try pass.bind(textures: [FormulaTexture()])
        pass.setMesh(mesh)
        let t = render(pass, width: 21, height: 9)
        // Each pixel's expected uv, written out the way WarpPass interpolates (rows, then cells).
        for y in 0..<9 {
            let down = (Float(y) + 0.5) / 9 * 3
            let j = min(2, Int(down)), f = down - Float(j)
            let cellWidth = Float(21) / 4
            for x in 0..<21 {
                let cell = min(3, Int((Float(x) + 0.5) / cellWidth))
                let k = j * 5 + cell
                func at(_ a: [Float], _ i: Int) -> Float { a[k + i] + (a[k + 5 + i] - a[k + i]) * f }
                let u0 = at(mesh.u, 0), u1 = at(mesh.u, 1), v0 = at(mesh.v, 0), v1 = at(mesh.v, 1)
                let start = Float(x) + 0.5 - Float(cell) * cellWidth
                let uu = u0 + (u1 - u0) / cellWidth * start, vv = v0 + (v1 - v0) / cellWidth * start
                #expect(pixel(t, x, y) == RGBA8(r: ShaderPassTests.byte(uu), g: ShaderPassTests.byte(vv), b: ShaderPassTests.byte(uu)))
            }
        }
    }

    static func byte(_ x: Float) -> UInt8 { UInt8(max(0, min(1, x)) * 255 + 0.5) }

    @Test("the same bytes with one worker and with two strips on two workers, in partial batches")
    func workers() throws {
        func heavy(_ b: inout ProgramBuilder) -> (Int32, Int32, Int32) {
            let u = b.input(.uvX), v = b.input(.uvOrigY), rad = b.input(.rad), ang = b.input(.ang), hue = b.input(.hueG)
            let time = b.uniform(0)
            let s = b.unary(.sin, b.binary(.add, b.binary(.multiply, u, b.constant(17)), time))
            let c = b.unary(.cos, b.binary(.multiply, ang, b.constant(3)))
            let p = b.binary(.pow, rad, b.constant(1.7))
            let f = b.unary(.frac, b.binary(.multiply, v, b.constant(5.5)))
            return (b.ternary(.lerp, s, c, f), b.binary(.multiply, p, hue), b.binary(.atan2, s, c))
        }
        let one = try pass(.composite, heavy)
        let two = try pass(.composite, workers: 2, heavy)
        one.setUniforms([2.5]); two.setUniforms([2.5])
        let a = render(one, width: 150, height: 7)
        let b = render(two, width: 150, height: 7, strips: [0..<3, 3..<7])
        #expect(a.packedBytes() == b.packedBytes())
        #expect(pixel(a, 149, 6).a == 255 && pixel(a, 0, 0) != pixel(a, 149, 6))
    }
}
