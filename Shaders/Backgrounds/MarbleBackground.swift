import MarbleCore

/// Marble: polished stone — veins from a sine of x bent by fbm turbulence, white and grey with gold.
///
/// Audio: the turbulence (how much veins wander) swells with the slow mid band; beats brighten the
/// gold. Versus Marble's Metal original (turbulence from wall-clock time and loudness via sin()):
/// media time and bounded reaction.
struct MarbleBackground: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "marble", "Polished marble veins bent by turbulence.", speed: 0.3, [
            ParameterDescriptor("veins", "Number of veins across the frame.", .number(default: 4, range: 1...20)),
        ])
    static let stops = ["#2b2b30", "#8d8a86", "#d8d4cc", "#f7f4ee", "#d6b25e", "#fffaf0"].compactMap(Color.init(parsing:))
    /// Thin veins: full resolution at small sizes, a third at 720p, a quarter at 1080p (≈28 ns a pixel).
    static let resolution = BackgroundResolution(coarsest: 4, budget: 225_000)

    private let noise = Noise.Sampler()
    private var t: Float = 0, veins: Float = 4, turbulence: Float = 5
    private(set) var paletteGain: Float = 1

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        t = frame.time
        veins = parameters.number("veins") * Float.pi
        turbulence = 5 + 1.5 * frame.react * min(2, frame.drive.midSlow)
        paletteGain = 1 + 0.08 * frame.react * frame.drive.beat
    }

    func row(_ y: Float) -> (ny: Lanes, slant: Float) { (Lanes(repeating: y * 2.5 - 0.03 * t), 0.6 * y) }

    func shade(_ x: Lanes, _ row: (ny: Lanes, slant: Float)) -> Lanes {
        let n = noise.fbm(x * 2.5 + 0.05 * t, row.ny, octaves: 4)
        let s = fastSin((x + row.slant) * veins + turbulence * n + 0.2 * t)
        // Thin dark veins where s crosses 0, a gold vein where it peaks.
        let vein = 1 - s.replacing(with: -s, where: s .< 0)
        let body = 0.35 + 0.35 * n
        let veinLight: Lanes = 0.3 * vein * vein * vein * vein
        return clamp01(body + veinLight + 0.35 * smoothstep(0.9, 0.99, s))
    }
}
