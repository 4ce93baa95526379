/// Gradient: a linear (at an angle) or radial blend of two or three colours, opaque.
///
/// Audio: none (an animated base layer); the hue may drift slowly with media time. Colours are mixed in
/// float once per frame into a 1024-entry table; pixels look the table up, so the per-pixel cost is one
/// multiply-add (linear) or one square root (radial). The table holds 12-bit channels (8.4 fixed
/// point) and a 4×4 ordered dither picks the rounding per pixel, so slow dark gradients show no 8-bit
/// banding (their average colour is exact). Versus Marble's Metal original, which recomputed
/// the mix per pixel from wall-clock time: same picture, driven by media time so frames repeat.
import MarbleCore

public final class Gradient: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` only reads the table and geometry.
    public static let descriptor = ShaderDescriptor(
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
    /// Colours as four 16-bit lanes (R, G, B, A from the low end) of 8.4 fixed point, 0…4080.
    private let table = UnsafeMutablePointer<UInt64>.allocate(capacity: Gradient.tableSize)
    private let radial: Bool
    // Per frame: linear t = originT + x·stepX + y·stepY; radial t = |p − centre| · invRadius.
    private var originT: Float = 0, stepX: Float = 0, stepY: Float = 0
    private var centerX: Float = 0, centerY: Float = 0, invRadius: Float = 1

    static let opaqueBlack: UInt64 = 4080 << 48
    /// 4×4 Bayer thresholds 0…15, row by row.
    static let bayer: [UInt64] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]

    public init(parameters: ShaderParameters) throws {
        radial = parameters.choice("style") == "radial"
        table.initialize(repeating: Gradient.opaqueBlack, count: Gradient.tableSize)
    }

    deinit { table.deallocate() }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let w = Float(uniforms.width), h = Float(uniforms.height)
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
            func fixed(_ x: Float) -> UInt64 { UInt64(roundToInt32(clamp01(x) * 4080)) }
            table[i] = fixed(r) | fixed(g) << 16 | fixed(b) << 32 | Gradient.opaqueBlack
        }
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let width = target.width
        let scale = Float(Gradient.tableSize - 1)
        let table = self.table
        for y in rows {
            let dst = target.row32(y)
            // Pass 1 (vectorises): table index per pixel, parked in the row.
            if radial {
                let dy = Float(y) + 0.5 - centerY
                let dy2 = dy * dy
                for x in 0..<width {
                    let dx = Float(x) + 0.5 - centerX
                    let t = (dx * dx + dy2).squareRoot() * invRadius
                    dst[x] = UInt32(bitPattern: roundToInt32(clamp01(t) * scale))
                }
            } else {
                let rowT = originT + Float(y) * stepY
                for x in 0..<width {
                    let t = rowT + Float(x) * stepX
                    dst[x] = UInt32(bitPattern: roundToInt32(clamp01(t) * scale))
                }
            }
            // Pass 2: colour + this pixel's dither threshold in every lane, then the top 8 bits of each.
            let ones: UInt64 = 0x0001_0001_0001_0001
            let d0 = Self.bayer[(y & 3) * 4] &* ones, d1 = Self.bayer[(y & 3) * 4 + 1] &* ones
            let d2 = Self.bayer[(y & 3) * 4 + 2] &* ones, d3 = Self.bayer[(y & 3) * 4 + 3] &* ones
            for x in 0..<width {
                let dither = (x & 3) == 0 ? d0 : ((x & 3) == 1 ? d1 : ((x & 3) == 2 ? d2 : d3))
                let v = ((table[Int(dst[x] & 1023)] &+ dither) >> 4) & 0x00FF_00FF_00FF_00FF
                let low = UInt32(truncatingIfNeeded: v), high = UInt32(truncatingIfNeeded: v >> 32)
                dst[x] = (low & 0xFF) | ((low >> 8) & 0xFF00) | (high & 0xFF) << 16 | ((high >> 8) & 0xFF00) << 16
            }
        }
    }
}
