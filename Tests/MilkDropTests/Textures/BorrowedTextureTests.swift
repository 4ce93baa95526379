import MarbleCore
@testable import MilkDrop
import Testing

@Suite("The feedback buffer as a texture: read in place, follows the frame")
struct BorrowedTextureTests {
    @Test("reads a texture's view in place, row padding and all, and follows update()")
    func view() {
        // 3 wide: rows are 64 bytes apart, 16 texels, of which 3 are the picture.
        let a = Texture(width: 3, height: 2)
        a.fill(RGBA8(r: 10, g: 20, b: 30))
        a.view.row32(1)[2] = packed(200, 100, 50)
        let t = BorrowedTexture(a.view)
        #expect(t.width == 3 && t.height == 2 && t.depth == 1)
        #expect(close(read(t, Modes.pc, 0.9, 0.9), unit(packed(200, 100, 50))))
        // Wrapped bilinear at the bottom-right corner mixes the four corner texels.
        let corner = (unit(packed(200, 100, 50)) + 3 * unit(packed(10, 20, 30))) / 4
        #expect(close(read(t, Modes.fw, 1, 1), corner))
        // No copy: a change to the pixels shows at once.
        a.view.row32(0)[0] = packed(1, 2, 3)
        #expect(close(read(t, Modes.pc, 0.1, 0.1), unit(packed(1, 2, 3))))
        // The next frame's buffer, of another size.
        let b = Texture(width: 5, height: 1)
        b.fill(RGBA8(r: 255, g: 0, b: 0))
        t.update(b.view)
        #expect(t.width == 5 && t.height == 1)
        #expect(close(read(t, Modes.fc, 0.5, 0.5), unit(packed(255, 0, 0))))
    }

    @Test("the texture given as owner lives as long as the view reads it, and is let go on update")
    func owner() {
        weak var watched: Texture?
        let t: BorrowedTexture = {
            let frame = Texture(width: 2, height: 2)
            frame.fill(RGBA8(r: 7, g: 7, b: 7))
            watched = frame
            return BorrowedTexture(frame.view, keeping: frame)
        }()
        #expect(watched != nil)
        #expect(close(read(t, Modes.fc, 0.5, 0.5), unit(packed(7, 7, 7))))
        let next = Texture(width: 1, height: 1)
        t.update(next.view, keeping: next)
        #expect(watched == nil)
    }
}
