import MarbleCore
import Testing

@Suite("Texture")
struct TextureTests {
    @Test("rows are 64-byte aligned and padded; fill and packedBytes see only the visible pixels")
    func layout() {
        let t = Texture(width: 5, height: 3)
        #expect(t.bytesPerRow == 64)
        #expect(Int(bitPattern: t.pixels) % Texture.alignment == 0)
        t.fill(RGBA8(r: 1, g: 2, b: 3, a: 4))
        let expected: [UInt8] = (0..<60).map { i in UInt8(i % 4 + 1) }
        #expect(t.packedBytes() == expected)
        #expect(t.view.row(2)[5 * 4] == 0, "the padding after a row is not filled")
    }

    @Test("a window answers for a band of a taller picture's rows from a band-sized buffer")
    func window() {
        let band = Texture(width: 4, height: 8)
        let view = TextureView(window: band.view, rows: 40..<48, height: 1080)
        #expect(view.height == 1080 && view.width == 4 && view.bytesPerRow == band.bytesPerRow)
        for y in 40..<48 { view.row32(y)[3] = UInt32(y) }
        for k in 0..<8 { #expect(band.view.row32(k)[3] == UInt32(40 + k)) }
        #expect(view.row(40) == band.view.row(0))
    }
}
