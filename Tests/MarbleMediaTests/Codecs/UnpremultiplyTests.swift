import MarbleCore
@testable import MarbleMedia
import Testing

@Suite("Unpremultiply")
struct UnpremultiplyTests {
    /// The reference: the rounded inverse of premultiplying, one division per channel.
    static func straight(_ c: Int, _ a: Int) -> Int { a == 0 ? 0 : min(255, (c * 255 + a / 2) / a) }

    @Test("every (alpha, channel) pair gives the rounded inverse of premultiplying; opaque copied, transparent zero")
    func everyPair() {
        var source = [UInt32](), expected = [UInt32]()
        for a in 0..<256 {
            for c in 0...a {
                source.append(UInt32(c) | UInt32(a - c) << 8 | UInt32(c / 2) << 16 | UInt32(a) << 24)
                let r = Self.straight(c, a), g = Self.straight(a - c, a), b = Self.straight(c / 2, a)
                expected.append(UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24)
            }
        }
        var out = [UInt32](repeating: 0xDEAD_BEEF, count: source.count)
        source.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { Unpremultiply.row(s.baseAddress!, $0.baseAddress!, count: s.count) }
        }
        #expect(out == expected)
    }

    @Test("a half-transparent pixel of known colour reads back with its colour, not darkened")
    func halfTransparent() {
        // #ff8000 at alpha 128, premultiplied: (128, 64, 0, 128).
        let premultiplied = Color(red: 1, green: 128.0 / 255, blue: 0, alpha: 128.0 / 255).premultiplied
        #expect(premultiplied == RGBA8(r: 128, g: 64, b: 0, a: 128))
        let source: [UInt32] = [premultiplied.packed]
        var out: [UInt32] = [0]
        source.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { Unpremultiply.row(s.baseAddress!, $0.baseAddress!, count: 1) }
        }
        #expect(out[0] == RGBA8(r: 255, g: 128, b: 0, a: 128).packed)
    }
}
