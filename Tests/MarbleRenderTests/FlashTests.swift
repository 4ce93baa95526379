import MarbleCore
@testable import MarbleRender
import Testing

@Suite("Flash: the picture lifted towards white at once, fading back within a third of a second")
struct FlashTests {
    @Test("full at its start, 1/e after the fade time, nothing before it or once it is over")
    func strength() {
        #expect(Flash.strength(elapsed: 0) == 1)
        #expect(abs(Flash.strength(elapsed: Flash.fadeSeconds) - 0.3679) < 0.001)
        #expect(Flash.strength(elapsed: -0.01) == 0)
        #expect(Flash.strength(elapsed: Flash.lastsSeconds) == 0)
        #expect(Flash.strength(elapsed: Flash.lastsSeconds - 0.001) > 0 && Flash.strength(elapsed: Flash.lastsSeconds - 0.001) < 1.0 / 60)
    }

    @Test("RGBA: each byte moves towards 255 by the strength (b + (255 − b) × w / 256)")
    func rgba() {
        let t = Texture(width: 3, height: 2)
        t.fill(RGBA8(r: 0, g: 100, b: 255, a: 128))
        Flash.apply(0.5, to: t.view)   // weight 128
        // 0 + 255·128/256 = 127; 100 + 155·128/256 = 177; 255 stays; 128 + 127·128/256 = 191
        #expect(Array(t.packedBytes().prefix(4)) == [127, 177, 255, 191])
        #expect(Set(stride(from: 0, to: 24, by: 4).map { t.packedBytes()[$0] }) == [127])
        let untouched = Texture(width: 2, height: 2)
        Flash.apply(0, to: untouched.view)
        #expect(untouched.packedBytes().allSatisfy { $0 == 0 })
    }

    @Test("YUV: luma towards 235, chroma towards 128, every row of each plane")
    func yuv() {
        let w = 4, h = 2
        var y = [UInt8](repeating: 16, count: w * h), u = [UInt8](repeating: 240, count: 2), v = [UInt8](repeating: 16, count: 2)
        y.withUnsafeMutableBufferPointer { yp in
            u.withUnsafeMutableBufferPointer { up in
                v.withUnsafeMutableBufferPointer { vp in
                    Flash.apply(1, to: YUV420.Planes(y: yp.baseAddress!, yStride: w, u: up.baseAddress!, uStride: 2,
                                                     v: vp.baseAddress!, vStride: 2), width: w, height: h)
                }
            }
        }
        #expect(y.allSatisfy { $0 == 235 } && u == [128, 128] && v == [128, 128])
    }
}
