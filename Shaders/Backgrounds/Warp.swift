import MarbleCore

/// Warp: flying down a tunnel — polar coordinates mapped to depth (1/r) and angle, textured with fbm
/// streaks, bright at the far end.
///
/// Audio: the flight surges with the bass (depth offset = time·speed + surge·slow bass: faster while
/// the bass swells, a pure function of the frame), the walls flash on beats. Versus Marble's Metal
/// original (speed = sin(loudness), reversing when loud): never reverses with loudness.
struct Warp: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "warp", "Flight down a streaked tunnel, surging with the bass.", speed: 1, [
            ParameterDescriptor("surge", "Extra depth pushed by the bass.", .number(default: 0.6, range: 0...4)),
        ])
    static let stops = ["#000000", "#12002e", "#3f1d8c", "#2f7bd6", "#8fe3ff", "#ffffff"].compactMap(Color.init(parsing:))
    /// Smooth field: 1/5 resolution.
    static let resolution = BackgroundResolution(scale: 5)

    private let noise = Noise.Sampler()
    private var depth: Float = 0, spin: Float = 0
    private(set) var paletteGain: Float = 1

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        depth = fract(frame.time * 0.5 / 256 + parameters.number("surge") * frame.react * frame.drive.bassSlow / 256) * 256
        spin = frame.time * 0.05
        paletteGain = 1 + 0.25 * frame.react * frame.drive.beat
    }

    func row(_ y: Float) -> Lanes { Lanes(repeating: y) }

    func shade(_ x: Lanes, _ yy: Lanes) -> Lanes {
        let r = lanesMax(Lanes(repeating: 1e-3), (x * x + yy * yy).squareRoot())
        let angle = fastAtan2(yy, x) * (1 / Float.pi) + spin   // −1…1 around the tunnel
        let u = 0.35 / r + depth
        // Angle wraps at ±1: sample noise on a circle of the angle so the seam disappears.
        let a = angle * Float.pi
        let streak = noise.fbm(fastCos(a) * 3 + 10, fastSin(a) * 3 + u * 2, octaves: 3)
        let rings = 0.5 + 0.5 * fastSin(u * 12)
        let fade = clamp01(r * 2.2)
        let glow = clamp01(0.05 / r) * 0.6
        return clamp01((streak * 0.8 + 0.2 * rings) * fade + glow)
    }
}
