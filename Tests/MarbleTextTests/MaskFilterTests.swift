import Testing
@testable import MarbleText

@Suite struct MaskFilterTests {
    /// A 40x30 mask with a 4x4 solid square in the middle.
    private func square() -> [UInt8] {
        var m = [UInt8](repeating: 0, count: 40 * 30)
        for y in 13..<17 { for x in 18..<22 { m[y * 40 + x] = 255 } }
        return m
    }

    @Test("dilate grows the ink by the radius, round (corners softer than sides), and keeps the source")
    func dilate() {
        let source = square()
        var out = [UInt8](repeating: 0, count: source.count)
        source.withUnsafeBufferPointer { s in out.withUnsafeMutableBufferPointer { MaskFilter.dilate(s.baseAddress!, into: $0.baseAddress!, width: 40, height: 30, radius: 3) } }
        // The square's last column is 21.
        #expect(out[15 * 40 + 23] == 255, "2 px right of the square: inside")
        #expect(out[15 * 40 + 24] == 255, "3 px right: on the radius, still full")
        #expect(out[15 * 40 + 25] == 0, "4 px right: outside")
        #expect(out[(13 - 3) * 40 + (18 - 3)] < 255, "the corner is rounded")
        #expect(out[15 * 40 + 20] == 255)
    }

    @Test("blur spreads the ink symmetrically and keeps its total roughly")
    func blur() {
        var m = square()
        var scratch = [UInt8](repeating: 0, count: m.count)
        var sums = [UInt32](repeating: 0, count: 40)
        m.withUnsafeMutableBufferPointer { p in scratch.withUnsafeMutableBufferPointer { s in sums.withUnsafeMutableBufferPointer {
            MaskFilter.blur(p.baseAddress!, scratch: s.baseAddress!, sums: $0.baseAddress!, width: 40, height: 30, radius: 2)
        } } }
        let total = m.reduce(0) { $0 + Int($1) }
        #expect(abs(total - 16 * 255) < 16 * 255 / 10, "\(total)")
        #expect(m[15 * 40 + 23] > 0 && m[15 * 40 + 23] < 255, "soft beside the square")
        #expect(m[15 * 40 + 17] == m[14 * 40 + 22], "left and right mirror")
        #expect(m[12 * 40 + 20] == m[17 * 40 + 19], "top and bottom mirror")
        #expect(m[0] == 0)
    }
}
