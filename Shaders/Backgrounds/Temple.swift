import MarbleCore

/// Temple: a turning mandala — the plane folded into mirrored wedges (kaleidoscope), tiled with
/// fbm ornament and concentric rings, gilded.
///
/// Audio: the rings pulse outwards on beats, the ornament's detail follows the slow mid band.
struct Temple: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "temple", "Turning kaleidoscopic mandala, rings pulsing on beats.", speed: 0.3, [
            ParameterDescriptor("wedges", "Mirror wedges around the centre.", .integer(default: 8, range: 2...24)),
        ])
    static let stops = ["#0a0503", "#3b1a08", "#8a4b12", "#d49a2a", "#ffe08a", "#fffbe8"].compactMap(Color.init(parsing:))
    /// Smooth field: 1/6 resolution is enough.
    static let resolution = BackgroundResolution(scale: 6)

    private let noise = Noise.Sampler()
    private let wedge: Float
    private var t: Float = 0, pulse: Float = 0, detail: Float = 1

    init(parameters: ShaderParameters) { wedge = Float.pi / Float(parameters.integer("wedges")) }

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        t = frame.time
        pulse = frame.react * frame.drive.beat
        detail = 4 + frame.react * min(2, frame.drive.midSlow)
    }

    func row(_ y: Float) -> (yy: Float, yLanes: Lanes) { (y * y, Lanes(repeating: y)) }

    func shade(_ x: Lanes, _ row: (yy: Float, yLanes: Lanes)) -> Lanes {
        let w = wedge, invW = 1 / wedge, d = detail
        let turn = t * 0.1, drift = t * 0.05, ringPhase = t * 2, ringPulse = pulse * 3, ringGlow = 0.15 * pulse
        let r = (x * x + row.yy).squareRoot()
        // Fold the angle into one wedge and mirror every other wedge.
        let a = fastAtan2(row.yLanes, x) + turn
        let k = a * invW
        let f = fract(k)
        let folded = (1 - f).replacing(with: f, where: f .< 0.5) * w
        let u = r * fastCos(folded), v = r * fastSin(folded)
        let ornament = noise.fbm(u * d + 3, v * d - drift, octaves: 3)
        let rings = 0.5 + 0.5 * fastCos(r * 40 - ringPhase - ringPulse)
        let shade: Lanes = ornament * ornament * 1.6 * (0.5 + 0.5 * rings) * (1.2 - r)
        return clamp01(shade + ringGlow * rings)
    }
}
