import MarbleCore

/// Amsterdam: a canal at night — a row of narrow gabled canal houses against the night sky, their
/// windows lit, street lamps along the quay, and everything mirrored in rippling black water.
///
/// Thin clouds drift over the sky. Houses stand on a lattice of plots along the quay; a hash of the plot gives each its height, gable
/// (pointed, stepped or neck), facade shade and which windows are lit. The water mirrors the scene
/// with a sideways ripple that grows with depth, so lit windows break into wavering streaks. Edges
/// (roofs, windows, lamps) are antialiased over a grid pixel.
///
/// Audio: the houses fall into three groups whose windows glow with the bass, mid and treble bands;
/// more windows are lit as the level rises; on a beat a fresh set of windows (a hash of the beat's
/// time slot picks about two in five) flares, the lamps flash and the sky glows over the roofs; the
/// lamps breathe with the level; the ripples stir with the slow bass.
struct Amsterdam: BackgroundField {
    static let descriptor = ShaderDescriptor.background(
        "amsterdam", "Canal houses at night, lit windows reflected in rippling water.", speed: 0.5, [
            ParameterDescriptor("waterline", "Height of the waterline, −0.5 (top) … 0.5 (bottom).", .number(default: 0.12, range: -0.3...0.4)),
            ParameterDescriptor("windows", "Share of windows lit at rest.", .number(default: 0.4, range: 0...1)),
        ])
    static let stops = ["#020308", "#0b1230", "#2c2a52", "#7a4a3a", "#e89a3c", "#fff0c8"].compactMap(Color.init(parsing:))
    /// Windows a few pixels wide, ≈50 ns a pixel (scalar): full resolution at small sizes, a quarter at
    /// 720p, a fifth at 1080p.
    static let resolution = BackgroundResolution(coarsest: 6, budget: 100_000)

    /// Plot width, floor height and lamp spacing, in frame heights.
    static let plot: Float = 0.085, floorHeight: Float = 0.04, lampSpacing: Float = 0.34

    private var t: Float = 0, waterline: Float = 0.12, lit: Float = 0.4, beat: Float = 0, ripple: Float = 1
    private var groups: (Float, Float, Float) = (1, 1, 1), lamp: Float = 1, slot: UInt32 = 0, edge: Float = 0.003

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        t = frame.time
        let r = frame.react, d = frame.drive
        waterline = parameters.number("waterline")
        lit = clamp01(parameters.number("windows") + 0.5 * r * (d.level - 0.5))
        beat = clamp01(r * d.beat)
        ripple = 1 + 0.8 * r * min(2, d.bassSlow)
        groups = (0.4 + 0.4 * r * min(1.5, d.bass), 0.4 + 0.4 * r * min(1.5, d.mid),
                  0.4 + 0.4 * r * min(1.5, d.treble))
        lamp = 0.5 + r * (0.35 * min(1, d.level) + 0.6 * d.beat)
        slot = UInt32(truncatingIfNeeded: Int64(max(0, min(frame.mediaTime * 2, 1e9))))
        edge = max(frame.pixel, 1e-4)
    }

    func fill(_ row: BackgroundRow, _ out: UnsafeMutablePointer<UInt32>, _ canvas: BackgroundCanvas) {
        let y = row.y, w = waterline
        guard y > w else {
            for i in 0..<row.count { out[i] = canvas.color(scene(row.x0 + Float(i) * row.step, y)) }
            return
        }
        // Water: the scene mirrored about the waterline, each row shifted sideways by the waves
        // passing it (two samples a little apart, so reflections smear into streaks), darker further from the quay.
        let depth = y - w, mirrored = w - depth
        let amplitude = 0.004 * ripple * (0.4 + 12 * depth), phase = depth * 260 - t * 9
        let shift = amplitude * fastSin(phase), spread = 0.5 * amplitude * fastSin(phase * 2.3 + 1)
        let dim = 0.3 * max(0.25, 1 - 1.6 * depth), water = 0.05 + 0.03 * depth + 0.04 * beat
        for i in 0..<row.count {
            let x = row.x0 + Float(i) * row.step
            let a = scene(x + shift, mirrored), b = scene(x + shift - spread, mirrored + 0.012)
            out[i] = canvas.color(water + dim * (a + b))
        }
    }

    /// Palette position of the scene above the water at (x, y).
    @inline(__always) func scene(_ x: Float, _ y: Float) -> Float {
        let w = waterline, aa = edge
        // The house on this plot: height, gable and shade from its hash.
        let u = x / Self.plot + 4096
        let plot = floorToInt32(u), fx = u - Float(plot)
        let h = Noise.hash(UInt32(bitPattern: plot) &* 0x9E37_79B1)
        let eaves = w - 0.14 - 0.2 * Float(h & 0xFF) / 255
        let centre = abs(2 * fx - 1)                       // 0 in the middle of the plot, 1 at its sides
        let gable: Float
        switch Self.third(h >> 8) {
        case 0: gable = 0.05 * (1 - centre)                                  // pointed
        case 1: gable = 0.05 * Float(Int((1 - centre) * 3.5)) / 3.5           // stepped
        default: gable = centre < 0.4 ? 0.045 + 0.02 * (0.4 - centre) : 0     // neck
        }
        let roof = eaves - gable
        let facadeCover = clamp01((y - roof) / aa + 0.5)
        let lampLight = abs(y - w + 0.055) < 0.12 ? lampGlow(x, y) : 0
        // Sky (only where some of it shows): dark at the top, a violet glow above the roofs, thin
        // clouds drifting across, a soft moon.
        var sky: Float = 0
        if facadeCover < 1 {
            let height = clamp01((y + 0.5) / max(0.05, w + 0.5))
            sky = 0.07 + (0.15 + 0.25 * beat) * height * height
            sky += 0.06 * height * Noise.value(x * 2.2 + t * 0.35, y * 7)
            let mx = x - 0.45, my = y + 0.3
            let moon = (mx * mx + my * my).squareRoot()
            if moon < 0.5 { sky += 0.75 * smoothstep(0.045 + aa, 0.045 - aa, moon) + 0.1 * fastExp(-moon * 9) }
            guard facadeCover > 0 else { return sky + lampLight }
        }
        // Facade with a dark seam between houses, and windows in a grid of floors and columns.
        let seam = clamp01((min(fx, 1 - fx) * Self.plot - 0.002) / aa + 0.5)
        var facade = (0.02 + 0.035 * Float((h >> 16) & 0xFF) / 255) * (0.4 + 0.6 * seam)
        let levels = (w - y) / Self.floorHeight
        let floorIndex = floorToInt32(levels), fy = levels - Float(floorIndex)
        let column = min(2, Int(fx * 3)), cx = (fx * 3 - Float(column) - 0.5) * Self.plot / 3
        if floorIndex >= 1, y > eaves + 0.012 {
            let wy = (fy - 0.55) * Self.floorHeight
            let cover = clamp01((0.0075 - abs(cx)) / aa + 0.5) * clamp01((0.0115 - abs(wy)) / aa + 0.5)
            if cover > 0 {
                let k = Noise.hash(h ^ UInt32(bitPattern: floorIndex) &* 0x85EB_CA77 ^ UInt32(column) &* 0xC2B2_AE3D)
                let on = Float(k & 0xFFFF) / 65535 < lit
                let flare = Noise.hash(k ^ slot &* 0x27D4_EB2F) & 0xFF < 100 ? beat : 0
                let group = Self.third(h >> 24)
                let gain = group == 0 ? groups.0 : (group == 1 ? groups.1 : groups.2)
                let glass: Float = on ? 0.45 + 0.35 * gain + 0.3 * flare : 0.06 + 0.6 * flare
                facade += cover * (glass - facade)
            }
        }
        return sky + facadeCover * (facade - sky) + lampLight
    }

    /// 0, 1 or 2 from the low 16 bits of `bits` (a multiply and a shift, not a division).
    @inline(__always) static func third(_ bits: UInt32) -> UInt32 { ((bits & 0xFFFF) &* 3) >> 16 }

    /// Street lamps along the quay: a warm point and its halo.
    @inline(__always) func lampGlow(_ x: Float, _ y: Float) -> Float {
        let u = x / Self.lampSpacing + 4096.5
        let dx = (u - Float(floorToInt32(u)) - 0.5) * Self.lampSpacing, dy = y - (waterline - 0.055)
        let d2 = dx * dx + dy * dy
        return lamp * (0.9 * fastExp(-d2 / 0.00004) + 0.18 * fastExp(-d2 / 0.002))
    }
}
