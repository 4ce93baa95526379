import MarbleCore
@testable import MilkDrop
import Testing

@Suite("The warp: mesh geometry and the pass that reads the previous frame")
struct WarpTests {
    private func still(_ mesh: WarpMesh, zoom: Float = 1, rot: Float = 0, dx: Float = 0, dy: Float = 0) {
        var m = WarpMesh.Motion()
        m.zoom = zoom; m.rotation = rot; m.dx = dx; m.dy = dy; m.warp = 0
        mesh.warpAll(m, WarpMesh.Wobble(time: 0, animationSpeed: 1, scale: 1))
    }

    @Test("no motion reads each vertex from where it is; zoom 2 reads from halfway to the centre")
    func meshGeometry() {
        let mesh = WarpMesh(columns: 4, rows: 2)
        mesh.configure(width: 64, height: 32)
        #expect(mesh.aspectX == 1 && mesh.aspectY == 0.5)
        still(mesh)
        for k in 0..<mesh.vertexCount {
            #expect(abs(mesh.u[k] - (mesh.positionX[k] * 0.5 + 0.5)) < 1e-5)
            #expect(abs(mesh.v[k] - (mesh.positionY[k] * 0.5 + 0.5)) < 1e-5)
        }
        still(mesh, zoom: 2)
        #expect(abs(mesh.u[4] - 0.75) < 1e-5)           // top-right corner
        #expect(abs(mesh.v[4] - 0.25) < 1e-5)
        still(mesh, dx: 0.1, dy: -0.05)
        #expect(abs(mesh.u[0] - (0 - 0.1)) < 1e-5)
        #expect(abs(mesh.v[0] - (0 + 0.05 / 0.5)) < 1e-5)   // dy is in aspect-corrected units
        // A quarter turn about the centre is circular on a wide screen: the top-centre vertex reads
        // from the left or right, at the same on-screen distance.
        still(mesh, rot: Float.pi / 2)
        let top = 2   // x = 0, y = −1
        #expect(abs(mesh.v[top] - 0.5) < 1e-4)
        #expect(abs(abs(mesh.u[top] - 0.5) - 0.25) < 1e-4)
    }

    @Test("four pixels a step give the bytes of one at a time")
    func fourAtATime() {
        var g = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var a = SIMD4<UInt32>(), b = a, c = a, d = a, wx = a, wy = a
            for k in 0..<4 {
                a[k] = UInt32.random(in: 0...UInt32.max, using: &g) | 0xFF00_0000
                b[k] = UInt32.random(in: 0...UInt32.max, using: &g) | 0xFF00_0000
                c[k] = UInt32.random(in: 0...UInt32.max, using: &g) | 0xFF00_0000
                d[k] = UInt32.random(in: 0...UInt32.max, using: &g) | 0xFF00_0000
                wx[k] = UInt32.random(in: 0...255, using: &g); wy[k] = UInt32.random(in: 0...255, using: &g)
            }
            let decay = UInt32.random(in: 0...256, using: &g)
            let four = WarpPass.bilinear4(a, b, c, d, wx, wy, decay)
            for k in 0..<4 {
                let one = PackedPixels.scale(PackedPixels.lerp(PackedPixels.lerp(a[k], b[k], wx[k]),
                                                               PackedPixels.lerp(c[k], d[k], wx[k]), wy[k]), decay)
                #expect(four[k] == one)
            }
        }
    }

    @Test("a bad vertex (NaN or a huge value) reads from its own place instead of poisoning the frame")
    func nonFiniteMotion() {
        let mesh = WarpMesh(columns: 2, rows: 2)
        mesh.configure(width: 16, height: 16)
        var m = WarpMesh.Motion()
        m.zoom = 0   // 1 / 0
        mesh.warp(vertex: 0, m, WarpMesh.Wobble(time: 0, animationSpeed: 1, scale: 1))
        #expect(mesh.u[0] == 0 && mesh.v[0] == 0)
        m = WarpMesh.Motion(); m.dx = .nan
        mesh.warp(vertex: 8, m, WarpMesh.Wobble(time: 0, animationSpeed: 1, scale: 1))
        #expect(mesh.u[8] == 1 && mesh.v[8] == 1)
    }

    private func pattern(_ w: Int, _ h: Int) -> Texture {
        let t = Texture(width: w, height: h)
        for y in 0..<h {
            let row = t.view.row32(y)
            for x in 0..<w { row[x] = RGBA8(r: UInt8(x * 255 / (w - 1)), g: UInt8(y * 255 / (h - 1)), b: UInt8((x * 7 + y * 13) % 256)).packed }
        }
        return t
    }

    private func warp(_ source: Texture, mesh: WarpMesh, decay: UInt32 = 256, wraps: Bool = true, strips: [Range<Int>]? = nil) -> Texture {
        let target = Texture(width: source.width, height: source.height)
        let pass = WarpPass(mesh: mesh)
        pass.source = source.view; pass.target = target.view; pass.decay = decay; pass.wraps = wraps
        for s in strips ?? [0..<source.height] { pass.run(strip: s, worker: 0) }
        return target
    }

    @Test("with no motion the picture is copied exactly; decay 0.5 halves it, rounding to nearest")
    func identityAndDecay() {
        let mesh = WarpMesh(columns: 48, rows: 36)
        mesh.configure(width: 96, height: 54)
        still(mesh)
        let source = pattern(96, 54)
        #expect(warp(source, mesh: mesh).packedBytes() == source.packedBytes())
        let half = warp(source, mesh: mesh, decay: 128).packedBytes()
        let original = source.packedBytes()
        for i in stride(from: 0, to: original.count, by: 4) {
            #expect(Int(half[i]) == (Int(original[i]) + 1) / 2 && half[i + 3] == 255)   // 8-bit target: to nearest
        }
    }

    @Test("dx of one pixel moves the picture one pixel right; wrap brings the edge round, clamp repeats it")
    func translation() {
        let mesh = WarpMesh(columns: 8, rows: 6)
        mesh.configure(width: 64, height: 36)
        still(mesh, dx: 1.0 / 64)
        let source = pattern(64, 36)
        let wrapped = warp(source, mesh: mesh), clamped = warp(source, mesh: mesh, wraps: false)
        for y in [0, 17, 35] {
            let s = source.view.row32(y), w = wrapped.view.row32(y), c = clamped.view.row32(y)
            for x in 1..<64 { #expect(w[x] == s[x - 1]) }
            #expect(w[0] == s[63])
            #expect(c[0] == s[0])
        }
    }

    @Test("any split into strips gives the same bytes")
    func strips() {
        let mesh = WarpMesh(columns: 48, rows: 36)
        mesh.configure(width: 80, height: 45)
        var m = WarpMesh.Motion(); m.zoom = 1.07; m.rotation = 0.2; m.warp = 2
        mesh.warpAll(m, WarpMesh.Wobble(time: 3.3, animationSpeed: 1, scale: 1))
        let source = pattern(80, 45)
        let whole = warp(source, mesh: mesh, decay: 250).packedBytes()
        let split = warp(source, mesh: mesh, decay: 250, strips: [0..<7, 7..<8, 8..<30, 30..<45]).packedBytes()
        #expect(whole == split)
        #expect(whole != source.packedBytes())
    }
}
