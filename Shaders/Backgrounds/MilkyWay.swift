import MarbleCore

/// M1lky way: the galactic band across a night sky — a diagonal glow of fbm star clouds split by
/// dark dust lanes, drifting along the band, over a field of twinkling stars.
///
/// Audio: the band glows with the level and swells on beats, the stars flare on beats, the dust lanes
/// part with the slow bass.
struct MilkyWay: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "m1lky_way", "The galactic band with dust lanes, stars twinkling on beats.", speed: 0.2, [
            ParameterDescriptor("tilt", "Angle of the band in degrees.", .number(default: 25, range: -90...90)),
        ])
    static let stops = ["#000105", "#0a0f24", "#2a2f57", "#7d6f9e", "#e8d6c8", "#ffffff"].compactMap(Color.init(parsing:))
    /// Point-like stars: full resolution at small sizes, coarser at 720p and 1080p.
    static let resolution = BackgroundResolution(coarsest: 4, budget: 180_000)

    private let noise = Noise.Sampler()
    private var drift: Float = 0, twinkle: Float = 0, c: Float = 1, s: Float = 0
    private var glow: Float = 1, dust: Float = 1, starLight: Float = 0.3, width: Float = 18, starSpread: Float = 0.01

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        let beat = frame.react * frame.drive.beat
        drift = frame.time * 0.25
        twinkle = wrapped(frame.mediaTime * Double(frame.speed) * 6, period: 1024)
        let a = parameters.number("tilt") * (Float.pi / 180)
        c = fastCos(a); s = fastSin(a)
        glow = 0.6 + 0.25 * frame.react * frame.drive.level + 0.4 * beat
        width = 18 / (1 + 0.5 * beat)
        dust = 1 - 0.2 * frame.react * min(2, frame.drive.bassSlow)
        starLight = 0.45 + 0.5 * beat
        let radius = min(0.12, max(0.06, 0.6 * frame.pixel * Self.starCells))
        starSpread = radius * radius
    }

    struct Row { var sy: Float, cy: Float, cellY: LaneInts, fy: Lanes }

    func row(_ y: Float) -> Row {
        let v = y * Self.starCells + 100, j = floorToInt32(v)
        return Row(sy: s * y, cy: c * y, cellY: LaneInts(repeating: j), fy: Lanes(repeating: v - Float(j)))
    }

    /// Star lattice cells across the frame height (a star in about a third of them).
    static let starCells: Float = 60

    func shade(_ x: Lanes, _ row: Row) -> Lanes {
        let along = c * x + row.sy + drift, across = -s * x + row.cy
        let clouds = noise.fbm(along * 3, across * 6, octaves: 4)
        let band = fastExp(-across * across * width)
        let lane = smoothstep(0.45, 0.7, noise.fbm(along * 5 + 9, across * 14, octaves: 2)) * dust
        // Stars: a round point in about a third of the lattice cells (kept 0.3 cell from the
        // border), at least a grid pixel across, each twinkling at its own phase.
        let u = x * Self.starCells + 100, i = floorToInt32(u)
        let px = 0.3 + 0.4 * noise.lattice(i, row.cellY), py = 0.3 + 0.4 * noise.lattice(i &+ 31, row.cellY &+ 17)
        let n = noise.lattice(i &+ 7, row.cellY &+ 59)
        let dx = u - lanesFloat(i) - px, dy = row.fy - py
        let star = Lanes(repeating: 0).replacing(with: fastExp(-(dx * dx + dy * dy) / starSpread), where: n .< 0.33)
        let flicker = 0.5 + 0.5 * fastSin(twinkle + n * 300) * (0.4 + n)
        let light: Lanes = glow * band * clouds * 1.1 * (1 - 0.8 * lane)
        return clamp01(light + 0.04 + starLight * star * flicker)
    }
}
