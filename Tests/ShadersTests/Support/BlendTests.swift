import MarbleCore
import Testing
@testable import Shaders

@Suite struct BlendTests {
    /// A translucent layer: valid premultiplied pixels with every alpha from 0 to 252.
    static func layer() -> Texture {
        let t = Texture(width: testWidth, height: testHeight)
        for y in 0..<testHeight {
            let row = t.view.row(y)
            for x in 0..<testWidth {
                let a = (x * 4 + y * 7) % 256
                row[x * 4] = UInt8(a * x / testWidth); row[x * 4 + 1] = UInt8(a / 2)
                row[x * 4 + 2] = UInt8(a * y / testHeight); row[x * 4 + 3] = UInt8(a)
            }
        }
        return t
    }

    /// A canvas with opaque, translucent and empty pixels.
    static func canvas() -> Texture {
        let t = testPicture(seed: 3)
        for y in 0..<testHeight where y % 5 == 0 {
            let row = t.view.row(y)
            for x in 0..<testWidth {
                let a = Int(row[x * 4 + 3]) * (x % 3) / 2
                for c in 0..<4 { row[x * 4 + c] = UInt8(Int(row[x * 4 + c]) * a / 255) }
            }
        }
        return t
    }

    /// Plain reference formulas in Double (premultiplied, 0…1).
    static func reference(_ s0: [Double], _ d: [Double], mode: BlendMode, opacity: Double) -> [Double] {
        let s = s0.map { $0 * opacity }
        return (0..<4).map { c in
            switch mode {
            case .normal: s[c] + d[c] * (1 - s[3])
            case .add: min(1, s[c] + d[c])
            case .screen: s[c] + d[c] - s[c] * d[c]
            case .multiply: s[c] * d[c] + s[c] * (1 - d[3]) + d[c] * (1 - s[3])
            }
        }
    }

    @Test(arguments: BlendMode.allCases, [1.0, 0.6, 0.0]) func matchesTheReference(_ mode: BlendMode, _ opacity: Double) {
        let layer = Self.layer(), canvas = Self.canvas()
        let expected = Reference.bytes(width: testWidth, height: testHeight) { x, y in
            let out = Self.reference(layer.pixel(x, y).map { Double($0) / 255 }, canvas.pixel(x, y).map { Double($0) / 255 },
                                     mode: mode, opacity: opacity)
            return Reference.pixel(out[0], out[1], out[2], out[3])
        }
        Blend.composite(layer: layer.view, onto: canvas.view, rows: 0..<testHeight, mode: mode, opacity: Float(opacity))
        let bytes = canvas.packedBytes()
        #expect(maxDifference(bytes, expected)!.difference <= 1, "\(describeDifference(bytes, expected, width: testWidth))")
        #expect(isPremultiplied(bytes))
        if opacity == 0.6 { Golden.check("blend-\(mode.rawValue)", bytes, width: testWidth, height: testHeight, tolerance: 0) }
    }

    @Test func transparentLayerAndZeroOpacityLeaveTheCanvas() {
        let canvas = Self.canvas(), before = canvas.packedBytes()
        let empty = Texture(width: testWidth, height: testHeight), layer = Self.layer()
        for mode in BlendMode.allCases {
            Blend.composite(layer: empty.view, onto: canvas.view, rows: 0..<testHeight, mode: mode, opacity: 1)
            Blend.composite(layer: layer.view, onto: canvas.view, rows: 0..<testHeight, mode: mode, opacity: 0)
        }
        let untouched = withExtendedLifetime((empty, layer)) { canvas.packedBytes() == before }
        #expect(untouched)
    }

    @Test func rowsOutsideTheRangeAreUntouchedAndStripsAgree() {
        // Textures own their memory: keep `layer` alive while its view is in use.
        let whole = Self.canvas(), split = Self.canvas(), before = whole.packedBytes(), layer = Self.layer()
        defer { withExtendedLifetime(layer) {} }
        Blend.composite(layer: layer.view, onto: whole.view, rows: 0..<testHeight, mode: .screen, opacity: 0.8)
        for lo in stride(from: 0, to: testHeight, by: 7) {
            Blend.composite(layer: layer.view, onto: split.view, rows: lo..<min(testHeight, lo + 7),
                            mode: .screen, opacity: 0.8)
        }
        let same = whole.packedBytes() == split.packedBytes()
        #expect(same, "\(describeDifference(whole.packedBytes(), split.packedBytes(), width: testWidth))")
        let partial = Self.canvas()
        Blend.composite(layer: layer.view, onto: partial.view, rows: 10..<12, mode: .add, opacity: 1)
        let bytes = partial.packedBytes(), rowBytes = testWidth * 4
        let above = bytes[..<(10 * rowBytes)] == before[..<(10 * rowBytes)]
        let below = bytes[(12 * rowBytes)...] == before[(12 * rowBytes)...]
        #expect(above && below)
        // Out-of-range rows are clipped, not a crash.
        Blend.composite(layer: layer.view, onto: partial.view, rows: -5..<1000, mode: .normal, opacity: 1)
    }
}
