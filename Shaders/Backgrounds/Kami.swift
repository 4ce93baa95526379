import MarbleCore

/// Kami: Japanese paper with ink — fibrous washi (stretched fine noise) under slowly spreading
/// sumi-ink blooms.
///
/// Audio: the blooms spread with the slow bass (their threshold falls), beats darken the ink.
struct Kami: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "kami", "Washi paper with spreading ink blooms.", speed: 0.2, [
            ParameterDescriptor("ink", "How much of the paper the ink covers.", .number(default: 0.35, range: 0...1)),
        ])
    static let stops = ["#0c0c10", "#2c2c34", "#6b6a70", "#b9b4a8", "#e9e3d3", "#f8f4ea"].compactMap(Color.init(parsing:))
    static let resolution = BackgroundResolution(scale: 4)

    private let noise = Noise.Sampler()
    private var t: Float = 0, threshold: Float = 0.6, darkness: Float = 1

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        t = frame.time
        threshold = 0.75 - 0.4 * parameters.number("ink") - 0.05 * frame.react * min(2, frame.drive.bassSlow)
        darkness = 0.8 + 0.2 * frame.react * frame.drive.beat
    }

    struct Row { var tilt: Float, fibreY: Lanes, inkY: Lanes }

    func row(_ y: Float) -> Row {
        Row(tilt: 0.3 * y, fibreY: Lanes(repeating: y * 6), inkY: Lanes(repeating: y * 1.8 - 0.02 * t))
    }

    func shade(_ x: Lanes, _ row: Row) -> Lanes {
        let th = threshold
        // Fibres: noise stretched along a slightly tilted axis.
        let fibre = noise.value((x + row.tilt) * 60, row.fibreY)
        let ink = noise.fbm(x * 1.8 + 0.03 * t, row.inkY, octaves: 4)
        let wash = smoothstep(th, th + 0.12, ink)
        let edge = smoothstep(th - 0.02, th + 0.02, ink) - smoothstep(th + 0.02, th + 0.08, ink)
        let paper = 0.86 + 0.08 * fibre
        return paper * (1 - darkness * (0.75 * wash + 0.25 * edge))
    }
}
