import MarbleCore

/// Magma: slow molten rock — domain-warped fbm through a black → red → orange → yellow palette.
///
/// Audio: heat rises with the slow bass (the palette brightens and the hot end widens) and beats
/// briefly speed up the flow's warp. Versus Marble's Metal original (loudness through sin(), so very
/// loud passages cooled back down): heat follows the bass monotonically.
struct Magma: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "magma", "Molten rock: domain-warped fbm in fire colours.", speed: 0.6, [
            ParameterDescriptor("heat", "Base temperature: higher shows more glowing rock.", .number(default: 0.5, range: 0...1)),
        ])
    static let stops = ["#000000", "#2a0300", "#8c1000", "#e8470c", "#ffb43a", "#fff4c2"].compactMap(Color.init(parsing:))
    /// Smooth but detailed: 1/5 resolution.
    static let resolution = BackgroundResolution(scale: 5)

    private let noise = Noise.Sampler()
    private var t: Float = 0, warp: Float = 1.2, bias: Float = 0
    private(set) var paletteGain: Float = 1

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        let heat = parameters.number("heat") + 0.25 * frame.react * (frame.drive.bassSlow - 1)
        t = frame.time
        warp = 1.2 + 0.4 * frame.react * frame.drive.beat
        bias = heat - 0.5
        paletteGain = 1 + 0.15 * frame.react * frame.drive.beat
    }

    func row(_ y: Float) -> Lanes { Lanes(repeating: y * 3) }

    func shade(_ x: Lanes, _ v: Lanes) -> Lanes {
        let x = x * 3
        let qx = noise.fbm(x + 0.1 * t, v - 0.13 * t, octaves: 3)
        let qy = noise.fbm(x + 5.2 - 0.08 * t, v + 1.3, octaves: 3)
        let f = noise.fbm(x + warp * 4 * qx, v + warp * 4 * qy + 0.05 * t, octaves: 4)
        let hot = ((f - 0.3) * 1.9 + bias).clamped(lowerBound: Lanes(repeating: 0), upperBound: Lanes(repeating: 1))
        return hot * hot
    }
}
