import Foundation
import MarbleCore
import Testing
@testable import Shaders

@Suite struct GradientTests {
    /// Plain reference: t from the pixel centre, colour mixed in Double, hue rotated about the grey axis.
    static func reference(_ values: [String: ParameterValue], time: Double) throws -> [UInt8] {
        let p = try ShaderParameters(descriptor: Gradient.descriptor, values: values)
        let w = Double(testWidth), h = Double(testHeight)
        let from = p.color("from"), to = p.color("to"), via = p.color("via")
        let hue = (time * Double(p.number("hue_drift"))).truncatingRemainder(dividingBy: 360) * .pi / 180
        return Reference.bytes(width: testWidth, height: testHeight) { x, y in
            let px = Double(x) + 0.5, py = Double(y) + 0.5
            var t: Double
            if p.choice("style") == "radial" {
                let cx = Double(p.number("center_x")) * w, cy = Double(p.number("center_y")) * h
                t = ((px - cx) * (px - cx) + (py - cy) * (py - cy)).squareRoot()
                    / (Double(p.number("radius")) * 0.5 * (w * w + h * h).squareRoot())
            } else {
                let a = Double(p.number("angle")) * .pi / 180
                let extent = abs(w * cos(a)) + abs(h * sin(a))
                t = 0.5 + ((px - w / 2) * cos(a) + (py - h / 2) * sin(a)) / extent
            }
            t = Reference.clamp01(t)
            let c: Color = p.flag("use_via")
                ? (t < 0.5 ? from.mixed(with: via, Float(t * 2)) : via.mixed(with: to, Float(t * 2 - 1)))
                : from.mixed(with: to, Float(t))
            var rgb = [Double(c.red), Double(c.green), Double(c.blue)]
            if hue != 0 {
                let cs = cos(hue), sn = sin(hue), k = (1 - cs) / 3, r = sn * (1.0 / 3).squareRoot()
                rgb = [(cs + k) * rgb[0] + (k - r) * rgb[1] + (k + r) * rgb[2],
                       (k + r) * rgb[0] + (cs + k) * rgb[1] + (k - r) * rgb[2],
                       (k - r) * rgb[0] + (k + r) * rgb[1] + (cs + k) * rgb[2]]
            }
            return Reference.pixel(rgb[0], rgb[1], rgb[2], 1)
        }
    }

    static let cases: [(String, [String: ParameterValue])] = [
        ("gradient-linear", [:]),
        ("gradient-linear-diagonal-via", ["angle": .number(30), "use_via": .flag(true)]),
        ("gradient-radial", ["style": .text("radial"), "center_x": .number(0.3), "radius": .number(0.7),
                             "from": .text("#ffffff"), "to": .text("#000040")]),
        ("gradient-drift", ["hue_drift": .number(45), "angle": .number(200), "from": .text("#ff0000"), "to": .text("#00ff80")]),
    ]

    @Test(arguments: 0..<cases.count) func matchesTheReference(_ index: Int) throws {
        let (name, values) = Self.cases[index]
        let rig = try Rig("gradient", values)
        for frame in [0, 47] {
            let bytes = rig.render(frame: frame)
            let expected = try Self.reference(values, time: Double(frame) / 30)
            #expect(maxDifference(bytes, expected)!.difference <= 2, "\(name) frame \(frame): \(describeDifference(bytes, expected, width: testWidth))")
            if frame == 47 { Golden.check(name, bytes, width: testWidth, height: testHeight) }
        }
    }

    @Test func hueDriftMovesWithMediaTimeOnly() throws {
        let rig = try Rig("gradient", ["hue_drift": .number(30)])
        let drifted = rig.render(frame: 0) != rig.render(frame: 60)
        #expect(drifted)
        let still = try Rig("gradient")
        let same = still.render(frame: 0) == still.render(frame: 60)
        #expect(same)
    }
}
