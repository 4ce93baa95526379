import MarbleCore
@testable import MilkDrop
import Testing

@Suite("Borders, darken centre and motion vectors")
struct BordersTests {
    @Test("an outer border of ob_size 0.2 covers 10 % of the width and height on each side; the inner one follows")
    func borders() {
        let c = Canvas(width: 100, height: 50)
        var list = MilkDrawList(width: 100, height: 50)
        Borders.build(Borders.Settings(outerSize: 0.2, outerColor: MilkColor(1, 0, 0, 1),
                                       innerSize: 0.1, innerColor: MilkColor(0, 1, 0, 1)), into: &list)
        c.draw(list)
        #expect(c.pixel(0, 25) == SIMD3(255, 0, 0) && c.pixel(9, 25) == SIMD3(255, 0, 0))
        #expect(c.pixel(50, 4) == SIMD3(255, 0, 0) && c.pixel(50, 45) == SIMD3(255, 0, 0))
        #expect(c.pixel(10, 25) == SIMD3(0, 255, 0) && c.pixel(14, 25) == SIMD3(0, 255, 0))
        #expect(c.pixel(15, 25) == SIMD3(0, 0, 0) && c.pixel(50, 25) == SIMD3(0, 0, 0))
        #expect(c.pixel(50, 5) == SIMD3(0, 255, 0) && c.pixel(50, 8) == SIMD3(0, 0, 0) ||
                c.pixel(50, 7).y > 0)
        // Invisible borders (alpha ≤ 0.001) add nothing to the list.
        var none = MilkDrawList(width: 100, height: 50)
        Borders.build(Borders.Settings(), into: &none)
        #expect(none.commandCount == 0)
    }

    @Test("darken centre darkens the middle by 3/32 and leaves the rest alone")
    func darkenCentre() {
        // 192×108: a diamond 0.05·54 = 2.7 px from centre to corner.
        let c = Canvas(width: 192, height: 108, fill: RGBA8(r: 200, g: 200, b: 200))
        var list = MilkDrawList(width: 192, height: 108)
        DarkenCenter.build(enabled: true, into: &list)
        c.draw(list)
        let centre = c.pixel(95, 53).x
        #expect(centre < 195 && centre >= 200 - 200 * 3 / 32 - 1)
        #expect(c.pixel(10, 10).x == 200 && c.pixel(96, 48).x == 200 && c.pixel(90, 53).x == 200)
        var off = MilkDrawList(width: 64, height: 36)
        DarkenCenter.build(enabled: false, into: &off)
        #expect(off.commandCount == 0)
    }

    @Test("motion vectors: mv_x × mv_y grid points, lines along the warp's displacement times mv_l")
    func motionVectors() {
        var s = MotionVectors.Settings(columns: 4, rows: 3, dx: 0, dy: 0, length: 1, color: MilkColor(1, 1, 1, 1))
        var list = MilkDrawList(width: 192, height: 108)
        MotionVectors.build(s, into: &list) { $0 }
        let still = Canvas(width: 192, height: 108)
        still.draw(list)
        // Without motion each vector is a stub (1/1280, 1/1280) long. With whole mv_x/mv_y the last column and row
        // land on 1.0 and are skipped (as in MilkDrop): 3 × 2 marks.
        #expect(list.vertexCount == 12)
        list.reset(width: 192, height: 108)
        MotionVectors.build(s, into: &list) { $0 + SIMD2(0.1, 0) }
        let moving = Canvas(width: 192, height: 108)
        moving.draw(list)
        // Each line now runs 0.1 × 192 = 19 px to the right of its grid point.
        #expect(moving.redSum > still.redSum * 5)
        let row = Int((0.25 / 2.25) * 108)
        let lit = (0..<192).filter { moving.pixel($0, row).x > 100 }
        #expect(lit.count >= 3 * 17, "\(lit)")
        s.color.w = 0
        list.reset(width: 192, height: 108)
        MotionVectors.build(s, into: &list) { $0 }
        #expect(list.commandCount == 0)
    }
}
