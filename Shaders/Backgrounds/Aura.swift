import MarbleCore

/// Aura: northern lights — soft curtains hanging from a wavy line, streaked vertically, over night sky.
///
/// Audio: curtain brightness follows the level, their sway the slow mid band, beats brighten the
/// palette. Versus Marble's Metal original (brightness = sin(loudness)): brightness rises with level.
/// Curtain edges and streaks depend on x only: `prepare` computes them per column, pixels only add
/// the vertical falloff (curtain-major loops over a row, which vectorise).
struct Aura: BackgroundField {
    static let descriptor = ShaderDescriptor.background(
        "aura", "Aurora curtains swaying over a night sky.", speed: 0.5, [
            ParameterDescriptor("curtains", "Number of curtains.", .integer(default: 3, range: 1...6)),
        ])
    static let stops = ["#01030d", "#03202b", "#0b6b55", "#36e08e", "#b7ffd0", "#d8b4ff"].compactMap(Color.init(parsing:))
    static let resolution = BackgroundResolution(scale: 4)

    private let curtains: Int
    private var glow: Float = 1
    private(set) var paletteGain: Float = 1
    /// Per curtain c: table 2c holds each column's lower edge y, table 2c + 1 its streak light.
    private var columns: BackgroundColumns?

    init(parameters: ShaderParameters) { curtains = parameters.integer("curtains") }

    var columnTables: Int { 2 * curtains }

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        glow = 0.7 + 0.5 * frame.react * frame.drive.level
        let sway = 1 + 0.3 * frame.react * min(2, frame.drive.midSlow), t = frame.time
        paletteGain = 1 + 0.15 * frame.react * frame.drive.beat
        let columns = frame.columns
        self.columns = columns
        for c in 0..<curtains {
            let phase = Float(c) * 2.1, strength = 1 - 0.2 * Float(c)
            let edges = columns.table(2 * c), streaks = columns.table(2 * c + 1)
            for i in 0..<columns.count {
                let x = columns.x(i)
                edges[i] = -0.05 + 0.12 * Float(c) + 0.08 * sway * fastSin(x * 2.2 + t * 0.7 + phase)
                    + 0.04 * fastSin(x * 5.1 - t * 0.5 + phase)
                streaks[i] = strength * (0.55 + 0.45 * fastSin(x * 40 + 3 * fastSin(x * 3 + t * 0.3 + phase)))
            }
        }
    }

    func fill(_ row: BackgroundRow, _ out: UnsafeMutablePointer<UInt32>, _ canvas: BackgroundCanvas) {
        guard let columns, columns.count == row.count else { return fillPixels(out, row.count, canvas.palette[0]) }
        let count = row.count, y = row.y, g = glow
        out.withMemoryRebound(to: Float.self, capacity: count) { light in
            light.update(repeating: 0, count: count)
            for c in 0..<curtains {
                let edge = columns.table(2 * c), streak = columns.table(2 * c + 1)
                for i in 0..<count {
                    // Light hangs above the edge and fades upwards; below it, it ends quickly.
                    let above = edge[i] - y
                    let hang = fastExp(above > 0 ? -above * 5 : above * 60)
                    light[i] += hang * streak[i]
                }
            }
            for i in 0..<count { light[i] = clamp01(0.08 + 0.55 * light[i] * g) }
        }
        for i in 0..<count { out[i] = canvas.color(Float(bitPattern: out[i])) }
    }
}
