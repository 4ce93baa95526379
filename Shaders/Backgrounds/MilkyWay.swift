import MarbleCore

/// M1lky way: the galactic band across a night sky — a diagonal glow of fbm star clouds split by
/// dark dust lanes, over a speckle of faint stars.
///
/// Audio: the band glows with the level, the dust lanes part slightly with the slow bass.
struct MilkyWay: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "m1lky_way", "The galactic band with dust lanes across the sky.", speed: 0.1, [
            ParameterDescriptor("tilt", "Angle of the band in degrees.", .number(default: 25, range: -90...90)),
        ])
    static let stops = ["#000105", "#0a0f24", "#2a2f57", "#7d6f9e", "#e8d6c8", "#ffffff"].compactMap(Color.init(parsing:))
    static let resolution = BackgroundResolution(scale: 4)

    private let noise = Noise.Sampler()
    private var t: Float = 0, c: Float = 1, s: Float = 0, glow: Float = 1, dust: Float = 1

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        t = frame.time
        let a = parameters.number("tilt") * (Float.pi / 180)
        c = fastCos(a); s = fastSin(a)
        glow = 0.8 + 0.35 * frame.react * frame.drive.level
        dust = 1 - 0.15 * frame.react * min(2, frame.drive.bassSlow)
    }

    struct Row { var sy: Float, cy: Float, speckleY: Lanes }

    func row(_ y: Float) -> Row { Row(sy: s * y, cy: c * y, speckleY: Lanes(repeating: y * 120)) }

    func shade(_ x: Lanes, _ row: Row) -> Lanes {
        let along = c * x + row.sy + 0.02 * t, across = -s * x + row.cy
        let clouds = noise.fbm(along * 3, across * 6, octaves: 4)
        let band = fastExp(-across * across * 18)
        let lane = smoothstep(0.45, 0.7, noise.fbm(along * 5 + 9, across * 14, octaves: 2)) * dust
        let speckle = smoothstep(0.9, 1, noise.value(x * 120, row.speckleY))
        let light: Lanes = glow * band * clouds * 1.3 * (1 - 0.8 * lane)
        return clamp01(light + 0.04 + 0.3 * speckle)
    }
}
