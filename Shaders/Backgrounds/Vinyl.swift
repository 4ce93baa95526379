import MarbleCore

/// Vinyl: a spinning record seen from above — grooves catching the light, a printed label with a
/// stripe and a half in a darker shade, and a fixed anisotropic sheen that the disc turns under.
///
/// What shows the spin: the label's print and the pressing's uneven groove sheen (noise sampled
/// around the circle in the disc's own, turning frame) go round at the turntable's speed (33⅓ rpm is
/// a turn every 1.8 s); the highlight stays put, as a lamp's would. Grooves fade out before they would
/// alias (under three grid pixels a groove), so there is no moiré at any size.
///
/// Audio: the sheen brightens with the level and flashes on beats, the groove contrast follows the
/// level, the label glows on beats.
struct Vinyl: BackgroundField {
    static let descriptor = ShaderDescriptor.background(
        "vinyl", "A spinning record with a sheen flashing on beats.", speed: 1, [
            ParameterDescriptor("rpm", "Turntable speed.", .number(default: 33.3, range: 0...78)),
            ParameterDescriptor("label", "Label colour.", .color(default: Color(parsing: "#e8462b")!)),
        ])
    static let stops = ["#050505", "#151515", "#2a2a2a", "#4a4a4a", "#9a9a9a", "#f0f0f0"].compactMap(Color.init(parsing:))
    /// Fine grooves: full resolution at small sizes, coarser at 720p and 1080p.
    static let resolution = BackgroundResolution(coarsest: 4, budget: 200_000)

    private let noise = Noise.Sampler()
    private var cosA: Float = 1, sinA: Float = 0, sheen: Float = 1, grooves: Float = 0.5
    private var labelPixel: UInt32 = 0, printPixel: UInt32 = 0, shadePixel: UInt32 = 0, holePixel: UInt32 = 0

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        let turns = frame.mediaTime * Double(frame.speed) * Double(parameters.number("rpm")) / 60
        let angle = wrapped(turns, period: 1) * 2 * Float.pi
        cosA = fastCos(angle); sinA = fastSin(angle)
        sheen = 0.5 + frame.react * (0.4 * min(1.5, frame.drive.level) + 1.0 * frame.drive.beat)
        grooves = 0.3 + 0.5 * frame.react * min(1.5, frame.drive.level)
        let label = parameters.color("label"), glow = 1 + 0.5 * frame.react * frame.drive.beat
        labelPixel = packOpaque(label.red * glow, label.green * glow, label.blue * glow)
        shadePixel = packOpaque(label.red * 0.62, label.green * 0.62, label.blue * 0.62)
        printPixel = packOpaque(0.96, 0.93, 0.85)
        holePixel = packOpaque(0.02, 0.02, 0.02)
    }

    func fill(_ row: BackgroundRow, _ out: UnsafeMutablePointer<UInt32>, _ canvas: BackgroundCanvas) {
        let x0 = row.x0, y = row.y, step = row.step, count = row.count
        let background = canvas.palette[0]
        let yy = y * y, grooveGain = grooves * 0.25
        // Groove period 2π/220 frame heights: fade them out below three grid pixels a groove.
        let grooveFade = clamp01((2 * Float.pi / 220 / max(step, 1e-6) - 3) / 2)
        // The disc's own frame turns with the record: (u, v) = R(−angle)·(x, y).
        let cu = sinA * y, cv = cosA * y
        var first = 0
        while first < count {
            let x = lanes(x0, step: step, first: first)
            let r = (x * x + yy).squareRoot() + 1e-5
            let u = cosA * x + cu, v = cv - sinA * x
            let groove = 0.5 + 0.5 * fastSin(r * 220)
            // Pressing marks: brightness that varies around the disc and turns with it.
            let marks = noise.value(u / r * 2.2 + 7, v / r * 2.2 + r * 6)
            let along = (x - y) * 0.707_106_8 / r     // cos of the angle to the light's diagonal
            let highlight = sheen * fastExp(-(1 - along * along) * 14)
            let v0: Lanes = 0.1 + grooveGain * grooveFade * groove * (0.4 + 1.2 * marks) + 0.1 * marks
            let value = clamp01(v0 + 0.5 * highlight * (0.6 + 0.8 * marks))
            // Edges blend over one grid pixel, so they stay smooth once stretched.
            let off = smoothstep(0.47 - step, 0.47 + step, r)
            let onLabel = smoothstep(0.15 + step, 0.15 - step, r)
            let inHole = smoothstep(0.012 + step, 0.012 - step, r)
            // The label's print: a darker half and a light stripe across it, both turning.
            let shaded = smoothstep(-step, step, u)
            let stripe = smoothstep(0.011 + step, 0.011 - step, (v - 0.045).replacing(with: 0.045 - v, where: v .< 0.045))
                * smoothstep(0.13, 0.13 - step, r)
            for k in 0..<min(8, count - first) {
                var pixel = lerpPixel(canvas.color(value[k]), background, weight256(off[k]))
                let paper = lerpPixel(labelPixel, shadePixel, weight256(shaded[k]))
                pixel = lerpPixel(pixel, lerpPixel(paper, printPixel, weight256(stripe[k])), weight256(onLabel[k]))
                pixel = lerpPixel(pixel, holePixel, weight256(inHole[k]))
                out[first + k] = pixel
            }
            first += 8
        }
    }
}
