import MarbleCore

/// Gradient: a linear (at an angle) or radial blend of two or three colours, opaque.
///
/// Audio: none (an animated base layer); the hue may drift slowly with media time. Colours are mixed in
/// float once per frame into a 1024-entry table; pixels look the table up, so the per-pixel cost is one
/// multiply-add (linear) or one square root (radial). Versus Marble's Metal original, which recomputed
/// the mix per pixel from wall-clock time: same picture, driven by media time so frames repeat.
package final class Gradient: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` only reads the table and geometry.
    package static let descriptor = ShaderDescriptor(
        name: "gradient", summary: "Linear or radial gradient of two or three colours.", kind: .generator,
        isOpaque: true,
        parameters: [
            ParameterDescriptor("style", "linear runs along `angle`; radial grows from the centre.",
                                .choice(default: "linear", options: ["linear", "radial"])),
            ParameterDescriptor("from", "Colour at the start (linear) or centre (radial); alpha is ignored.",
                                .color(default: Color(parsing: "#0b1026")!)),
            ParameterDescriptor("to", "Colour at the end (linear) or rim (radial); alpha is ignored.",
                                .color(default: Color(parsing: "#3a1c71")!)),
            ParameterDescriptor("via", "Middle colour, used when use_via is true.",
                                .color(default: Color(parsing: "#d76d77")!)),
            ParameterDescriptor("use_via", "Blend through the middle colour.", .flag(default: false)),
            ParameterDescriptor("angle", "Direction of a linear gradient in degrees: 0 left→right, 90 top→bottom.",
                                .number(default: 90, range: 0...360)),
            ParameterDescriptor("center_x", "Radial centre, fraction of the width.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("center_y", "Radial centre, fraction of the height.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("radius", "Radial extent as a multiple of the half-diagonal.",
                                .number(default: 1, range: 0.05...4)),
            ParameterDescriptor("hue_drift", "Hue rotation speed in degrees per second (0: still).",
                                .number(default: 0, range: -90...90)),
        ])

    static let tableSize = 1024
    private let table = UnsafeMutablePointer<UInt32>.allocate(capacity: Gradient.tableSize)
    private let radial: Bool
    // Per frame: linear t = originT + x·stepX + y·stepY; radial t = |p − centre| · invRadius.
    private var originT: Float = 0, stepX: Float = 0, stepY: Float = 0
    /// This frame's width (whether a linear gradient is vertical depends on it).
    private var width = 0
    private var centerX: Float = 0, centerY: Float = 0, invRadius: Float = 1

    package init(parameters: ShaderParameters) throws {
        radial = parameters.choice("style") == "radial"
        table.initialize(repeating: 0xFF00_0000, count: Gradient.tableSize)
    }

    deinit { table.deallocate() }

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let w = Float(uniforms.width), h = Float(uniforms.height)
        width = uniforms.width
        if radial {
            centerX = parameters.number("center_x") * w
            centerY = parameters.number("center_y") * h
            let halfDiagonal = 0.5 * (w * w + h * h).squareRoot()
            invRadius = 1 / max(1, parameters.number("radius") * halfDiagonal)
        } else {
            let a = parameters.number("angle") * (Float.pi / 180)
            let dx = fastCos(a), dy = fastSin(a)
            // Extent of the frame projected on the direction: t spans exactly 0…1 corner to corner.
            let extent = max(1, abs(w * dx) + abs(h * dy))
            stepX = dx / extent
            stepY = dy / extent
            originT = 0.5 - (0.5 * w * dx + 0.5 * h * dy) / extent + 0.5 * (stepX + stepY)
        }
        fillTable(parameters, hue: wrapped(uniforms.time * Double(parameters.number("hue_drift")), period: 360))
    }

    private func fillTable(_ parameters: ShaderParameters, hue: Float) {
        let from = parameters.color("from"), to = parameters.color("to"), via = parameters.color("via")
        let useVia = parameters.flag("use_via")
        let rotation = HueRotation(degrees: hue)
        let last = Float(Gradient.tableSize - 1)
        for i in 0..<Gradient.tableSize {
            let t = Float(i) / last
            let c = useVia ? (t < 0.5 ? from.mixed(with: via, t * 2) : via.mixed(with: to, t * 2 - 1)) : from.mixed(with: to, t)
            let (r, g, b) = hue == 0 ? (c.red, c.green, c.blue) : rotation.apply(c.red, c.green, c.blue)
            table[i] = packOpaque(r, g, b)
        }
    }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let width = target.width
        let scale = Float(Gradient.tableSize - 1)
        // Read the stored properties once: inside the loops they would be re-checked per pixel.
        let table = self.table, radial = self.radial
        let centerX = self.centerX, centerY = self.centerY, invRadius = self.invRadius
        let originT = self.originT, stepX = self.stepX, stepY = self.stepY
        for y in rows {
            let dst = target.row32(y)
            if radial {
                let dy = Float(y) + 0.5 - centerY
                let dy2 = dy * dy
                // Eight pixels a step (the same arithmetic, lane for lane), then the rest.
                var x = 0
                while x + 8 <= width {
                    let dx = laneColumns(x) + 0.5 - centerX
                    let t = (dx * dx + dy2).squareRoot() * invRadius
                    storeLookups(table, roundToInt32(clamp01(t) * scale), to: dst + x)
                    x += 8
                }
                for x in x..<width {
                    let dx = Float(x) + 0.5 - centerX
                    let t = (dx * dx + dy2).squareRoot() * invRadius
                    dst[x] = table[Int(roundToInt32(clamp01(t) * scale))]
                }
            } else {
                let rowT = originT + Float(y) * stepY
                if abs(stepX) * Float(width) < 1e-3 {
                    // A vertical gradient (t changes < 0.1 % across the row): each row is one colour.
                    fillPixels(dst, width, table[Int(roundToInt32(clamp01(rowT) * scale))])
                } else {
                    var x = 0
                    while x + 8 <= width {
                        let t = rowT + laneColumns(x) * stepX
                        storeLookups(table, roundToInt32(clamp01(t) * scale), to: dst + x)
                        x += 8
                    }
                    for x in x..<width {
                        let t = rowT + Float(x) * stepX
                        dst[x] = table[Int(roundToInt32(clamp01(t) * scale))]
                    }
                }
            }
        }
    }

    /// A vertical linear gradient's rows are one colour each: the pixel `render` fills row `y` with.
    package func uniformRow(_ y: Int) -> UInt32? {
        guard !radial, abs(stepX) * Float(width) < 1e-3 else { return nil }
        let rowT = originT + Float(y) * stepY
        return table[Int(roundToInt32(clamp01(rowT) * Float(Gradient.tableSize - 1)))]
    }
}
