import MarbleCore

/// Constellation: a night sky of soft stars, neighbouring stars joined by faint lines, the whole sky
/// turning slowly.
///
/// Stars are the feature points of a cellular field (one per cell, jittered); each pixel finds its
/// nearest and second-nearest star and lights up near the segment joining them, which links every
/// star to its close neighbours. Audio: stars swell with the beat, lines brighten with the level.
struct Constellation: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "constellation", "Stars joined by faint lines, turning slowly.", speed: 0.2, [
            ParameterDescriptor("stars", "Stars across the frame height.", .number(default: 6, range: 2...20)),
        ])
    static let stops = ["#01020a", "#07122b", "#1b3566", "#5b8bd1", "#cfe3ff", "#ffffff"].compactMap(Color.init(parsing:))
    /// Hairlines: full resolution at small sizes, a third at 720p, 1/5 at 1080p (≈43 ns a pixel).
    static let resolution = BackgroundResolution(coarsest: 5, budget: 150_000)

    private let noise = Noise.Sampler()
    private var stars: Float = 6, spread: Float = 0.0025, line: Float = 0.2
    private var c: Float = 1, s: Float = 0

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        stars = parameters.number("stars")
        let size = 0.06 * (1 + 0.5 * frame.react * frame.drive.beat)
        spread = size * size
        line = 0.18 + 0.2 * frame.react * frame.drive.level
        let turn = frame.time * 0.05
        c = fastCos(turn); s = fastSin(turn)
    }

    func row(_ y: Float) -> (sy: Float, cy: Float) { (s * y, c * y) }

    func shade(_ x: Lanes, _ row: (sy: Float, cy: Float)) -> Lanes {
        let k = stars
        let u = (c * x - row.sy) * k, v = (s * x + row.cy) * k
        let (d1, d2, segment) = Self.nearestStars(u + 50, v + 50, noise)
        let glow = fastExp(-d1 * d1 / spread)
        let link = smoothstep(0.035, 0.01, segment) * smoothstep(1.6, 0.8, d1 + d2)
        let background = 0.04 + 0.04 * noise.value(u * 0.5, v * 0.5)
        return background + line * link + glow
    }

    /// ``nearestStars(_:_:)`` on eight points, select for select.
    @inline(__always) static func nearestStars(_ x: Lanes, _ y: Lanes, _ noise: Noise.Sampler) -> (Lanes, Lanes, Lanes) {
        let i = floorToInt32(x), j = floorToInt32(y)
        let fx = x - Lanes(i), fy = y - Lanes(j)
        var d1 = Lanes(repeating: 64), d2 = Lanes(repeating: 64)
        var ax = Lanes(repeating: 0), ay = Lanes(repeating: 0), bx = Lanes(repeating: 0), by = Lanes(repeating: 0)
        noise.forEachCell(i, j) { di, dj, hx, hy in
            let px = (Float(di) + 0.5) + 0.8 * (hx - 0.5)
            let py = (Float(dj) + 0.5) + 0.8 * (hy - 0.5)
            let ex = px - fx, ey = py - fy
            let d = ex * ex + ey * ey
            let nearer = d .< d1, second = .!nearer .& (d .< d2)
            bx = bx.replacing(with: px, where: second).replacing(with: ax, where: nearer)
            by = by.replacing(with: py, where: second).replacing(with: ay, where: nearer)
            d2 = d2.replacing(with: d, where: second).replacing(with: d1, where: nearer)
            ax = ax.replacing(with: px, where: nearer); ay = ay.replacing(with: py, where: nearer)
            d1 = d1.replacing(with: d, where: nearer)
        }
        // Distance from (fx, fy) to segment a–b.
        let sx = bx - ax, sy = by - ay
        let along: Lanes = (fx - ax) * sx + (fy - ay) * sy
        let h = clamp01(along / lanesMax(sx * sx + sy * sy, Lanes(repeating: 1e-6)))
        let ex = fx - ax - sx * h, ey = fy - ay - sy * h
        return (d1.squareRoot(), d2.squareRoot(), (ex * ex + ey * ey).squareRoot())
    }

    /// Distances to the nearest and second-nearest star (one per unit cell, jitter 0.8) and the
    /// distance from the point to the segment joining those two stars. The reference the lane version
    /// above is checked against, bit for bit (`LanesTests`); the shader itself draws with that one.
    @inline(__always) static func nearestStars(_ x: Float, _ y: Float) -> (Float, Float, Float) {
        let i = floorToInt32(x), j = floorToInt32(y)
        let fx = x - Float(i), fy = y - Float(j)
        var d1: Float = 64, d2: Float = 64
        var ax: Float = 0, ay: Float = 0, bx: Float = 0, by: Float = 0
        for dj: Int32 in -1...1 {
            for di: Int32 in -1...1 {
                let ci = i &+ di, cj = j &+ dj
                let px = Float(di) + 0.5 + 0.8 * (Noise.lattice(ci, cj) - 0.5)
                let py = Float(dj) + 0.5 + 0.8 * (Noise.lattice(cj &+ 91, ci &+ 37) - 0.5)
                let d = (px - fx) * (px - fx) + (py - fy) * (py - fy)
                let nearer = d < d1, second = !nearer && d < d2
                bx = nearer ? ax : (second ? px : bx); by = nearer ? ay : (second ? py : by)
                d2 = nearer ? d1 : (second ? d : d2)
                ax = nearer ? px : ax; ay = nearer ? py : ay
                d1 = nearer ? d : d1
            }
        }
        // Distance from (fx, fy) to segment a–b.
        let sx = bx - ax, sy = by - ay
        let h = clamp01(((fx - ax) * sx + (fy - ay) * sy) / max(sx * sx + sy * sy, 1e-6))
        let ex = fx - ax - sx * h, ey = fy - ay - sy * h
        return (d1.squareRoot(), d2.squareRoot(), (ex * ex + ey * ey).squareRoot())
    }
}
