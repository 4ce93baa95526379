import MarbleCore

/// Discotech: a lit dance floor — square tiles, each lighting up in a palette colour on its own
/// beat pattern, with glowing grout.
///
/// Audio: on every beat a new pattern of tiles lights (chosen by a hash of the beat's time slot), and
/// lit tiles fade with the beat pulse; the level lifts all tiles.
struct Discotech: BackgroundField {
    static let descriptor = ShaderDescriptor.background(
        "discotech", "Dance-floor tiles lighting up on beats.", speed: 1, [
            ParameterDescriptor("tiles", "Tiles across the frame height.", .number(default: 8, range: 2...40)),
            ParameterDescriptor("bpm", "Pattern changes per minute when no beat drives it.", .number(default: 120, range: 30...240)),
        ])
    static let stops = ["#050208", "#2b0a3d", "#ff2079", "#ffb800", "#00f0ff", "#7dff5c"].compactMap(Color.init(parsing:))
    static let resolution = BackgroundResolution(scale: 4)

    private var tiles: Float = 8, slot: UInt32 = 0, fade: Float = 1, lift: Float = 0

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        tiles = parameters.number("tiles")
        let beats = frame.mediaTime * Double(parameters.number("bpm")) / 60 * Double(frame.speed)
        let whole = beats.isFinite && beats >= 0 && beats < 9e15 ? Int64(beats) : 0
        slot = UInt32(truncatingIfNeeded: whole)
        // Without audio beats the tiles fade within each slot; with them, they follow the beat pulse.
        let phase = clamp01(Float(beats - Double(whole)))
        fade = frame.drive.beat > 0 ? 0.4 + 0.6 * frame.drive.beat * frame.react : 1 - 0.6 * phase
        lift = 0.15 * frame.react * frame.drive.level
    }

    func fill(_ row: BackgroundRow, _ out: UnsafeMutablePointer<UInt32>, _ canvas: BackgroundCanvas) {
        let k = tiles, s = slot, f = fade, l = lift
        let v = row.y * k
        let ty = floorToInt32(v), fy = v - Float(ty)
        for i in 0..<row.count {
            let u = (row.x0 + Float(i) * row.step) * k
            let tx = floorToInt32(u), fx = u - Float(tx)
            let h = Noise.hash(UInt32(bitPattern: tx) &* 0x9E37_79B1 ^ UInt32(bitPattern: ty) &* 0x85EB_CA77 ^ s &* 0xC2B2_AE3D)
            let lit = (h & 3) == 0
            let colour = 0.4 + 0.6 * Float((h >> 8) & 0xFF) / 255
            // Grout: distance to the tile border.
            let border = min(min(fx, 1 - fx), min(fy, 1 - fy))
            let grout = smoothstep(0.06, 0.0, border)
            let value = lit ? colour * (0.35 + 0.65 * f) : 0.08 + l
            out[i] = canvas.color(max(value * (1 - grout), 0.2 * grout))
        }
    }
}
