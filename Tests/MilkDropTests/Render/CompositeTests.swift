import MarbleCore
@testable import MilkDrop
import Testing

@Suite("The composite: echo, gamma, tint, filters, scaling up")
struct CompositeTests {
    private func red(_ p: UInt32) -> UInt8 { UInt8(p & 0xFF) }
    private func alpha(_ p: UInt32) -> UInt8 { UInt8(p >> 24) }
    private func gray(_ w: Int, _ h: Int, _ level: (Int, Int) -> UInt8) -> Texture {
        let t = Texture(width: w, height: h)
        for y in 0..<h { for x in 0..<w { t.view.row32(y)[x] = RGBA8(r: level(x, y), g: level(x, y), b: level(x, y)).packed } }
        return t
    }

    private func composite(_ source: Texture, width: Int, height: Int, configure: (CompositePass) -> Void) -> Texture {
        let pass = CompositePass()
        pass.source = source.view
        for i in 0..<12 { pass.gain[i] = 1 }
        configure(pass)
        pass.prepareColumns(width: width)
        let out = Texture(width: width, height: height)
        pass.draw(into: out.view, rows: 0..<height)
        return out
    }

    @Test("gain 1 copies; gamma 2 doubles and saturates at white; output is opaque")
    func gamma() {
        let source = gray(32, 18) { x, _ in UInt8(x * 8) }
        let copy = composite(source, width: 32, height: 18) { _ in }
        #expect(copy.packedBytes() == source.packedBytes())
        let bright = composite(source, width: 32, height: 18) { p in for i in 0..<12 { p.gain[i] = 2 } }
        let row = bright.view.row32(5)
        #expect(red(row[10]) == 160)
        #expect(red(row[31]) == 255)
        #expect(alpha(row[31]) == 255)
    }

    @Test("an echo of weight ½ flipped left-right mixes the picture with its mirror image")
    func echo() {
        let source = gray(32, 18) { x, _ in x < 16 ? 200 : 0 }
        let out = composite(source, width: 32, height: 18) { p in
            p.echoAlpha = 128; p.echoZoom = 1; p.echoOrientation = 1
        }
        let row = out.view.row32(9)
        #expect(red(row[2]) == 100)
        #expect(red(row[29]) == 100)
        let none = composite(source, width: 32, height: 18) { p in p.echoAlpha = 0; p.echoOrientation = 1 }
        #expect(red(none.view.row32(9)[2]) == 200)
    }

    @Test("a half-size buffer is scaled up smoothly to the output")
    func scalingUp() {
        let source = gray(16, 9) { x, _ in x < 8 ? 0 : 240 }
        let out = composite(source, width: 32, height: 18) { _ in }
        let row = out.view.row32(4)
        #expect(red(row[0]) == 0 && red(row[31]) == 240)
        let middle = red(row[16])
        #expect(middle > 0 && middle < 240)   // interpolated across the edge, not a hard step
    }

    @Test("four pixels a step give the bytes of one at a time: scaled, echoed, tinted, filtered")
    func fourAtATime() {
        let source = Texture(width: 37, height: 21)
        var g = SystemRandomNumberGenerator()
        for y in 0..<21 { for x in 0..<37 { source.view.row32(y)[x] = UInt32.random(in: 0...UInt32.max, using: &g) | 0xFF00_0000 } }
        for (w, h) in [(37, 21), (80, 45)] {
            func run(_ filters: Filters) -> [UInt8] {
                composite(source, width: w, height: h) { p in
                    p.echoAlpha = 90; p.echoZoom = 1.3; p.echoOrientation = 3
                    for i in 0..<12 { p.gain[i] = 0.6 + Float(i) * 0.15 }
                    p.filters = filters
                }.packedBytes()
            }
            // The four-pixel path computes the filters, the one-pixel path (the tail of 37) looks them up.
            let invert = Filters(brighten: false, darken: false, solarize: false, invert: true)
            let plain = run(Filters()), inverted = run(invert)
            for i in plain.indices { #expect(Int(inverted[i]) == (i % 4 == 3 ? 255 : 255 - Int(plain[i]))) }
        }
    }

    /// The composite of one pixel as the definition has it: bilinear samples of the picture and of its
    /// echo read straight from the buffer (four texels each), mixed, tinted, filtered.
    private func reference(_ pass: CompositePass, x: Int, y: Int, width: Int, height: Int) -> UInt32 {
        let src = pass.source, sh = src.height
        let axis = TexelAxis(size: sh, wraps: false)
        let (y0, y1, ay) = axis.split(Int(((Float(y) + 0.5) * Float(sh) / Float(height) - 0.5) * 256))
        let ez = 1 / max(pass.echoZoom, 0.001)
        var ev = ((Float(y) + 0.5) / Float(height) - 0.5) * ez + 0.5
        if pass.echoOrientation >= 2 { ev = 1 - ev }
        let (ey0, ey1, eay) = axis.split(Int((ev * Float(sh) - 0.5) * 256))
        var p = PackedPixels.bilinear(src.row32(y0), src.row32(y1), Int(pass.mainX0[x]), Int(pass.mainX1[x]), pass.mainWeight[x], ay)
        if pass.echoAlpha > 0 {
            let q = PackedPixels.bilinear(src.row32(ey0), src.row32(ey1), Int(pass.echoX0[x]), Int(pass.echoX1[x]), pass.echoWeight[x], eay)
            p = PackedPixels.lerp(p, q, pass.echoAlpha)
        }
        let block = x / 32 * 32, end = min(width, block + 32)
        let edges = CompositePass.edgeGains(pass.gain, down: (Float(y) + 0.5) / Float(height))
        let (gr, gg, gb) = CompositePass.blockGains(edges, across: Float(block + end) * 0.5 / Float(width))
        guard !pass.filters.isIdentity else { return CompositePass.shade(p, gr, gg, gb, table: nil) }
        let table = (0..<256).map { UInt8(pass.filters.apply(UInt16($0))) }
        return table.withUnsafeBufferPointer { CompositePass.shade(p, gr, gg, gb, table: $0.baseAddress!) }
    }

    @Test("buffer rows filtered across once per strip give the bytes of four-texel bilinear samples, in strips of any size",
          arguments: [(37, 21, 80, 45), (40, 24, 61, 35), (64, 36, 64, 36), (64, 36, 40, 20), (37, 21, 37, 21)])
    func filteredRows(_ size: (Int, Int, Int, Int)) {
        let (sw, sh, w, h) = size
        let source = Texture(width: sw, height: sh)
        var g = SplitMix64(seed: 29)
        for y in 0..<sh { for x in 0..<sw { source.view.row32(y)[x] = UInt32(truncatingIfNeeded: g.next()) | 0xFF00_0000 } }
        let echoes: [(UInt32, Float, Int)] = [(0, 1, 0), (90, 1.3, 3), (200, 0.7, 1), (128, 2.4, 2)]
        for (alpha, zoom, orientation) in echoes {
            let pass = CompositePass()
            pass.source = source.view
            pass.echoAlpha = alpha; pass.echoZoom = zoom; pass.echoOrientation = orientation
            for i in 0..<12 { pass.gain[i] = 0.7 + Float(i) * 0.1 }
            pass.filters = Filters(brighten: orientation == 1, darken: false, solarize: orientation == 2, invert: false)
            pass.prepareColumns(width: w)
            // Uneven strips, drawn out of order (each strip starts with empty row slots).
            let out = Texture(width: w, height: h)
            for rows in [7..<h, 0..<1, 1..<7] { pass.draw(into: out.view, rows: rows) }
            var mismatches = 0
            for y in 0..<h { for x in 0..<w where out.view.row32(y)[x] != reference(pass, x: x, y: y, width: w, height: h) { mismatches += 1 } }
            #expect(mismatches == 0, "\(sw)x\(sh) → \(w)x\(h), echo \(alpha) × \(zoom) / \(orientation): \(mismatches) pixels differ")
        }
    }

    @Test("the filters as MilkDrop draws them: invert, darken, brighten, solarize")
    func filters() {
        func table(_ f: Filters) -> [Int] { (0..<256).map { Int(f.apply(UInt16($0))) } }
        let invert = table(Filters(brighten: false, darken: false, solarize: false, invert: true))
        #expect(invert[0] == 255 && invert[255] == 0 && invert[100] == 155)
        let darken = table(Filters(brighten: false, darken: true, solarize: false, invert: false))
        #expect(darken[128] == 64 && darken[255] == 255 && darken[0] == 0)
        let brighten = table(Filters(brighten: true, darken: false, solarize: false, invert: false))
        #expect(brighten[128] == 192 && brighten[0] == 0 && brighten[255] == 255)
        let solarize = table(Filters(brighten: false, darken: false, solarize: true, invert: false))
        #expect(solarize[0] == 0 && solarize[255] == 0 && (127...128).contains(solarize[128]))
        // Against the real-number formulas, rounded: never more than one level off.
        for c in 0..<256 {
            let x = Double(c) / 255
            #expect(abs(darken[c] - Int((x * x * 255).rounded())) <= 1)
            #expect(abs(solarize[c] - Int((2 * x * (1 - x) * 255).rounded())) <= 1)
        }
        // The lanes give the values one at a time gives.
        let all = Filters(brighten: true, darken: true, solarize: true, invert: true)
        var lanes = SIMD16<UInt16>()
        for start in stride(from: 0, to: 256, by: 16) {
            for k in 0..<16 { lanes[k] = UInt16(start + k) }
            let out = all.apply(lanes)
            for k in 0..<16 { #expect(out[k] == all.apply(UInt16(start + k))) }
        }
        #expect(Filters().isIdentity)
    }

    @Test("the four-pixel shade on 16-bit lanes gives one pixel's bytes for every channel value and gain, saturated and filtered")
    func shadeLanes() {
        let gains: [UInt32] = [0, 1, 127, 255, 256, 257, 300, 511, 512, 1000, 1023, 2047, 2048]
        let solarize = Filters(brighten: false, darken: false, solarize: true, invert: false)
        let table = (0..<256).map { UInt8(solarize.apply(UInt16($0))) }
        for gr in gains {
            for (gg, gb) in [(gains[(Int(gr) % 7) + 3], gr), (gr, 2048 - gr)] {
                let lane = CompositePass.laneGains(gr, gg, gb)
                for start in stride(from: 0, to: 256, by: 4) {
                    var pixels = SIMD4<UInt32>()
                    for k in 0..<4 {
                        let c = UInt32(start + k)
                        pixels[k] = c | ((255 - c) << 8) | (((c * 7) & 255) << 16) | 0xFF00_0000
                    }
                    let wide = PackedPixels4.wide(pixels)
                    let plain = CompositePass.shade4(wide, lane, filters: nil)
                    let filtered = CompositePass.shade4(wide, lane, filters: solarize)
                    table.withUnsafeBufferPointer { t in
                        for k in 0..<4 {
                            #expect(plain[k] == CompositePass.shade(pixels[k], gr, gg, gb, table: nil))
                            #expect(filtered[k] == CompositePass.shade(pixels[k], gr, gg, gb, table: t.baseAddress!))
                        }
                    }
                }
            }
        }
    }
}
