import MarbleCore
import Testing
@testable import Shaders

@Suite struct WaveformTests {
    /// Plain reference: the trace at column edges, each column's widened extent, box-filter coverage.
    static func reference(_ values: [String: ParameterValue], features: AudioFeatures) throws -> [UInt8] {
        let p = try ShaderParameters(descriptor: Waveform.descriptor, values: values)
        let w = testWidth, h = Double(testHeight)
        func sample(_ s: [Float], _ position: Double) -> Double {
            guard s.count > 1 else { return s.count == 1 ? min(1, max(-1, Double(s[0]))) : 0 }
            let q = position * Double(s.count - 1)
            let i = min(s.count - 2, Int(q))
            return min(1, max(-1, Double(s[i]) + (Double(s[i + 1]) - Double(s[i])) * (q - Double(i))))
        }
        let zero = Double(p.number("center_y")) * h
        let gain = -Double(p.number("amplitude")) * Double(p.number("height")) * h / 2
        let half = max(0.5, Double(p.number("thickness")) * h / 1080 / 2)
        let edges = (0...w).map { e -> Double in
            let position = Double(e) / Double(w)
            let s: Double = switch p.choice("channel") {
            case "right": sample(features.waveformRight, position)
            case "mix": (sample(features.waveformLeft, position) + sample(features.waveformRight, position)) / 2
            default: sample(features.waveformLeft, position)
            }
            return zero + gain * s
        }
        let color = Reference.premultiplied(p.color("color"))
        let strength = Double(p.number("glow")), r2 = (half * 6) * (half * 6)
        return Reference.bytes(width: testWidth, height: testHeight) { x, y in
            let a = edges[x], b = edges[x + 1]
            let widen = half * (1 + (b - a) * (b - a)).squareRoot()
            let top = min(a, b) - widen, bottom = max(a, b) + widen
            let coverage = Reference.clamp01(min(Double(y) + 1, bottom) - max(Double(y), top))
            var alpha = coverage
            switch p.choice("style") {
            case "glow":
                let c = Double(y) + 0.5
                let d = max(0, top - c, c - bottom)
                alpha = coverage + (1 - coverage) * strength * r2 / (r2 + 4 * d * d)
            case "fill":
                let t = (a + b) / 2
                let under = Reference.clamp01(min(Double(y) + 1, max(t, zero)) - max(Double(y), min(t, zero)))
                alpha = coverage + (1 - coverage) * under * strength
            default: break
            }
            return Reference.pixel(color[0] * alpha, color[1] * alpha, color[2] * alpha, color[3] * alpha)
        }
    }

    static let cases: [(String, [String: ParameterValue])] = [
        ("waveform", [:]),
        ("waveform-glow-thick", ["style": .text("glow"), "thickness": .number(20), "color": .text("#40ff80")]),
        ("waveform-fill-right", ["style": .text("fill"), "channel": .text("right"), "amplitude": .number(2),
                                 "center_y": .number(0.7)]),
        ("waveform-mix", ["channel": .text("mix"), "thickness": .number(1)]),
    ]

    @Test(arguments: 0..<cases.count) func matchesTheReference(_ index: Int) throws {
        let (name, values) = Self.cases[index]
        let rig = try Rig("waveform", values)
        for frame in [0, 7] {
            let f = syntheticFeatures(frame: frame)
            let bytes = rig.render(uniforms(frame: frame, features: f))
            let expected = try Self.reference(values, features: f)
            #expect(maxDifference(bytes, expected)!.difference <= 2, "\(name) frame \(frame): \(describeDifference(bytes, expected, width: testWidth))")
            if frame == 7 { Golden.check(name, bytes, width: testWidth, height: testHeight) }
        }
    }

    @Test func silenceIsAFlatLineAtTheZeroLine() throws {
        let bytes = try Rig("waveform").render(frame: 0, loudness: 0)
        for y in 0..<testHeight {
            let alpha = bytes[(y * testWidth + 10) * 4 + 3]
            if abs(Double(y) + 0.5 - Double(testHeight) / 2) > 2 { #expect(alpha == 0, "row \(y)") }
        }
        #expect(bytes[((testHeight / 2) * testWidth + 10) * 4 + 3] > 0)
    }

    @Test func amplitudeSpreadsTheTrace() throws {
        func rowsUsed(_ bytes: [UInt8]) -> Int {
            (0..<testHeight).filter { y in (0..<testWidth).contains { bytes[(y * testWidth + $0) * 4 + 3] > 0 } }.count
        }
        let quiet = try Rig("waveform", ["amplitude": .number(0.3)]).render(frame: 2)
        let loud = try Rig("waveform", ["amplitude": .number(1.5)]).render(frame: 2)
        #expect(rowsUsed(loud) > rowsUsed(quiet))
    }
}
