import MarbleCore

/// Andromeda: a spiral galaxy — spiral arms of fbm dust around a bright core, turning. The arms wind
/// linearly with radius (Archimedean), cheaper than a logarithmic spiral and alike at this scale.
///
/// Audio: the core glows with the level, the arms brighten with the slow bass, beats flash the core.
/// k·θ with whole k is continuous across ±π, so the arms have no seam.
struct Andromeda: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "andromeda", "Turning spiral galaxy with a glowing core.", speed: 0.4, [
            ParameterDescriptor("arms", "Number of spiral arms.", .integer(default: 2, range: 1...6)),
            ParameterDescriptor("twist", "How tightly the arms wind.", .number(default: 3, range: 0.5...8)),
        ])
    static let stops = ["#000004", "#120a2e", "#3a2a7a", "#8a6fd1", "#f0d9ff", "#fff6e0"].compactMap(Color.init(parsing:))
    /// Smooth field: 1/6 resolution is enough.
    static let resolution = BackgroundResolution(scale: 6)

    private let noise = Noise.Sampler()
    private let arms: Float, twist: Float
    private var t: Float = 0, core: Float = 1, armLight: Float = 1

    init(parameters: ShaderParameters) {
        arms = Float(parameters.integer("arms")); twist = parameters.number("twist")
    }

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        t = frame.time
        core = 0.6 + 0.4 * frame.react * (frame.drive.level + 0.5 * frame.drive.beat)
        armLight = 0.8 + 0.25 * frame.react * min(2, frame.drive.bassSlow)
    }

    struct Row { var y: Float, yy: Float, yLanes: Lanes, winding: Float, spin: Float, dustY: Lanes }

    func row(_ y0: Float) -> Row {
        // A tilted disc: squash y.
        let y = y0 * 1.8
        return Row(y: y, yy: y * y, yLanes: Lanes(repeating: y), winding: twist * 6, spin: t * 0.3,
                   dustY: Lanes(repeating: y * 6 + 0.1 * t))
    }

    func shade(_ x: Lanes, _ row: Row) -> Lanes {
        let r2 = x * x + row.yy, r = r2.squareRoot() + 1e-4
        let angle = fastAtan2(row.yLanes, x)
        // Arms where cos(k·θ − twist·r + t) peaks.
        let wind = angle * arms - row.winding * r + row.spin
        let armShape = 0.5 + 0.5 * fastCos(wind)
        let dust = noise.fbm(x * 6 + 20, row.dustY, octaves: 3)
        let disc = fastExp(-r * 3.2)
        let coreLight = core * fastExp(-r2 * 90)
        let arms: Lanes = armLight * disc * armShape * armShape * (0.4 + 0.9 * dust)
        return clamp01(arms + coreLight + 0.03 * dust)
    }
}
