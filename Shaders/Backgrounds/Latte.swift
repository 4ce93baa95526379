import MarbleCore

/// Latte: milk swirling into coffee — a vortex twist of warped noise through brown and cream.
///
/// Audio: the swirl turns faster as the slow mid band rises (an offset, not an integral: frames
/// stay independent), beats whiten the foam.
struct Latte: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "latte", "Milk swirling into coffee.", speed: 0.3, [
            ParameterDescriptor("swirl", "How strongly the vortex twists.", .number(default: 2.5, range: 0...8)),
        ])
    static let stops = ["#2a140a", "#5b3219", "#8e5a34", "#c89566", "#ecd2b0", "#fff8ee"].compactMap(Color.init(parsing:))
    /// Smooth field: 1/6 resolution is enough.
    static let resolution = BackgroundResolution(scale: 6)

    private let noise = Noise.Sampler()
    private var t: Float = 0, swirl: Float = 2.5, turn: Float = 0
    private(set) var paletteGain: Float = 1

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        t = frame.time
        swirl = parameters.number("swirl")
        turn = frame.time * 0.3 + 0.5 * frame.react * frame.drive.midSlow
        paletteGain = 1 + 0.08 * frame.react * frame.drive.beat
    }

    func row(_ y: Float) -> (y: Float, yy: Float) { (y, y * y) }

    func shade(_ x: Lanes, _ row: (y: Float, yy: Float)) -> Lanes {
        let y = row.y
        let r = (x * x + row.yy).squareRoot()
        // Rotate more near the centre: a vortex.
        let a = turn + swirl / (0.3 + r * 3)
        let c = fastCos(a), s = fastSin(a)
        let u = c * x - s * y, v = s * x + c * y
        let n = noise.fbm(u * 3 + 7, v * 3 + 0.05 * t, octaves: 4)
        let milk = smoothstep(0.35, 0.7, n + 0.25 * fastSin(u * 8))
        return 0.15 + 0.8 * milk
    }
}
