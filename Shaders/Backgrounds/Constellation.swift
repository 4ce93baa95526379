import MarbleCore

/// Constellation: a night sky of stars joined into constellations by thin lines, the whole sky
/// turning slowly.
///
/// Stars sit one per cell of a square lattice, jittered. Each star may link to the star of the next
/// cell to the right and to the one below (a hash of the cell decides, `links` is the share kept), so
/// every line runs from a star to a star and a pixel only has four lines and five stars to look at:
/// a star's neighbours in its row and column. A horizontal link stays inside its row of cells (stars
/// keep 0.1 cell from the cell border), a vertical one inside its column. Lines are a fixed share of a
/// cell wide but never thinner than 1.5 grid pixels, with a one-pixel soft edge, so they stay smooth.
///
/// Audio: stars swell and flare on beats (the sky brightens with them), lines brighten with the level
/// and flash on beats.
struct Constellation: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "constellation", "Stars joined into constellations by thin lines, turning slowly.", speed: 0.2, [
            ParameterDescriptor("stars", "Stars across the frame height.", .number(default: 6, range: 2...20)),
            ParameterDescriptor("links", "Share of neighbouring stars joined by a line.", .number(default: 0.5, range: 0...1)),
        ])
    static let stops = ["#01020a", "#07122b", "#1b3566", "#5b8bd1", "#cfe3ff", "#ffffff"].compactMap(Color.init(parsing:))
    /// Thin lines: evaluated at full resolution at small sizes, a third at 720p, a quarter at 1080p.
    static let resolution = BackgroundResolution(coarsest: 5, budget: 170_000)

    private let noise = Noise.Sampler()
    private var stars: Float = 6, links: Float = 0.5, spread: Float = 0.002, line: Float = 0.2
    private var halfWidth: Float = 0.02, edge: Float = 0.01, flare: Float = 1
    private(set) var paletteGain: Float = 1
    private var c: Float = 1, s: Float = 0

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        stars = parameters.number("stars")
        links = parameters.number("links")
        let r = frame.react, beat = frame.drive.beat, level = min(1, frame.drive.level)
        let size = 0.045 * (1 + 0.8 * r * beat)
        spread = size * size
        flare = 1 + 0.4 * r * beat
        line = 0.22 + r * (0.35 * level - 0.08 + 0.3 * beat)
        paletteGain = 1 + r * (0.1 * level - 0.1 + 0.2 * beat)
        // One grid pixel in star-cell units: the soft edge, and the floor of the line's width.
        edge = max(frame.pixel * stars, 1e-4)
        halfWidth = max(0.012, 0.75 * edge)
        let turn = frame.time * 0.05
        c = fastCos(turn); s = fastSin(turn)
    }

    func row(_ y: Float) -> (sy: Float, cy: Float) { (s * y, c * y) }

    func shade(_ x: Lanes, _ row: (sy: Float, cy: Float)) -> Lanes {
        let k = stars
        let u = (c * x - row.sy) * k + 50, v = (s * x + row.cy) * k + 50
        let (nearest, segment) = Self.sky(u, v, links: links, noise)
        let glow = fastExp(-nearest * nearest / spread)
        let link = smoothstep(halfWidth + edge * 0.5, halfWidth - edge * 0.5, segment)
        let background = 0.04 + 0.04 * noise.value(u * 0.5, v * 0.5)
        return background + line * link + flare * glow
    }

    /// Distance from (x, y) (in cells) to the nearest star of its cell's row and column neighbours, and
    /// to the nearest line: the links from the left and to the right (the row), from above and to
    /// below (the column); 64 where no line is linked.
    @inline(__always) static func sky(_ x: Lanes, _ y: Lanes, links: Float, _ noise: Noise.Sampler) -> (Lanes, Lanes) {
        let i = floorToInt32(x), j = floorToInt32(y)
        let fx = x - lanesFloat(i), fy = y - lanesFloat(j)
        var cx = Lanes(), cy = Lanes(), lx = Lanes(), ly = Lanes(), rx = Lanes(), ry = Lanes()
        var ux = Lanes(), uy = Lanes(), dx = Lanes(), dy = Lanes()
        noise.forEachCell(i, j) { di, dj, hx, hy in
            let px = (Float(di) + 0.5) + 0.8 * (hx - 0.5) - fx
            let py = (Float(dj) + 0.5) + 0.8 * (hy - 0.5) - fy
            switch (di, dj) {
            case (0, 0): cx = px; cy = py
            case (-1, 0): lx = px; ly = py
            case (1, 0): rx = px; ry = py
            case (0, -1): ux = px; uy = py
            case (0, 1): dx = px; dy = py
            default: break
            }
        }
        // Star positions are relative to the pixel; the nearest of the five.
        var nearest = cx * cx + cy * cy
        nearest = pointwiseMin(nearest, pointwiseMin(lx * lx + ly * ly, rx * rx + ry * ry))
        nearest = pointwiseMin(nearest, pointwiseMin(ux * ux + uy * uy, dx * dx + dy * dy))
        // Which links exist: a hash per cell and direction.
        let far = Lanes(repeating: 64)
        let fromLeft = noise.lattice(i &- 1 &+ 17, j &+ 5) .< links, toRight = noise.lattice(i &+ 17, j &+ 5) .< links
        let fromAbove = noise.lattice(i &+ 29, j &- 1 &+ 43) .< links, toBelow = noise.lattice(i &+ 29, j &+ 43) .< links
        var d = far.replacing(with: segmentDistance(lx, ly, cx, cy), where: fromLeft)
        d = pointwiseMin(d, far.replacing(with: segmentDistance(cx, cy, rx, ry), where: toRight))
        d = pointwiseMin(d, far.replacing(with: segmentDistance(ux, uy, cx, cy), where: fromAbove))
        d = pointwiseMin(d, far.replacing(with: segmentDistance(cx, cy, dx, dy), where: toBelow))
        return (nearest.squareRoot(), d.squareRoot())
    }

    /// Squared distance from the origin to the segment a–b.
    @inline(__always) static func segmentDistance(_ ax: Lanes, _ ay: Lanes, _ bx: Lanes, _ by: Lanes) -> Lanes {
        let sx = bx - ax, sy = by - ay
        let h = clamp01(-(ax * sx + ay * sy) / lanesMax(sx * sx + sy * sy, Lanes(repeating: 1e-6)))
        let ex = ax + sx * h, ey = ay + sy * h
        return ex * ex + ey * ey
    }
}
