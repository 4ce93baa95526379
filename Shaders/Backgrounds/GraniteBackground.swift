import MarbleCore

/// Granite: speckled polished stone — crystal grains (Voronoi cells, each its own shade) over coarse
/// mottling, a few grains sparkling, drifting very slowly.
///
/// Audio: flecks sparkle with the treble (a brighter fleck threshold), the polish brightens with the
/// level and lifts on beats.
struct GraniteBackground: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "granite", "Speckled polished granite with sparkling flecks.", speed: 0.1, [
            ParameterDescriptor("grain", "Crystal size: higher gives finer stone.", .number(default: 1, range: 0.25...4)),
        ])
    static let stops = ["#121214", "#3b3737", "#7d6e6a", "#b9a39a", "#e6dcd4", "#ffffff"].compactMap(Color.init(parsing:))
    /// Small grains: full resolution at small sizes, a third at 720p, a quarter at 1080p (≈37 ns a pixel).
    static let resolution = BackgroundResolution(coarsest: 4, budget: 175_000)

    private let noise = Noise.Sampler()
    private var t: Float = 0, g: Float = 24, sparkle: Float = 0, seamWidth: Float = 0.12
    private(set) var paletteGain: Float = 1

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        t = frame.time
        g = parameters.number("grain") * 24
        // Seams at least two grid pixels wide (f2 − f1 is about twice the distance to the seam).
        seamWidth = max(0.12, 2 * frame.pixel * g)
        sparkle = 0.3 * frame.react * min(1.5, 0.5 * frame.drive.trebleSlow + 0.5 * frame.drive.treble)
        paletteGain = 1 + frame.react * (0.15 * min(1.5, frame.drive.level) + 0.3 * frame.drive.beat)
    }

    func row(_ y: Float) -> (coarseY: Lanes, grainY: Lanes) {
        (Lanes(repeating: y * g * 0.15), Lanes(repeating: y * g))
    }

    func shade(_ x: Lanes, _ row: (coarseY: Lanes, grainY: Lanes)) -> Lanes {
        let sp = sparkle, x = x + 0.02 * t
        let coarse = noise.fbm(x * g * 0.15, row.coarseY, octaves: 2)
        let grain = noise.voronoi(x * g, row.grainY, jitter: 0.9)
        let crystal = grain.id
        let seam = smoothstep(0.0, seamWidth, grain.f2 - grain.f1)       // thin dark boundaries
        var v = (0.12 + 0.45 * coarse + 0.35 * crystal * crystal) * (0.75 + 0.25 * seam)
        v += (0.3 + sp) * smoothstep(0.965 - sp * 0.05, 0.995, crystal)  // mica flecks
        return v
    }
}
