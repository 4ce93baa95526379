import MarbleCore

/// Glitch: a broken digital signal — horizontal bands torn sideways, blocks of corrupt colour and a
/// red/blue split, re-rolled several times a second.
///
/// Audio: the tearing and block corruption grow with the beat pulse and the level. All randomness is
/// a hash of the glitch tick (media time × rate) and the band, so a frame always glitches the same way.
struct Glitch: BackgroundField {
    static let descriptor = ShaderDescriptor.background(
        "glitch", "Torn bands, corrupt blocks and colour split.", speed: 1, [
            ParameterDescriptor("rate", "Glitch re-rolls per second.", .number(default: 8, range: 1...60)),
            ParameterDescriptor("bands", "Horizontal bands across the frame.", .integer(default: 24, range: 4...128)),
        ])
    static let stops = ["#050014", "#1b0b4d", "#00a2ff", "#ff00aa", "#f2ff00", "#ffffff"].compactMap(Color.init(parsing:))
    static let resolution = BackgroundResolution(scale: 4)

    private let bands: Int
    private var t: Float = 0, tick: UInt32 = 0, chaos: Float = 0.3

    init(parameters: ShaderParameters) { bands = parameters.integer("bands") }

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        t = frame.time
        let ticks = frame.mediaTime * Double(parameters.number("rate")) * Double(frame.speed)
        tick = UInt32(truncatingIfNeeded: ticks.isFinite ? Int64(ticks) : 0)
        chaos = clamp01(0.25 + 0.5 * frame.react * (frame.drive.beat + 0.5 * frame.drive.level))
    }

    func fill(_ row: BackgroundRow, _ out: UnsafeMutablePointer<UInt32>, _ canvas: BackgroundCanvas) {
        let n = Float(bands), k = tick, c = chaos, y = row.y, count = row.count
        // Per band: a tear offset and whether it is corrupt.
        let band = UInt32(truncatingIfNeeded: floorToInt32((y + 0.5) * n)) & 0xFFFF
        let h = Noise.hash(band &* 0x9E37_79B9 ^ k &* 0x85EB_CA6B)
        let torn = Float(h & 0xFF) / 255 < c
        let shift: Float = torn ? (Float((h >> 8) & 0xFF) / 255 - 0.5) * 0.4 * c : 0
        let corrupt = Float((h >> 16) & 0xFF) / 255 < c * 0.5
        // Per row: the gradient's y and time terms, the scanline.
        let slant = y * 0.3, drift = t * 0.05, scanline = 0.05 * fastSin(y * 900)
        for i in 0..<count {
            let x = row.x0 + Float(i) * row.step + shift
            // A calm base: diagonal scan gradient with scanlines.
            var v = 0.2 + 0.25 * fract(x * 0.7 + slant + drift) + scanline
            if corrupt {
                let cell = UInt32(truncatingIfNeeded: floorToInt32(x * 24)) & 0xFFFF
                v = Float(Noise.hash(cell ^ h) >> 24) / 255
            }
            out[i] = canvas.color(v)
        }
        // Colour split on torn bands: pull red from the left neighbour, blue from the right.
        guard torn, count > 2 else { return }
        var previous = out[0]
        for i in 1..<(count - 1) {
            let here = out[i]
            out[i] = (previous & 0x0000_00FF) | (here & 0x0000_FF00) | (out[i + 1] & 0x00FF_0000) | 0xFF00_0000
            previous = here
        }
    }
}
