import Foundation
import MarbleCore
import Testing
@testable import Shaders

@Suite struct DriveTests {
    /// Plain reference in Double: sky gradient, striped sun disc, perspective grid with fog.
    static func reference(_ values: [String: ParameterValue], frame: Int, features f: AudioFeatures) throws -> [UInt8] {
        let p = try ShaderParameters(descriptor: Drive.descriptor, values: values)
        let w = Double(testWidth), h = Double(testHeight), time = Double(frame) / 30
        func fract(_ x: Double) -> Double { x - x.rounded(.down) }
        func smooth(_ a: Double, _ b: Double, _ x: Double) -> Double { let t = Reference.clamp01((x - a) / (b - a)); return t * t * (3 - 2 * t) }
        let bassSlow = min(3, max(0, Double(f.bassAttenuated))), beat = Reference.clamp01(Double(f.beatPulse))
        let level = min(1.5, max(0, Double(f.level)))
        let scroll = fract((time * Double(p.number("speed"))).truncatingRemainder(dividingBy: 1024) + Double(p.number("surge")) * bassSlow)
        let flash = 0.75 + 0.6 * beat, sunRadius = h * (0.2 + 0.03 * level), horizon = Double(p.number("horizon")) * h
        let top = Reference.premultiplied(p.color("sky_top")), low = Reference.premultiplied(p.color("sky_horizon"))
        let grid = Reference.premultiplied(p.color("grid_color"))
        let ground = [0.05 * low[0] + 0.02, 0.01, 0.06]
        return Reference.bytes(width: testWidth, height: testHeight) { x, y in
            let px = Double(x) + 0.5, py = Double(y) + 0.5, cx = w / 2
            if py < horizon {
                let t = Reference.clamp01(py / max(1, horizon))
                let sky = (0..<3).map { top[$0] + (low[$0] - top[$0]) * t * t }
                let dy = py - (horizon - sunRadius * 0.35)
                guard abs(dy) < sunRadius + 1 else { return Reference.pixel(sky[0], sky[1], sky[2], 1) }
                let below = Reference.clamp01(dy / sunRadius)
                let cut = dy > 0 ? smooth(0.55 - 0.5 * below, 0.6 - 0.5 * below, fract(dy / (sunRadius * 0.12))) : 1
                let sunT = Reference.clamp01(0.5 + 0.5 * dy / sunRadius)
                let sun = [1, 0.85 + (0.18 - 0.85) * sunT, 0.25 + (0.55 - 0.25) * sunT]
                let cover = Reference.clamp01(0.5 - (((px - cx) * (px - cx) + dy * dy).squareRoot() - sunRadius)) * cut
                let c = (0..<3).map { sky[$0] + (sun[$0] - sky[$0]) * cover }
                return Reference.pixel(c[0], c[1], c[2], 1)
            }
            let below = max(0.5, py - horizon), focal = h * 0.35
            let z = focal / below, dzdy = 2 * focal / (below * below)
            // A line's distance in pixels across it (the function's screen gradient), faded into its mean
            // coverage (2 × width − 1 pixels of a cell) where cells are narrower than 5 pixels, fully
            // below 2. Lines are 1.2 pixels wide at 1080p, in proportion above, never under 1 pixel.
            func crowding(_ g: Double) -> Double { Reference.clamp01((g - 0.2) / 0.3) }
            let width = max(1, 1.2 * h / 1080), coverage = 2 * width - 1
            var horizontal = Reference.clamp01(width - abs(fract(z * 2 + scroll + 0.5) - 0.5) / max(dzdy, 1e-4))
            horizontal += (min(1, coverage * dzdy) - horizontal) * crowding(dzdy)
            let fog = Reference.clamp01(below / (h - horizon) * 3)
            let xScale = z / focal * 4
            let gradient = xScale * (1 + ((px - cx) / below) * ((px - cx) / below)).squareRoot()
            var vertical = Reference.clamp01(width - abs(fract((px - cx) * xScale + 0.5) - 0.5) / max(gradient, 1e-4))
            vertical += (min(1, coverage * gradient) - vertical) * crowding(gradient)
            let line = Reference.clamp01((max(vertical, horizontal) + 0.15 * (1 - fog) * (vertical + horizontal)) * flash * fog)
            let c = (0..<3).map { ground[$0] + (grid[$0] - ground[$0]) * line }
            return Reference.pixel(c[0], c[1], c[2], 1)
        }
    }

    @Test(arguments: [0, 17]) func matchesTheReference(_ frame: Int) throws {
        let values: [String: ParameterValue] = ["horizon": .number(0.5)]
        let f = syntheticFeatures(frame: frame)
        let bytes = try Rig("drive", values).render(uniforms(frame: frame, features: f))
        let expected = try Self.reference(values, frame: frame, features: f)
        #expect(maxDifference(bytes, expected)!.difference <= 2, "\(describeDifference(bytes, expected, width: testWidth))")
    }

    /// Slanted grid lines towards the sides used to break into dots (each row's piece of a nearly flat
    /// line was as narrow as an upright line's), and the lines near the horizon into a moiré of dots.
    /// Counted as separate specks of line in the ground's left third: a continuous line is one speck.
    @Test("grid lines towards the sides stay continuous: few separate specks, not rows of dots")
    func slantedLinesAreContinuous() throws {
        let width = 640, height = 360
        let values: [String: ParameterValue] = ["horizon": .number(0.5), "sun": .flag(false)]
        let rig = try Rig("drive", values, width: width, height: height)
        let f = syntheticFeatures(frame: 0)
        let bytes = rig.render(uniforms(frame: 0, features: f, width: width, height: height))
        // Lit pixels (red well above the ground's) in the left third, from 10 rows below the horizon.
        let top = height / 2 + 10, right = width / 3
        var lit = [[Bool]](repeating: [Bool](repeating: false, count: right), count: height - top)
        for y in top..<height { for x in 0..<right { lit[y - top][x] = bytes[(y * width + x) * 4] > 70 } }
        var seen = lit.map { $0.map { _ in false } }, specks = 0
        for y0 in lit.indices { for x0 in 0..<right where lit[y0][x0] && !seen[y0][x0] {
            specks += 1
            var stack = [(y0, x0)]
            seen[y0][x0] = true
            while let (y, x) = stack.popLast() {
                for dy in -1...1 { for dx in -1...1 {
                    let ny = y + dy, nx = x + dx
                    guard ny >= 0, ny < lit.count, nx >= 0, nx < right, lit[ny][nx], !seen[ny][nx] else { continue }
                    seen[ny][nx] = true
                    stack.append((ny, nx))
                } }
            }
        } }
        #expect(specks > 0, "the grid is drawn")
        #expect(specks < 40, "\(specks) separate specks of grid line in the left third")
    }
}
