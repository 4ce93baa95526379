import MarbleCore

/// Carbon: woven carbon fibre — a 2/2 twill of rounded tows, each shaded across its width, with a
/// glossy band sliding over the weave.
///
/// Audio: the gloss flashes on beats (brighter and wider, the weave lit up with it) and brightens
/// with the level, as does the whole weave (the palette gain).
struct Carbon: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "carbon", "Carbon-fibre twill with a sliding gloss.", speed: 0.5, [
            ParameterDescriptor("tows", "Tows across the frame height.", .number(default: 24, range: 4...60)),
        ])
    static let stops = ["#050607", "#121418", "#23272e", "#3c434d", "#8894a3", "#e8f0ff"].compactMap(Color.init(parsing:))
    /// Tows a few pixels wide at small sizes: full resolution at 320x180, a half at 640x360, a third at
    /// 720p, a quarter at 1080p (where a tow is 45 pixels wide).
    static let resolution = BackgroundResolution(coarsest: 4, budget: 130_000)

    private var tows: Float = 24, glossGain: Float = 0.35, sway: Float = 0, glossWidth: Float = 3
    private(set) var paletteGain: Float = 1

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        tows = parameters.number("tows")
        let r = frame.react, beat = frame.drive.beat, level = min(1, frame.drive.level)
        glossGain = 0.18 + r * (0.15 * level + 0.3 * beat)
        glossWidth = 3 / (1 + 0.6 * r * beat)
        paletteGain = 1 + r * (0.15 * level - 0.1 + 0.2 * beat)
        // Where the gloss band crosses (per frame).
        sway = 0.8 * fastSin(frame.time * 0.3)
    }

    struct Row { var iy: Int32, fys: Lanes, slant: Float }

    func row(_ y: Float) -> Row {
        let v = y * tows
        return Row(iy: floorToInt32(v), fys: Lanes(repeating: fract(v)), slant: y * 0.5)
    }

    func shade(_ x: Lanes, _ row: Row) -> Lanes {
        let u = x * tows
        let ix = floorToInt32(u)
        let fx = u - lanesFloat(ix)
        // 2/2 twill: the warp is on top when (ix + iy) mod 4 < 2.
        let warpOnTop = ((ix &+ row.iy) & 3) .< 2
        let across = row.fys.replacing(with: fx, where: warpOnTop)      // position across the visible tow
        let along = fx.replacing(with: row.fys, where: warpOnTop)
        let round = 4 * across * (1 - across) // tow cross-section, 0 at edges, 1 in the middle
        let base = Lanes(repeating: 0.22).replacing(with: 0.3, where: warpOnTop)
        let across3 = (x + row.slant - sway) * glossWidth
        let glossBand = fastExp(-across3 * across3)
        let sheen: Lanes = glossGain * glossBand * round * (0.6 + 0.4 * along)
        return base * (0.5 + 0.5 * round) + sheen
    }
}
