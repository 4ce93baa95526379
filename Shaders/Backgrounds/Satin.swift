import MarbleCore

/// Satin: flowing fabric — smooth folds from crossed sine waves bent by slow noise, lit by a soft
/// sheen that slides across them.
///
/// Audio: folds deepen with the slow bass, the sheen brightens with the level.
struct Satin: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "satin", "Flowing satin folds with a sliding sheen.", speed: 0.4, [
            ParameterDescriptor("folds", "Number of folds across the frame.", .number(default: 3, range: 0.5...12)),
        ])
    static let stops = ["#1a0610", "#5c1030", "#a3245a", "#e0608f", "#ffc2d6", "#fff5f8"].compactMap(Color.init(parsing:))
    static let resolution = BackgroundResolution(scale: 4)

    private let noise = Noise.Sampler()
    private var t: Float = 0, folds: Float = 3, depth: Float = 1, sheen: Float = 1

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        t = frame.time
        folds = parameters.number("folds") * 2
        depth = 1 + 0.3 * frame.react * min(2, frame.drive.bassSlow)
        sheen = 0.6 + 0.4 * frame.react * frame.drive.level
    }

    struct Row { var rowBend: Float, drift: Float, rowFold: Float, lightDirection: Float, noiseYs: Lanes }

    /// The bend's row share, the row's fold offset and the sheen's light direction.
    func row(_ y: Float) -> Row {
        Row(rowBend: 0.6 * fastSin(y * 1.3 + t * 0.2), drift: 0.1 * t, rowFold: 0.4 * fastSin(y * folds * 0.7 - t * 0.3),
            lightDirection: fastSin(t * 0.25 + y * 2), noiseYs: Lanes(repeating: y * 1.5))
    }

    func shade(_ x: Lanes, _ row: Row) -> Lanes {
        let bend = noise.value(x * 1.5 + row.drift, row.noiseYs) * 2
        let u = x * folds + depth * (bend + row.rowBend) + row.rowFold
        let height = fastSin(u)
        // Sheen: light from a direction sliding with time, on the fold's slope.
        let slope = fastCos(u)
        return 0.5 + 0.35 * height + sheen * 0.35 * clamp01(slope * row.lightDirection)
    }
}
