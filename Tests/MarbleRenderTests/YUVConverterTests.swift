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

    /// Row pairs of one colour (a vertical gradient) take the uniform fill; row pairs with one pixel off
    /// anywhere (first, a vector lane, the last of a chunk, the scalar tail) take the vector loop. Both
    /// must give every 2x2 block's own arithmetic (`convertBlock`).
    @Test("uniform row pairs are filled with the bytes the block arithmetic gives; one odd pixel anywhere is noticed",
          arguments: [16, 30, 1920])
    func uniformRows(width: Int) {
        let height = 12, odd: [Int: Int] = [2: 0, 3: min(15, width - 1), 6: width - 1, 9: width / 2 + 1]
        func pixel(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
            if odd[y] == x { return (250, 3, 90) }
            return (UInt8(20 * (y / 2)), UInt8(200 - 15 * (y / 2)), 77)
        }
        let (yp, up, vp) = convert(width: width, height: height, threads: 2, pixel)
        for pair in 0..<height / 2 {
            for x in stride(from: 0, to: width, by: 2) {
                var rows = [UInt8](repeating: 0, count: 16)
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let (r, g, b) = pixel(x + dx, 2 * pair + dy)
                    rows[(dy * 2 + dx) * 4] = r; rows[(dy * 2 + dx) * 4 + 1] = g; rows[(dy * 2 + dx) * 4 + 2] = b
                }
                var out = [UInt8](repeating: 0, count: 6)
                rows.withUnsafeBufferPointer { r in
                    out.withUnsafeMutableBufferPointer { o in
                        let p = r.baseAddress!, q = o.baseAddress!
                        YUV420.convertBlock(p, p + 8, q, q + 2, q + 4, q + 5)
                    }
                }
                let row0 = 2 * pair * width + x, row1 = row0 + width, c = pair * width / 2 + x / 2
                #expect([yp[row0], yp[row0 + 1], yp[row1], yp[row1 + 1], up[c], vp[c]] == [out[0], out[1], out[2], out[3], out[4], out[5]],
                        "pair \(pair), x \(x)")
            }
        }
        // The detection itself: a uniform pair is one pixel; one odd pixel anywhere makes it nil.
        let t = Texture(width: width, height: 2)
        for y in 0..<2 { for x in 0..<width { t.view.row32(y)[x] = 0xFF20_3040 } }
        let r0 = UnsafeRawPointer(t.view.row(0)), r1 = UnsafeRawPointer(t.view.row(1))
        #expect(YUV420.uniformPixel(r0, r1, width: width) == 0xFF20_3040)
        for (y, x) in [(0, 0), (1, min(15, width - 1)), (1, width - 1), (0, width / 2 + 1)] {
            t.view.row32(y)[x] = 0xFF20_3041
            #expect(YUV420.uniformPixel(r0, r1, width: width) == nil, "odd pixel at \(x), \(y)")
            t.view.row32(y)[x] = 0xFF20_3040
        }
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
