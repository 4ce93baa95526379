import MarbleCore
import Testing
@testable import Shaders

@Suite struct AxisLabelsTests {
    /// Draws every row of `labels` onto a transparent `width` × `height` frame.
    static func drawn(_ labels: AxisLabels, width: Int, height: Int) -> [UInt32] {
        var pixels = [UInt32](repeating: 0, count: width * height)
        pixels.withUnsafeMutableBufferPointer { p in
            for y in 0..<height { labels.draw(NormalBlend.self, row: y, into: p.baseAddress! + y * width, width: width) }
        }
        return pixels
    }

    /// The box around every pixel with any alpha: (x0, y0, x1, y1), ends excluded.
    static func inkBox(_ pixels: [UInt32], width: Int) -> (Int, Int, Int, Int)? {
        var box: (Int, Int, Int, Int)?
        for (i, p) in pixels.enumerated() where p >> 24 != 0 {
            let x = i % width, y = i / width
            box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x + 1), max($0.3, y + 1)) } ?? (x, y, x + 1, y + 1)
        }
        return box
    }

    @Test("text and hairlines scale with the frame's height; under 7 pixels there is no text")
    func sizes() {
        #expect(AxisLabels.textSize(20, frameHeight: 1080) == 20)
        #expect(AxisLabels.textSize(20, frameHeight: 720) == 13)     // 13.3, rounded down
        #expect(AxisLabels.textSize(20, frameHeight: 378) == 7)
        #expect(AxisLabels.textSize(20, frameHeight: 377) == 0)      // 6.98: hidden, not blurry
        #expect(AxisLabels.textSize(20, frameHeight: 180) == 0)
        #expect(AxisLabels.lineWidth(frameHeight: 180) == 1 && AxisLabels.lineWidth(frameHeight: 1080) == 1)
        #expect(AxisLabels.lineWidth(frameHeight: 2160) == 2)
    }

    @Test("a label is centred on its anchor, white over a dark halo, on whole pixels")
    func placement() throws {
        let labels = try AxisLabels()
        labels.begin(width: 200, height: 100)
        let ink = try #require(labels.measure("1k", size: 20))
        #expect(labels.label("1k", size: 20, x: 100, y: 50, anchorX: 0.5, anchorY: 0.5))
        let pixels = Self.drawn(labels, width: 200, height: 100)
        // The halo reaches one pixel (20 / 14, rounded) past the ink on every side.
        let box = try #require(Self.inkBox(pixels, width: 200))
        let left = Int((100 - Float(ink.width) / 2).rounded()), top = Int((50 - Float(ink.height) / 2).rounded())
        #expect(box == (left - 1, top - 1, left + ink.width + 1, top + ink.height + 1), "\(box) ink \(ink)")
        // The brightest pixel is white ink (0.85 alpha over the halo); the halo alone is black.
        let brightest = pixels.max { ($0 & 0xFF) < ($1 & 0xFF) }!
        #expect(brightest & 0xFF >= 0xD8 && brightest & 0xFF == (brightest >> 8) & 0xFF)
        #expect(pixels.contains { $0 >> 24 > 0 && $0 & 0xFF_FFFF == 0 })
        #expect(labels.rows == (top - 1)..<(top + ink.height + 1))
    }

    @Test("a label the frame's edge would cut, one touching another, or one under 7 pixels is left out")
    func leftOut() throws {
        let labels = try AxisLabels()
        labels.begin(width: 200, height: 100)
        #expect(!labels.label("20k", size: 20, x: 3, y: 50, anchorX: 0.5, anchorY: 0.5))     // past the left edge
        #expect(!labels.label("20k", size: 20, x: 100, y: 99, anchorX: 0.5, anchorY: 0.5))   // past the bottom
        #expect(labels.isEmpty)
        #expect(labels.label("500", size: 20, x: 100, y: 50, anchorX: 0.5, anchorY: 0.5))
        #expect(!labels.label("1k", size: 20, x: 100, y: 58, anchorX: 0.5, anchorY: 0.5, gap: 2))   // overlaps
        #expect(labels.label("1k", size: 20, x: 100, y: 85, anchorX: 0.5, anchorY: 0.5, gap: 2))    // clear of it
        #expect(!labels.label("2k", size: 6, x: 30, y: 20, anchorX: 0.5, anchorY: 0.5))           // too small to read
        // A new layout starts empty.
        labels.begin(width: 200, height: 100)
        #expect(labels.isEmpty && labels.rows.isEmpty)
        #expect(Self.drawn(labels, width: 200, height: 100).allSatisfy { $0 == 0 })
    }

    @Test("a tick is a solid rectangle of whole pixels, clipped to the frame")
    func ticks() throws {
        let labels = try AxisLabels()
        labels.begin(width: 40, height: 20)
        labels.tick(x: -3, y: 5, width: 10, height: 1, color: 0xFFFF_FFFF)
        labels.tick(x: 38, y: 10, width: 5, height: 2, color: 0x8080_8080)
        let pixels = Self.drawn(labels, width: 40, height: 20)
        for y in 0..<20 {
            for x in 0..<40 {
                let expected: UInt32 = y == 5 && x < 7 ? 0xFFFF_FFFF : (y == 10 || y == 11) && x >= 38 ? 0x8080_8080 : 0
                #expect(pixels[y * 40 + x] == expected, "(\(x), \(y))")
            }
        }
        #expect(labels.rows == 5..<12)
    }
}
