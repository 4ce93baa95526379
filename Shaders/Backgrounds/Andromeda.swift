import MarbleCore

/// Andromeda: a spiral galaxy — spiral arms of fbm dust around a bright core, turning. The arms wind
/// linearly with radius (Archimedean), cheaper than a logarithmic spiral and alike at this scale.
///
/// The dust is sampled in the galaxy's own turning frame, so the whole disc visibly rotates (a turn
/// in half a minute at the default speed). Audio: the core glows with the level, the arms brighten with
/// the slow bass; each beat flashes the core and sends a bright ring out through the disc (its radius
/// follows the decaying beat pulse). k·θ with whole k is continuous across ±π, so the arms have no seam.
struct Andromeda: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "andromeda", "Turning spiral galaxy, its core flashing a ring out on beats.", speed: 0.4, [
            ParameterDescriptor("arms", "Number of spiral arms.", .integer(default: 2, range: 1...6)),
            ParameterDescriptor("twist", "How tightly the arms wind.", .number(default: 3, range: 0.5...8)),
        ])
    static let stops = ["#000004", "#120a2e", "#3a2a7a", "#8a6fd1", "#f0d9ff", "#fff6e0"].compactMap(Color.init(parsing:))
    /// Smooth field: 1/6 resolution is enough.
    static let resolution = BackgroundResolution(scale: 6)

    private let noise = Noise.Sampler()
    private let arms: Float, twist: Float
    private var spin: Float = 0, cosS: Float = 1, sinS: Float = 0, dustFlow: Float = 0
    private var core: Float = 1, armLight: Float = 1, ring: Float = 0, ringRadius: Float = 0.1
    private(set) var paletteGain: Float = 1

    init(parameters: ShaderParameters) {
        arms = Float(parameters.integer("arms")); twist = parameters.number("twist")
    }

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        let beat = frame.react * frame.drive.beat
        spin = wrapped(Double(frame.time) * 0.5, period: 2 * Double.pi)
        cosS = fastCos(spin); sinS = fastSin(spin)
        dustFlow = frame.time * 0.05
        core = 0.6 + 0.4 * frame.react * frame.drive.level + 0.7 * beat
        armLight = 0.8 + 0.3 * frame.react * min(2, frame.drive.bassSlow) + 0.35 * beat
        // The ring leaves the core as the pulse starts (1) and fades as it reaches the rim (0).
        ring = 0.45 * beat
        ringRadius = 0.04 + 0.42 * (1 - clamp01(frame.drive.beat))
        paletteGain = 1 + 0.12 * beat
    }

    struct Row { var y: Float, yy: Float, yLanes: Lanes }

    func row(_ y0: Float) -> Row {
        // A tilted disc: squash y.
        let y = y0 * 1.8
        return Row(y: y, yy: y * y, yLanes: Lanes(repeating: y))
    }

    func shade(_ x: Lanes, _ row: Row) -> Lanes {
        let r2 = x * x + row.yy, r = r2.squareRoot() + 1e-4
        let angle = fastAtan2(row.yLanes, x)
        // Arms where cos(k·(θ − spin) − twist·r) peaks: they turn with the dust.
        let wind = angle * arms - twist * 6 * r - spin * arms
        let armShape = 0.5 + 0.5 * fastCos(wind)
        // Dust in the galaxy's turning frame.
        let u = cosS * x + sinS * row.y, v = cosS * row.y - sinS * x
        let dust = noise.fbm(u * 6 + 20, v * 6 + dustFlow, octaves: 3)
        let disc = fastExp(-r * 3.2)
        let coreLight = core * fastExp(-r2 * 90)
        let shell = (r - ringRadius) * 22
        let wave = ring * fastExp(-shell * shell) * (0.5 + dust)
        let light: Lanes = armLight * disc * armShape * armShape * (0.4 + 0.9 * dust)
        return clamp01(light + coreLight + wave + 0.03 * dust)
    }
}
