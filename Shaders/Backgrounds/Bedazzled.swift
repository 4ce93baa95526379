import MarbleCore

/// Bedazzled: glitter on warm satin — tiny round sparkles scattered over a softly lit gradient, each
/// twinkling at its own rate and phase, the brightest ones throwing a four-pointed glint.
///
/// Two layers of sparkles, one per cell of a jittered lattice (`density` cells across the frame
/// height, and a finer, dimmer layer offset from it), kept inside their cells so a pixel looks at one
/// sparkle per layer; shapes are smooth in the pixel's distance to the
/// sparkle, antialiased over a grid pixel, so there is no square mosaic at any size. Audio: more
/// sparkles catch the light as the treble rises and the satin glows with the level; on a beat, a
/// fresh set of sparkles (a hash of the beat's time slot picks two in five) flares into glints —
/// the sparkles glint, the frame does not flash. Each sparkle's rate and phase come from a hash of its cell: the sparkle is a pure function
/// of media time.
struct Bedazzled: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "bedazzled", "Glitter sparkling with the treble, glinting on beats.", speed: 1, [
            ParameterDescriptor("density", "Sparkles across the frame height.", .number(default: 28, range: 8...120)),
        ])
    static let stops = ["#1a0d05", "#4a2a0d", "#8c5a1c", "#d4a043", "#ffe7a3", "#ffffff"].compactMap(Color.init(parsing:))
    /// Small sparkles: full resolution at small sizes, coarser at 720p and 1080p within the budget.
    static let resolution = BackgroundResolution(coarsest: 4, budget: 170_000)

    private let noise = Noise.Sampler()
    private var t: Float = 0, density: Float = 28, share: Float = 0.3, beat: Float = 0, slot: Int32 = 0
    private var edge: Float = 0.05, fineGain: Float = 0.5, glow: Float = 0

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        t = frame.time
        density = parameters.number("density")
        share = clamp01(0.3 + 0.25 * frame.react * min(1.5, frame.drive.trebleSlow))
        beat = clamp01(frame.react * frame.drive.beat)
        glow = 0.12 * frame.react * min(1, frame.drive.level)
        // A new set of glinting sparkles every half second of media time (about a beat at 120 BPM).
        slot = Int32(truncatingIfNeeded: Int64(max(0, min(frame.mediaTime * 2, 1e9))))
        edge = max(frame.pixel * density, 1e-3)
        // The fine layer fades out where its cells shrink under eight grid pixels (its sparkles would
        // be clipped by their cells).
        fineGain = 0.5 * clamp01((1 / (2.3 * edge) - 4) / 4)
    }

    struct Row { var y: Float, base: Float, sheenY: Lanes }

    func row(_ y: Float) -> Row { Row(y: y, base: 0.24 + glow - 0.22 * y, sheenY: Lanes(repeating: y * 2.5 + 0.05 * t)) }

    func shade(_ x: Lanes, _ row: Row) -> Lanes {
        // Two layers of sparkles, the second finer, dimmer and offset: no grid shows.
        let big = sparkle(x * density + 100, Lanes(repeating: row.y * density + 100), seed: 0, size: 1, pixel: edge)
        let k = density * 2.3
        let fine = sparkle(x * k + 300.37, Lanes(repeating: row.y * k + 300.61), seed: 7, size: 0.7, pixel: edge * 2.3)
        let sheen = noise.value(x * 2.5, row.sheenY)
        return clamp01(row.base + 0.12 * sheen + 0.85 * big + fineGain * fine)
    }

    /// Light of the sparkle of the cell holding (u, v) (in cells): a round disc at least a grid pixel
    /// across and, for bright ones, a four-pointed star; `seed` picks the layer's hashes.
    @inline(__always) func sparkle(_ u: Lanes, _ v: Lanes, seed: Int32, size: Float, pixel: Float) -> Lanes {
        let cx = floorToInt32(u), cy = floorToInt32(v)
        let fx = u - lanesFloat(cx), fy = v - lanesFloat(cy)
        let sx = cx &+ seed, sy = cy &- seed
        // The sparkle's place inside its cell (0.25…0.75 each way), its twinkle and its beat draw.
        let px = 0.25 + 0.5 * noise.lattice(sx, sy), py = 0.25 + 0.5 * noise.lattice(sx &+ 57, sy &+ 23)
        let rate = noise.lattice(sx &+ 71, sy &+ 13), pick = noise.lattice(sx &+ 5, sy &+ 91)
        let draw = noise.lattice(sx &+ LaneInts(repeating: slot), sy &+ 37)
        let dx = fx - px, dy = fy - py
        let d2 = dx * dx + dy * dy
        let twinkle = 0.5 + 0.5 * fastSin(t * (1.5 + 4 * rate) + pick * 40)
        let lit = Lanes(repeating: 0).replacing(with: twinkle * twinkle, where: pick .< share)
        let glint = Lanes(repeating: 0).replacing(with: Lanes(repeating: beat), where: draw .< 0.4)
        let power = lanesMax(lit, glint)
        let radius = pointwiseMin(Lanes(repeating: 0.12), lanesMax(size * (0.05 + 0.04 * power), Lanes(repeating: 0.6 * pixel)))
        let disc = fastExp(-d2 / (radius * radius))
        let ax = dx.replacing(with: -dx, where: dx .< 0), ay = dy.replacing(with: -dy, where: dy .< 0)
        let width = max(0.02, 0.5 * pixel)
        let rays = (fastExp(-ay / width) + fastExp(-ax / width)) * fastExp(-(ax + ay) * 12)
        return power * (disc + 0.6 * power * rays)
    }
}
