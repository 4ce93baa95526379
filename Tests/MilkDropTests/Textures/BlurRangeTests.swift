@testable import MilkDrop
import Testing

@Suite("The blur levels' value ranges: made safe, encoded and decoded as MilkDrop does")
struct BlurRangeTests {
    @Test("the defaults: every level 0…1, stored as is, decoded as is")
    func standard() {
        let r = BlurRange.standard
        for level in 0..<3 {
            #expect(r.decode(level: level) == (1, 0))
            #expect(r.encode(level: level) == (1, 0))
        }
    }

    @Test("a later level is clipped to the one before; the encodings chain level to level")
    func nested() {
        let r = BlurRange(min: [0.5, 0.55, 0], max: [1, 0.75, 2])
        #expect(r.min == [0.5, 0.55, 0.55] && r.max == [1, 0.75, 0.75])
        // Level 1: (x − 0.5) / 0.5.
        #expect(r.encode(level: 0) == (2, -1))
        // Level 2 in level 1's stored units: 0.1…0.5 → scale 2.5, bias −0.25.
        let e2 = r.encode(level: 1)
        #expect(abs(e2.scale - 2.5) < 1e-5 && abs(e2.bias + 0.25) < 1e-5)
        // Level 3 = level 2's range: identity.
        let e3 = r.encode(level: 2)
        #expect(abs(e3.scale - 1) < 1e-5 && abs(e3.bias) < 1e-5)
        #expect(r.decode(level: 1).bias == 0.55 && abs(r.decode(level: 1).scale - 0.2) < 1e-6)
        // Round trip: 0.6 stored by level 1 then level 2, decoded by level 2.
        let e1 = r.encode(level: 0)
        let stored1: Float = 0.6 * e1.scale + e1.bias             // level 1 stores 0.2
        let stored2 = stored1 * e2.scale + e2.bias                 // level 2 stores 0.25
        let (scale, bias) = r.decode(level: 1)
        #expect(abs(stored2 * scale + bias - 0.6) < 1e-6)
    }

    @Test("a range narrower than 0.1 collapses to its centre − 0.05 (MilkDrop's slip), and so does every later one")
    func collapse() {
        let r = BlurRange(min: [0.3, 0, 0], max: [0.35, 1, 1])
        #expect(r.min[0] == r.max[0] && abs(r.min[0] - 0.275) < 1e-6)
        for level in 0..<3 {
            #expect(r.isCollapsed(level: level))
            #expect(r.decode(level: level).scale == 0)
            #expect(r.encode(level: level) == (0, 0))
        }
        // Only the third level collapsing leaves the first two alone.
        let third = BlurRange(min: [0, 0, 0.5], max: [1, 1, 0.52])
        #expect(!third.isCollapsed(level: 0) && !third.isCollapsed(level: 1) && third.isCollapsed(level: 2))
        #expect(third.encode(level: 1) == (1, 0))
    }

    @Test("values that are not finite count as the defaults")
    func nonFinite() {
        let r = BlurRange(min: [.nan, 0, -.infinity], max: [.infinity, .nan, 1])
        #expect(r == .standard)
    }
}
