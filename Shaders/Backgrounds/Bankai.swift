import MarbleCore

/// Bankai: released spiritual pressure — a burst of flame-like streaks radiating from the centre,
/// flickering outwards, red and black.
///
/// Audio: the burst's reach grows with the level, beats flare it white-hot. Angles are sampled on a
/// circle (cos, sin), so the streaks have no seam.
struct Bankai: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "bankai", "Radiating burst of flame streaks flaring on beats.", speed: 1, [
            ParameterDescriptor("streaks", "Angular detail of the streaks.", .number(default: 6, range: 1...20)),
        ])
    static let stops = ["#000000", "#1a0000", "#6b0000", "#d01010", "#ff7a3a", "#ffffff"].compactMap(Color.init(parsing:))
    static let resolution = BackgroundResolution(scale: 4)

    private let noise = Noise.Sampler()
    private var t: Float = 0, streaks: Float = 6, reach: Float = 0.5, flare: Float = 0

    init(parameters: ShaderParameters) {}

    var paletteGain: Float { 1 + 0.3 * flare }

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        t = frame.time
        streaks = parameters.number("streaks")
        reach = 0.35 + 0.3 * frame.react * frame.drive.level
        flare = 0.5 * frame.react * frame.drive.beat
    }

    func row(_ y: Float) -> (y: Float, yy: Float) { (y, y * y) }

    func shade(_ x: Lanes, _ row: (y: Float, yy: Float)) -> Lanes {
        let flow = t * 1.5, coreGain = 0.6 + flare, k = streaks
        let r = (x * x + row.yy).squareRoot() + 1e-5
        let cx = x / r, cy = row.y / r
        // Noise along the ray flows outwards with time.
        let n = noise.fbm(cx * k + 13, cy * k + r * 3 - flow, octaves: 3)
        let flame = smoothstep(0.0, 1.0, (reach + 0.4 * n - r) * 3)
        let core = fastExp(-r * 10) * coreGain
        return flame * (0.5 + n) + core
    }
}
