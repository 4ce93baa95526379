import MarbleCore

/// Stars: a drifting, twinkling starfield that shows through the dark parts of the picture.
///
/// Three layers ("octaves") of stars: each layer halves the cell size, so it has four times as many,
/// dimmer, smaller stars that drift more slowly (parallax). Each cell holds at most one star, placed,
/// sized and phased by a hash of its cell index, so the field is a pure function of media time.
/// Each star is added once over the rows it touches (cost follows the star count, not the pixel count).
/// `mode` says where they show: `night` (the default) adds them to the picture weighted by how dark it
/// is (a night sky: bright in black areas, gone over bright ones), `behind` only where the picture is
/// transparent (the picture composited over them, over `space`). Audio: beats flash the stars
/// (brightness × (1 + `react` · 1.5 · beat pulse)) and swell them, the treble and the level brighten
/// them, the bass swells them. Star sizes and density are in proportion to the frame: the same sky at
/// 320x180 as at 3840x2160. Versus Marble's Metal original (a per-pixel fractal loop that ignored the
/// picture and covered it): the picture stays readable, stars fill what is dark or empty.
package final class Stars: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` only reads per-frame values.
    package static let descriptor = ShaderDescriptor(
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
    private var brightness: Float = 1, twinkle: Float = 0, time: Float = 0, swell: Float = 1
    /// Star radii in pixels per unit of size: in proportion to the frame height.
    private var radiusScale: Float = 1
    /// The smallest radius drawn, in pixels (smaller stars are drawn this big, dimmer).
    static let smallest: Float = 0.7
    private var space: UInt32 = 0
    private let behind: Bool
    /// Per layer, this frame's stars by cell (row-major, `columns[l]` per row): x, y, radius, light;
    /// radius < 0 for an empty cell. Filled in `prepare`, one hash per cell per frame (not per row).
    private var stars: [UnsafeMutablePointer<SIMD4<Float>>] = (0..<Stars.layers).map { _ in .allocate(capacity: 1) }
    private var capacity = [Int](repeating: 1, count: Stars.layers)
    private var columns = [Int](repeating: 0, count: Stars.layers)
    private var cellRows = [Int](repeating: 0, count: Stars.layers)

    package init(parameters: ShaderParameters) throws {
        behind = parameters.choice("mode") == "behind"
    }

    deinit { for p in stars { p.deallocate() } }

    /// Room for the smallest cells the density range allows (4), so `prepare` never allocates.
    package func configure(width: Int, height: Int) {
        let h = Float(max(1, height))
        for l in 0..<Self.layers {
            let size = max(3, 96 * h / 1080 / 2 / Float(1 << l))
            let needed = (Int(Float(width) / size) + 3) * (Int(h / size) + 3)
            guard needed > capacity[l] else { continue }
            stars[l].deallocate()
            stars[l] = .allocate(capacity: needed)
            capacity[l] = needed
        }
    }

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let drive = AudioDrive(uniforms.features)
        let w = Float(max(1, uniforms.width)), h = Float(max(1, uniforms.height))
        let base = 96 * h / 1080 / parameters.number("density").squareRoot()
        let react = parameters.number("react")
        brightness = 1 + react * (1.5 * drive.beat + 0.5 * min(1.5, drive.treble) + 0.8 * min(1, drive.level))
        swell = 1 + react * (0.35 * min(2, drive.bass) + 0.6 * drive.beat)
        radiusScale = 2.2 * h / 1080
        twinkle = parameters.number("twinkle")
        time = wrapped(uniforms.time, period: 3600)
        let spaceColor = parameters.color("space")
        space = packOpaque(spaceColor.red, spaceColor.green, spaceColor.blue)
        for l in 0..<Self.layers {
            let size = max(3, base / Float(1 << l))
            cellSize[l] = size
            // Drift left: nearer (bigger) layers faster. Exact in Double, split into whole cells + rest.
            let offset = uniforms.time * Double(parameters.number("speed")) * Double(24 * h / 1080) / Double(1 << l)
            let cells = (offset / Double(size)).isFinite ? Int(offset / Double(size)) : 0
            let shift = Float(offset - Double(cells) * Double(size))
            var cols = Int((w + shift) / size) + 2, rowCount = Int(h / size) + 2
            if cols * rowCount > capacity[l] { cols = 0; rowCount = 0 }   // not configured for this size: no stars
            columns[l] = cols; cellRows[l] = rowCount
            fillLayer(l, size: size, shift: shift, shiftCells: cells)
        }
    }

    /// One star per occupied cell of layer `l`: placed, sized and phased by a hash of its cell.
    private func fillLayer(_ l: Int, size: Float, shift: Float, shiftCells: Int) {
        let salt = UInt32(l) &* 0x68E3_1DA4, levelDim = (1 / Float(1 << l)).squareRoot()
        let table = stars[l], cols = columns[l]
        for r in 0..<cellRows[l] {
            for c in 0..<cols {
                let worldColumn = c + shiftCells
                let hv = Noise.hash(UInt32(truncatingIfNeeded: worldColumn) &* 0x9E37_79B1 ^ UInt32(r) &* 0x85EB_CA77 ^ salt)
                guard hv & 0xFF < 190 else { table[r * cols + c] = SIMD4(0, 0, -1, 0); continue }   // ~25 % empty
                let fy = Float((hv >> 8) & 0xFF) / 255, fx = Float((hv >> 16) & 0xFF) / 255
                let magnitude = Float(hv >> 24) / 255
                // Radius in proportion to the frame (pixels at 1080p × scale). Stars smaller than
                // `smallest` cannot be drawn smaller: as many of them show as their area allows (a
                // star of radius r at rest shows with odds (r / smallest)², drawn at `smallest`,
                // and a hash of the star, not the music, says which, so none blinks). The lit share
                // of the frame, and so the look, stays the same at every size, and the stars that
                // show stay bright.
                let rest = (0.6 + 1.2 * magnitude * magnitude) * (1.4 - 0.3 * Float(l)) * radiusScale
                let odds = min(1, rest * rest / (Self.smallest * Self.smallest))
                guard Float(Noise.hash(hv) & 0xFFFF) < odds * 65536 else { table[r * cols + c] = SIMD4(0, 0, -1, 0); continue }
                let drawn = max(rest * swell, Self.smallest)
                let phase = Float(hv & 0xFFFF) * 0.0001
                let flicker = 1 - twinkle * 0.5 * (1 + fastSin(time * (1.5 + 3 * magnitude) + phase))
                let light = min(1.5, (0.35 + 0.65 * magnitude) * levelDim * flicker * brightness)
                table[r * cols + c] = SIMD4((Float(c) + 0.15 + 0.7 * fx) * size - shift,
                                            (Float(r) + 0.15 + 0.7 * fy) * size, drawn, light)
            }
        }
    }

    /// Rows drawn together: their picture first, then each star once over the rows of the block it touches
    /// (the block stays in cache between the two; 32 rows of a 3840-pixel frame are 480 KB). One bit of
    /// the block's `UInt32` row mask per row, so the two cannot disagree.
    static let block = UInt32.bitWidth

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let width = min(target.width, source.width)
        var start = rows.lowerBound
        while start < rows.upperBound {
            let block = start..<min(rows.upperBound, start + Self.block)
            var starry: UInt32 = 0   // bit i: row block.lowerBound + i takes stars
            for y in block where picture(row: y, target: target, source: source, width: width) {
                starry |= 1 << UInt32(y - block.lowerBound)
            }
            if starry != 0 {
                for l in 0..<Self.layers { splat(layer: l, rows: block, starry: starry, into: target, width: width) }
                if behind {
                    for y in block where starry >> UInt32(y - block.lowerBound) & 1 != 0 {
                        Blend.normalRow(source.row32(y), target.row32(y), width, 255)
                    }
                }
            }
            start = block.upperBound
        }
    }

    /// Draws row `y` as it is before the stars; returns whether stars go on it. `night`: the picture
    /// (its transparent areas over `space`), stars on every row. `behind`: an opaque row is the picture,
    /// any other is `space`, for the stars and then the picture over them.
    private func picture(row y: Int, target: TextureView, source: TextureView, width: Int) -> Bool {
        let dst = target.row32(y)
        guard y < source.height, width > 0 else { fillPixels(dst, target.width, 0); return false }
        if width < target.width { fillPixels(dst + width, target.width - width, 0) }
        let src = source.row32(y)
        let opaque = copyPixels(src, dst, width)
        if behind {
            if opaque { return false }
            fillPixels(dst, width, space)
        } else if !opaque {
            for x in 0..<width {
                let p = src[x]
                dst[x] = p >> 24 == 0xFF ? p : Blend.pixel(p, onto: space, mode: .normal, opacity: 255)
            }
        }
        return true
    }

    /// Copies `count` pixels and says whether all of them are opaque (one pass over the source).
    @inline(__always)
    private func copyPixels(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>, _ count: Int) -> Bool {
        var alpha = SIMD8<UInt32>(repeating: 0xFF00_0000), x = 0
        while x + 8 <= count {
            let v = UnsafeRawPointer(src + x).loadUnaligned(as: SIMD8<UInt32>.self)
            UnsafeMutableRawPointer(dst + x).storeBytes(of: v, as: SIMD8<UInt32>.self)
            alpha &= v
            x += 8
        }
        var rest: UInt32 = 0xFF00_0000
        while x < count { rest &= src[x]; dst[x] = src[x]; x += 1 }
        return (alpha &>> 24).min() == 0xFF && rest >> 24 == 0xFF
    }

    /// Adds the stars of layer `l` to the rows of `rows` marked in `starry`, each star over the rows it
    /// touches. A row takes the stars of its own cell row and the two beside it whose disc (radius + 1)
    /// reaches its centre; every pixel takes them in the order layer, cell row, column, so the sums (and,
    /// at night, the darkness each star reads under it) do not depend on how the rows are split.
    private func splat(layer l: Int, rows: Range<Int>, starry: UInt32, into target: TextureView, width: Int) {
        let size = cellSize[l], cols = columns[l], table = stars[l]
        guard cols > 0 else { return }
        let first = max(0, cellRow(rows.lowerBound, size) - 1), end = min(cellRows[l], cellRow(rows.upperBound - 1, size) + 2)
        guard first < end else { return }
        let top = Float(rows.lowerBound), bottom = Float(rows.upperBound)
        for r in first..<end {
            let row = table + r * cols
            for c in 0..<cols {
                let star = row[c]
                let radius = star.z, reach = radius + 1
                guard radius >= 0 else { continue }
                // Rows whose centre can be within `reach` of the star's centre (a row more on each side).
                let from = max(top, (star.y - reach - 0.5).rounded(.down)), to = min(bottom, (star.y + reach).rounded(.up))
                guard from < to else { continue }
                for y in Int(from)..<Int(to) where starry >> UInt32(y - rows.lowerBound) & 1 != 0 {
                    let py = Float(y) + 0.5, dy = py - star.y
                    guard abs(cellRow(y, size) - r) <= 1, abs(dy) < reach else { continue }
                    add(star, dy: dy, into: target.row32(y), width: width)
                }
            }
        }
    }

    /// The cell row of pixel row `y`'s centre.
    @inline(__always) private func cellRow(_ y: Int, _ size: Float) -> Int { Int((Float(y) + 0.5) / size) }

    /// Adds one star to the pixels of one row it covers (`dy` from the star's centre to the row's);
    /// at night each is weighted by the darkness under it.
    @inline(__always)
    private func add(_ star: SIMD4<Float>, dy: Float, into dst: UnsafeMutablePointer<UInt32>, width: Int) {
        let radius = star.z, starX = star.x, light = star.w
        let x0 = max(0, Int(starX - radius - 1)), x1 = min(width, Int(starX + radius + 2))
        guard x0 < x1 else { return }
        for x in x0..<x1 {
            let dx = Float(x) + 0.5 - starX
            let d = (dx * dx + dy * dy).squareRoot()
            let core = clamp01(1 - d / (radius + 0.5))
            let v = light * core * core
            let gray = byte(v)
            // Stars are slightly blue-white: add (v, v, 1.1·v) saturating.
            var add = gray | gray << 8 | byte(v * 1.1) << 16
            if !behind {
                // Darkness 0…256 from the brightest channel under it: stars vanish over bright areas.
                let under = dst[x]
                let bright = max(under & 0xFF, (under >> 8) & 0xFF, (under >> 16) & 0xFF)
                add = scalePixel(add, UInt32(256) - min(256, bright * 2))
            }
            dst[x] = Blend.saturatingAdd(dst[x], add)
        }
    }
}
