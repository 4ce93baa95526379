import MarbleCore

/// Bankai: released spiritual pressure — a burst of flame-like streaks radiating from the centre,
/// flickering outwards, red and black with a hot yellow-white core.
///
/// Audio: the burst's reach grows with the level, beats flare it hotter and further. The flame's heat
/// is tone-mapped (linear, then a soft knee that never passes the palette's end) and the hottest
/// colour is a pale yellow, so loud passages brighten the burst without clipping a large area to
/// white. Angles are sampled on a circle (cos, sin), so the streaks have no seam.
struct Bankai: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "bankai", "Radiating burst of flame streaks flaring on beats.", speed: 1, [
            ParameterDescriptor("streaks", "Angular detail of the streaks.", .number(default: 6, range: 1...20)),
        ])
    static let stops = ["#000000", "#1a0000", "#6b0000", "#d01010", "#ff7a3a", "#ffe2a8"].compactMap(Color.init(parsing:))
    /// Fine streaks: full resolution at small sizes, a third at 720p, a quarter at 1080p (≈26 ns a pixel).
    static let resolution = BackgroundResolution(coarsest: 4, budget: 200_000)

    private let noise = Noise.Sampler()
    private var t: Float = 0, streaks: Float = 6, reach: Float = 0.5, flare: Float = 0

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        t = frame.time
        streaks = parameters.number("streaks")
        flare = 0.5 * frame.react * frame.drive.beat
        reach = 0.3 + 0.25 * frame.react * frame.drive.level + 0.12 * flare
    }

    func row(_ y: Float) -> (y: Float, yy: Float) { (y, y * y) }

    func shade(_ x: Lanes, _ row: (y: Float, yy: Float)) -> Lanes {
        let flow = t * 1.5, coreGain = 0.55 + flare, k = streaks
        let r = (x * x + row.yy).squareRoot() + 1e-5
        let cx = x / r, cy = row.y / r
        // Noise along the ray flows outwards with time.
        let n = noise.fbm(cx * k + 13, cy * k + r * 3 - flow, octaves: 3)
        let flame = smoothstep(0.0, 1.0, (reach + 0.4 * n - r) * 3)
        let core = fastExp(-r * 10) * coreGain
        let heat = flame * (0.15 + 0.95 * n) * (1 + 0.5 * flare) + core
        // Tone map: linear up to a knee, then 1 − e^(−x) towards the palette's pale end, never past it,
        // so the reds keep their contrast and only the hottest streaks and the core turn pale yellow.
        let over = lanesMax(heat - 0.72, Lanes(repeating: 0))
        return heat.replacing(with: 0.72 + 0.26 * (1 - fastExp(-over / 0.26)), where: heat .> 0.72)
    }
}
