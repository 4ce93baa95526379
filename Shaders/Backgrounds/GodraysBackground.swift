import MarbleCore

/// Godrays (background): shafts of light fanning down from a bright point above the frame, with drifting
/// dust in the beams.
///
/// Audio: the light brightens with the level and flares with the beat (the source above the frame
/// most), the shafts widen with the slow bass. Angles are sampled on a
/// circle (cos, sin), so shafts have no seam. (The `light_rays` filter casts rays from a picture; this one
/// draws them from nothing.)
struct GodraysBackground: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "godrays", "Shafts of light fanning from above, dust in the beams.", speed: 0.4, [
            ParameterDescriptor("shafts", "Angular frequency of the shafts.", .number(default: 5, range: 1...20)),
        ])
    static let stops = ["#02030a", "#0b1633", "#23407a", "#7aa7d9", "#fff1c9", "#ffffff"].compactMap(Color.init(parsing:))
    /// Smooth field: 1/6 resolution is enough.
    static let resolution = BackgroundResolution(scale: 6)

    private let noise = Noise.Sampler()
    private var t: Float = 0, shafts: Float = 5, intensity: Float = 1, width: Float = 1, flare: Float = 0.25

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        t = frame.time
        shafts = parameters.number("shafts")
        intensity = 0.7 + frame.react * (0.45 * min(1.5, frame.drive.level) + 0.6 * frame.drive.beat)
        flare = 0.25 + 0.5 * frame.react * frame.drive.beat
        width = 1 + 0.3 * frame.react * min(2, frame.drive.bassSlow)
    }

    struct Row { var y: Float, yy: Float, dustY: Lanes }

    func row(_ y0: Float) -> Row {
        let y = y0 + 0.75                           // the light sits above the top edge
        return Row(y: y, yy: y * y, dustY: Lanes(repeating: y * 30 - 0.3 * t))
    }

    func shade(_ x: Lanes, _ row: Row) -> Lanes {
        let k = shafts
        let r = (x * x + row.yy).squareRoot() + 1e-5
        let cx = x / r, cy = row.y / r
        let rays = noise.fbm(cx * k + 0.05 * t, cy * k + 0.03 * t, octaves: 3)
        let shaft = smoothstep(0.55 - 0.1 * width, 0.75, rays)
        let dust = noise.value(x * 30 + 0.2 * t, row.dustY)
        let fall = 1 / (1 + r * r * 2.5)
        let lit: Lanes = intensity * fall * (0.15 + 0.85 * shaft) * (0.85 + 0.3 * dust)
        return clamp01(lit + flare * fastExp(-r * 8))
    }
}
