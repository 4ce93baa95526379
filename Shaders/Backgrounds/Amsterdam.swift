import MarbleCore

/// Amsterdam: a canal at night — warm city lights as soft bokeh above, their reflections broken into
/// wavering streaks on the water below.
///
/// Lights are cellular feature points (one per cell, some dark); the water mirrors the sky with a
/// rippling sideways offset and vertical stretch. Audio: ripples stir with the slow bass, lights
/// brighten with the level and flash on beats.
struct Amsterdam: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "amsterdam", "City lights over a canal and their rippling reflections.", speed: 0.5, [
            ParameterDescriptor("waterline", "Height of the waterline, −0.5 (top) … 0.5 (bottom).", .number(default: 0.1, range: -0.5...0.5)),
        ])
    static let stops = ["#03040a", "#0d1226", "#3a2a3a", "#b5652a", "#ffc46b", "#fff3d6"].compactMap(Color.init(parsing:))
    /// Soft shapes: 1/5 resolution is enough.
    static let resolution = BackgroundResolution(scale: 5)

    private let noise = Noise.Sampler()
    private var t: Float = 0, waterline: Float = 0.1, ripple: Float = 1, light: Float = 1

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        t = frame.time
        waterline = parameters.number("waterline")
        ripple = 1 + 0.5 * frame.react * min(2, frame.drive.bassSlow)
        light = 0.75 + 0.3 * frame.react * (frame.drive.level + 0.5 * frame.drive.beat)
    }

    struct Row {
        var inWater: Bool, rowWave: Float, rowPhase: Float, cellY: Lanes, sky: Float, dim: Float
    }

    func row(_ y: Float) -> Row {
        let inWater = y > waterline
        // Mirror about the waterline, stretched vertically (reflections elongate).
        let depth = y - waterline
        let mirrorY = inWater ? waterline - depth * 0.8 : y
        return Row(inWater: inWater, rowWave: inWater ? 0.012 * ripple * (0.2 + depth * 2) : 0,
                   rowPhase: y * 45 + t * 2, cellY: Lanes(repeating: mirrorY * 7),
                   sky: 0.06 + 0.08 * (0.5 - mirrorY), dim: 0.65 - 0.3 * depth)
    }

    func shade(_ x: Lanes, _ row: Row) -> Lanes {
        let wobble = row.rowWave * fastSin(row.rowPhase + 0.5 * fastSin(x * 3 + t))
        let c = noise.voronoi((x + wobble) * 7, row.cellY, jitter: 0.9)
        let glow = fastExp(-c.f1 * c.f1 * 30) * (0.6 + 0.8 * c.id)
        let lamp = Lanes(repeating: 0).replacing(with: glow, where: c.id .< 0.45)
        let v = row.sky + light * lamp
        return row.inWater ? v * row.dim : v
    }
}
