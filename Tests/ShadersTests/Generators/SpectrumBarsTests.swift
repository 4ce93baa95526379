import MarbleCore
import Testing
@testable import Shaders

@Suite struct SpectrumBarsTests {
    /// Issue 12, defect 7: bands that never rose drew their caps on the base line (blobs on the centre
    /// line of mirrored bars, a dotted line under plain ones).
    @Test(arguments: [false, true]) func silentBandsDrawNoCaps(mirror: Bool) throws {
        let rig = try Rig("bars", ["mirror": .flag(mirror)])
        let silent = AudioFeatures(bandCount: 64, waveformLength: 256)
        let bytes = rig.render(uniforms(frame: 0, features: silent))
        #expect(bytes.allSatisfy { $0 == 0 }, "ink in a silent frame")
        // A band that rose and fell keeps its cap, above the base line.
        var fallen = silent
        fallen.bandPeaks[10] = 0.5
        let capped = rig.render(uniforms(frame: 0, features: fallen))
        #expect(capped.contains { $0 != 0 })
    }

    /// Plain reference: every bar's signed-distance coverage at every pixel, summed with saturation.
    static func reference(_ values: [String: ParameterValue], features: AudioFeatures) throws -> [UInt8] {
        let p = try ShaderParameters(descriptor: SpectrumBars.descriptor, values: values)
        let w = Double(testWidth), h = Double(testHeight)
        let count = p.integer("count"), mirror = p.flag("mirror"), rounded = p.flag("rounded")
        let slot = w / Double(count)
        let halfW = max(0.5, slot * (1 - Double(p.number("gap"))) * 0.5)
        let maxH = Double(p.number("height")) * (mirror ? h / 2 : h)
        let base = mirror ? h / 2 : h
        let capHalf = max(1, h * 0.004)
        let scale = Double(p.number("height_scale"))
        let levels = Reference.resample(features.bands, count: count)
        let peakLevels = Reference.resample(features.bandPeaks, count: count)
        let bottom = Reference.premultiplied(p.color("bottom_color")), top = Reference.premultiplied(p.color("top_color"))
        let cap = Reference.premultiplied(p.color("peak_color"))
        return Reference.bytes(width: testWidth, height: testHeight) { x, y in
            let py = Double(y) + 0.5
            let v = mirror ? abs(base - py) : base - py
            let t = Reference.clamp01(v / maxH)
            let barColor = (0..<4).map { bottom[$0] + (top[$0] - bottom[$0]) * t }
            var sum = [0.0, 0, 0, 0]
            for i in 0..<count {
                let u = abs(Double(x) + 0.5 - (Double(i) + 0.5) * slot)
                let height = Reference.clamp01(levels[i] * scale) * maxH
                let peakLevel = Reference.clamp01(peakLevels[i] * scale)
                let peak = max(height, peakLevel * maxH)
                var distance = max(u - halfW, v - height)
                if rounded {
                    let r = min(halfW, max(height, 0.5))
                    let qx = u - (halfW - r), qy = v - (height - r)
                    if qx > 0 && qy > 0 { distance = (qx * qx + qy * qy).squareRoot() - r }
                }
                let barCoverage = Reference.clamp01(0.5 - distance)
                let capCoverage = p.flag("peaks") && peakLevel > 0.02
                    ? Reference.clamp01(0.5 - max(u - halfW, abs(v - (peak + capHalf)) - capHalf)) : 0
                for c in 0..<4 {
                    sum[c] = min(1, sum[c] + barColor[c] * barCoverage * (1 - capCoverage) + cap[c] * capCoverage)
                }
            }
            return Reference.pixel(sum[0], sum[1], sum[2], sum[3])
        }
    }

    static let cases: [(String, [String: ParameterValue])] = [
        ("bars", [:]),
        ("bars-mirror-rounded", ["mirror": .flag(true), "rounded": .flag(true), "count": .number(12), "gap": .number(0.4)]),
        ("bars-many-no-gap", ["count": .number(40), "gap": .number(0), "peaks": .flag(false), "height_scale": .number(2)]),
        ("bars-touching-mirrored", ["count": .number(8), "gap": .number(0), "mirror": .flag(true), "height_scale": .number(1.5)]),
    ]

    @Test(arguments: 0..<cases.count) func matchesTheReference(_ index: Int) throws {
        let (name, values) = Self.cases[index]
        let rig = try Rig("bars", values)
        for frame in [0, 13] {
            let f = syntheticFeatures(frame: frame)
            let bytes = rig.render(uniforms(frame: frame, features: f))
            let expected = try Self.reference(values, features: f)
            #expect(maxDifference(bytes, expected)!.difference <= 3, "\(name) frame \(frame): \(describeDifference(bytes, expected, width: testWidth))")
            if frame == 13 { Golden.check(name, bytes, width: testWidth, height: testHeight) }
        }
    }

    /// Lit pixels in the columns of bar `bar` of `count`.
    static func litPixels(_ bytes: [UInt8], bar: Int, count: Int) -> Int {
        let slot = testWidth / count
        var lit = 0
        for y in 0..<testHeight {
            for x in (bar * slot)..<((bar + 1) * slot) where bytes[(y * testWidth + x) * 4 + 3] > 128 { lit += 1 }
        }
        return lit
    }

    @Test func louderBandGivesTallerBar() throws {
        let rig = try Rig("bars", ["count": .number(8), "peaks": .flag(false)])
        var previous = -1
        for level: Float in [0, 0.2, 0.5, 0.9] {
            var f = AudioFeatures(bandCount: 64, waveformLength: 16)
            for i in 16..<24 { f.bands[i] = level }   // bar 2 of 8
            let bytes = rig.render(uniforms(frame: 0, features: f))
            let lit = Self.litPixels(bytes, bar: 2, count: 8)
            #expect(lit > previous, "level \(level)")
            #expect(Self.litPixels(bytes, bar: 5, count: 8) == 0)
            previous = lit
        }
    }

    @Test func silenceDrawsNothingAndHeightScaleScales() throws {
        #expect(brightness(try Rig("bars", ["peaks": .flag(false)]).render(frame: 3, loudness: 0)) == 0)
        let low = try Rig("bars", ["height_scale": .number(0.5)]).render(frame: 3)
        let high = try Rig("bars", ["height_scale": .number(1.5)]).render(frame: 3)
        #expect(brightness(high) > brightness(low))
    }

    @Test func peakCapsFollowBandPeaks() throws {
        var f = AudioFeatures(bandCount: 8, waveformLength: 16)
        f.bandPeaks[3] = 0.75
        let bytes = try Rig("bars", ["count": .number(8)]).render(uniforms(frame: 0, features: f))
        // The cap of bar 3 sits at 75 % of the 80 % drawing height above the bottom.
        let capRow = Int(Double(testHeight) * (1 - 0.75 * 0.8)) - 1
        let x = testWidth * 7 / 16
        #expect(bytes[(capRow * testWidth + x) * 4 + 3] > 100)
        #expect(bytes[((testHeight - 1) * testWidth + x) * 4 + 3] == 0)
    }
}
