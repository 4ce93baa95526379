import MarbleCore

/// Vinyl: a spinning record seen from above — grooves, an anisotropic sheen that stays put while the
/// disc turns, and a coloured label.
///
/// Audio: the sheen flashes on beats, the groove contrast follows the level. Groove frequency stays
/// below the quarter-resolution Nyquist limit, so grooves never alias into moiré.
struct Vinyl: BackgroundField {
    static let descriptor = ShaderDescriptor.background(
        "vinyl", "A spinning record with a sheen flashing on beats.", speed: 1, [
            ParameterDescriptor("rpm", "Turntable speed.", .number(default: 33.3, range: 0...78)),
            ParameterDescriptor("label", "Label colour.", .color(default: Color(parsing: "#e8462b")!)),
        ])
    static let stops = ["#050505", "#151515", "#2a2a2a", "#4a4a4a", "#9a9a9a", "#f0f0f0"].compactMap(Color.init(parsing:))
    static let resolution = BackgroundResolution(scale: 4)

    private var angle: Float = 0, sheen: Float = 1, grooves: Float = 0.5
    private var labelPixel: UInt32 = 0, holePixel: UInt32 = 0

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        let turns = frame.mediaTime * Double(frame.speed) * Double(parameters.number("rpm")) / 60
        angle = wrapped(turns, period: 1) * 2 * Float.pi
        sheen = 0.6 + 0.6 * frame.react * frame.drive.beat
        grooves = 0.3 + 0.3 * frame.react * frame.drive.level
        let label = parameters.color("label")
        labelPixel = packOpaque(label.red, label.green, label.blue)
        holePixel = packOpaque(0.02, 0.02, 0.02)
    }

    func fill(_ row: BackgroundRow, _ out: UnsafeMutablePointer<UInt32>, _ canvas: BackgroundCanvas) {
        let sh = sheen, gr = grooves, label = labelPixel, hole = holePixel
        let ca = fastCos(angle), sa = fastSin(angle)
        let background = canvas.palette[0]
        let x0 = row.x0, y = row.y, step = row.step, count = row.count
        let yy = y * y, say = sa * y, grooveGain = gr * 0.25
        // Eight pixels at a time on lanes (bit for bit the scalar expressions); the palette
        // lookups and pixel blends per pixel.
        var first = 0
        while first < count {
            let x = lanes(x0, step: step, first: first)
            let r = (x * x + yy).squareRoot() + 1e-5
            // Grooves turn with the disc (a faint wobble shows it); the sheen is fixed in space.
            let u = ca * x - say
            let groove = 0.5 + 0.5 * fastSin(r * 220 + 0.4 * fastSin(u * 9))
            let along = (x - y) * 0.707_106_8 / r     // cos of the angle to the light's diagonal
            let highlight = sh * fastExp(-(1 - along * along) * 14)
            let v = clamp01(0.12 + grooveGain * groove + 0.55 * highlight)
            // Edges blend over one low-resolution pixel, so they stay smooth once stretched.
            let off = smoothstep(0.47 - step, 0.47 + step, r)
            let onLabel = smoothstep(0.15 + step, 0.15 - step, r)
            let inHole = smoothstep(0.012 + step, 0.012 - step, r)
            for k in 0..<min(8, count - first) {
                var pixel = lerpPixel(canvas.color(v[k]), background, weight256(off[k]))
                pixel = lerpPixel(pixel, label, weight256(onLabel[k]))
                pixel = lerpPixel(pixel, hole, weight256(inHole[k]))
                out[first + k] = pixel
            }
            first += 8
        }
    }
}
