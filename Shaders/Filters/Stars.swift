import MarbleCore

/// Stars: a drifting, twinkling starfield that shows through the dark parts of the picture.
///
/// Three layers ("octaves") of stars: each layer halves the cell size, so it has four times as many,
/// dimmer, smaller stars that drift more slowly (parallax). Each cell holds at most one star, placed,
/// sized and phased by a hash of its cell index, so the field is a pure function of media time.
/// Stars are splatted per row only where they are (cost follows the star count, not the pixel count).
/// `mode` says where they show: `night` (the default) adds them to the picture weighted by how dark it
/// is (a night sky: bright in black areas, gone over bright ones), `behind` only where the picture is
/// transparent (the picture composited over them, over `space`). Audio: beats flash the stars
/// (brightness × (1 + `react` · 1.5 · beat pulse)), the treble brightens them, the bass swells them. Versus Marble's Metal original (a per-pixel fractal loop that ignored the
/// picture and covered it): the picture stays readable, stars fill what is dark or empty.
public final class Stars: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` only reads per-frame values.
    public static let descriptor = ShaderDescriptor(
        name: "stars", summary: "Drifting starfield filling the picture's transparent areas.", kind: .filter,
        parameters: [
            ParameterDescriptor("density", "Star count multiplier.", .number(default: 1, range: 0.25...4)),
            ParameterDescriptor("speed", "Drift speed.", .number(default: 1, range: 0...8)),
            ParameterDescriptor("twinkle", "Twinkle depth.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("space", "Colour of empty space.", .color(default: Color(parsing: "#02030a")!)),
            ParameterDescriptor("react", "How much beats flash, treble twinkles and bass swells the stars.",
                                .number(default: 1, range: 0...4)),
            ParameterDescriptor("mode", "night: over the picture's dark areas; behind: only where it is transparent.",
                                .choice(default: "night", options: ["night", "behind"])),
        ])

    static let layers = 3
    private var cellSize = [Float](repeating: 64, count: Stars.layers)
    private var shiftCells = [Int](repeating: 0, count: Stars.layers)
    private var shiftPixels = [Float](repeating: 0, count: Stars.layers)
    private var brightness: Float = 1, twinkle: Float = 0, time: Float = 0, swell: Float = 1
    private var space: UInt32 = 0
    private let behind: Bool

    public init(parameters: ShaderParameters) throws {
        behind = parameters.choice("mode") == "behind"
    }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let drive = AudioDrive(uniforms.features)
        let h = Float(max(1, uniforms.height))
        let base = 96 * h / 1080 / parameters.number("density").squareRoot()
        for l in 0..<Self.layers {
            let size = max(3, base / Float(1 << l))
            cellSize[l] = size
            // Drift left: nearer (bigger) layers faster. Exact in Double, split into whole cells + rest.
            let offset = uniforms.time * Double(parameters.number("speed")) * Double(24 * h / 1080) / Double(1 << l)
            let cells = (offset / Double(size)).isFinite ? Int(offset / Double(size)) : 0
            shiftCells[l] = cells
            shiftPixels[l] = Float(offset - Double(cells) * Double(size))
        }
        let react = parameters.number("react")
        brightness = 1 + react * (1.5 * drive.beat + 0.5 * min(1.5, drive.treble))
        swell = 1 + react * 0.35 * min(2, drive.bass)
        twinkle = parameters.number("twinkle")
        time = wrapped(uniforms.time, period: 3600)
        let spaceColor = parameters.color("space")
        space = packOpaque(spaceColor.red, spaceColor.green, spaceColor.blue)
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let width = min(target.width, source.width)
        for y in rows {
            let dst = target.row32(y)
            guard y < source.height, width > 0 else { fillPixels(dst, target.width, 0); continue }
            let src = source.row32(y)
            if behind {
                var opaque: UInt32 = 0xFF00_0000
                for x in 0..<width { opaque &= src[x] }
                if opaque >> 24 == 0xFF {
                    dst.update(from: src, count: width)
                } else {
                    fillPixels(dst, width, space)
                    for l in 0..<Self.layers { splat(layer: l, row: y, into: dst, width: width) }
                    Blend.normalRow(src, dst, width, 255)
                }
            } else {
                // Night sky: the stars alone on black, then added to the picture scaled by its darkness
                // (transparent areas count as black, over `space`).
                fillPixels(dst, width, 0)
                for l in 0..<Self.layers { splat(layer: l, row: y, into: dst, width: width) }
                for x in 0..<width {
                    let p = src[x], star = dst[x]
                    let under = p >> 24 == 0xFF ? p : Blend.pixel(p, onto: space, mode: .normal, opacity: 255)
                    guard star & 0x00FF_FFFF != 0 else { dst[x] = under; continue }
                    // Darkness 0…256 from the picture's brightest channel: stars vanish over bright areas.
                    let bright = max(under & 0xFF, (under >> 8) & 0xFF, (under >> 16) & 0xFF)
                    let dark = UInt32(256) - min(256, bright * 2)
                    dst[x] = Blend.saturatingAdd(under, scalePixel(star, dark) & 0x00FF_FFFF)
                }
            }
            if width < target.width { fillPixels(dst + width, target.width - width, 0) }
        }
    }

    /// Adds the stars of one layer that touch row `y`.
    private func splat(layer l: Int, row y: Int, into dst: UnsafeMutablePointer<UInt32>, width: Int) {
        let size = cellSize[l], shift = shiftPixels[l], salt = UInt32(l) &* 0x68E3_1DA4
        let py = Float(y) + 0.5
        let cellRow = Int(py / size)
        let levelDim: Float = 1 / Float(1 << l)
        for r in max(0, cellRow - 1)...(cellRow + 1) {
            let lastColumn = Int((Float(width) + shift) / size) + 1
            for c in 0...lastColumn {
                let worldColumn = c + shiftCells[l]
                let h = Noise.hash(UInt32(truncatingIfNeeded: worldColumn) &* 0x9E37_79B1 ^ UInt32(r) &* 0x85EB_CA77 ^ salt)
                guard h & 0xFF < 150 else { continue }   // ~40 % of cells are empty
                let fy = Float((h >> 8) & 0xFF) / 255, fx = Float((h >> 16) & 0xFF) / 255
                let starY = (Float(r) + 0.15 + 0.7 * fy) * size
                let dy = py - starY
                let magnitude = Float(h >> 24) / 255
                let radius = (0.6 + 1.2 * magnitude * magnitude) * (1.4 - 0.3 * Float(l)) * max(1, size / 96) * swell
                guard abs(dy) < radius + 1 else { continue }
                let starX = (Float(c) + 0.15 + 0.7 * fx) * size - shift
                let phase = Float(h & 0xFFFF) * 0.0001
                let flicker = 1 - twinkle * 0.5 * (1 + fastSin(time * (1.5 + 3 * magnitude) + phase))
                let light = min(1.5, (0.35 + 0.65 * magnitude) * levelDim.squareRoot() * flicker * brightness)
                let x0 = max(0, Int(starX - radius - 1)), x1 = min(width, Int(starX + radius + 2))
                guard x0 < x1 else { continue }
                for x in x0..<x1 {
                    let dx = Float(x) + 0.5 - starX
                    let d = (dx * dx + dy * dy).squareRoot()
                    let core = clamp01(1 - d / (radius + 0.5))
                    let v = light * core * core
                    let gray = byte(v)
                    // Stars are slightly blue-white: add (v, v, 1.1·v) saturating.
                    let star = gray | gray << 8 | byte(v * 1.1) << 16
                    dst[x] = Blend.saturatingAdd(dst[x], star)
                }
            }
        }
    }
}
