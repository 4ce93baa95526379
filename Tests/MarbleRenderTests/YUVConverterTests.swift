@testable import KernelsAVX2
import MarbleCore
@testable import MarbleMedia
@testable import MarbleRender
import Shaders
import Testing

@Suite("YUVConverter")
struct YUVConverterTests {
    /// Converts a texture filled by `pixel(x, y)` and returns the three planes.
    /// `kernel` is the converter under test: the dispatching one unless said otherwise.
    func convert(width: Int, height: Int, threads: Int = 1,
                 kernel: @escaping @Sendable (TextureView, YUVConverter.Planes, Range<Int>) -> Void = { YUVConverter.convert($0, into: $1, pairs: $2) },
                 _ pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) -> ([UInt8], [UInt8], [UInt8]) {
        let t = Texture(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = pixel(x, y)
                let p = t.view.row(y) + x * 4
                p[0] = r; p[1] = g; p[2] = b; p[3] = 255
            }
        }
        var yp = [UInt8](repeating: 0, count: width * height)
        var up = [UInt8](repeating: 0, count: width * height / 4)
        var vp = [UInt8](repeating: 0, count: width * height / 4)
        yp.withUnsafeMutableBufferPointer { yb in
            up.withUnsafeMutableBufferPointer { ub in
                vp.withUnsafeMutableBufferPointer { vb in
                    let planes = YUVConverter.Planes(y: yb.baseAddress!, yStride: width, u: ub.baseAddress!, uStride: width / 2,
                                                     v: vb.baseAddress!, vStride: width / 2)
                    StripScheduler(threads: threads).run(count: height / 2) { pairs in
                        kernel(t.view, planes, pairs)
                    }
                }
            }
        }
        return (yp, up, vp)
    }

    @Test("black, white and greys hit the limited-range levels exactly")
    func levels() {
        for (value, luma) in [(0, 16), (255, 235)] {
            let (y, u, v) = convert(width: 16, height: 2) { _, _ in (UInt8(value), UInt8(value), UInt8(value)) }
            #expect(y.allSatisfy { Int($0) == luma })
            #expect(u.allSatisfy { $0 == 128 } && v.allSatisfy { $0 == 128 })
        }
        let (_, u, v) = convert(width: 24, height: 4) { x, _ in let g = UInt8(x * 10); return (g, g, g) }
        #expect(u.allSatisfy { $0 == 128 } && v.allSatisfy { $0 == 128 })
    }

    @Test("matches the BT.709 formula within one level, vector and tail paths alike", arguments: [16, 18, 64, 70])
    func formula(width: Int) {
        func pixel(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
            (UInt8(truncatingIfNeeded: x &* 37 &+ y &* 11), UInt8(truncatingIfNeeded: x &* 5 &+ y &* 71), UInt8(truncatingIfNeeded: x &* 113 &+ y))
        }
        let height = 6
        let (yp, up, vp) = convert(width: width, height: height, threads: 2, pixel)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = pixel(x, y)
                let exact = 16 + (0.2126 * Double(r) + 0.7152 * Double(g) + 0.0722 * Double(b)) * 219 / 255
                #expect(abs(Double(yp[y * width + x]) - exact) <= 1.0, "Y at \(x),\(y)")
            }
        }
        for cy in 0..<(height / 2) {
            for cx in 0..<(width / 2) {
                var r = 0.0, g = 0.0, b = 0.0
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let p = pixel(cx * 2 + dx, cy * 2 + dy)
                    r += Double(p.0) / 4; g += Double(p.1) / 4; b += Double(p.2) / 4
                }
                let cb = 128 + (-0.1146 * r - 0.3854 * g + 0.5 * b) * 224 / 255
                let cr = 128 + (0.5 * r - 0.4542 * g - 0.0458 * b) * 224 / 255
                #expect(abs(Double(up[cy * width / 2 + cx]) - cb) <= 1.5, "U at \(cx),\(cy)")
                #expect(abs(Double(vp[cy * width / 2 + cx]) - cr) <= 1.5, "V at \(cx),\(cy)")
            }
        }
    }

    /// A hash-like pattern: every channel value, every vector lane and the scalar tail get exercised.
    static func hashed(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        let h = UInt32(truncatingIfNeeded: x &* 2_654_435_761 ^ y &* 40_503)
        return (UInt8(truncatingIfNeeded: h), UInt8(truncatingIfNeeded: h >> 8), UInt8(truncatingIfNeeded: h >> 16))
    }

    /// Runs only where the CPU has AVX2 (this project's machines do): elsewhere there is nothing to compare.
    @Test("the AVX2 build gives the same bytes as the portable build, and the dispatcher uses it",
          .enabled(if: YUVConverter.usesAVX2), arguments: [16, 30, 1920])
    func buildsAgree(width: Int) {
        let portable = convert(width: width, height: 8, threads: 2, kernel: { YUVConverter.convertPortable($0, into: $1, pairs: $2) }, Self.hashed)
        let wide = convert(width: width, height: 8, threads: 1, kernel: { KernelsAVX2.convertYUV420($0, into: $1, pairs: $2) }, Self.hashed)
        let dispatched = convert(width: width, height: 8, threads: 2, Self.hashed)
        #expect(wide.0 == portable.0 && wide.1 == portable.1 && wide.2 == portable.2)
        #expect(dispatched.0 == wide.0 && dispatched.1 == wide.1 && dispatched.2 == wide.2)
    }
}
