import MarbleCore

/// Black diamond: a dark faceted crystal — Voronoi facets, each a flat plane lit by a light that
/// circles slowly, with bright edges where facets meet.
///
/// Edges are antialiased: the edge weight is a smooth bell in f2 − f1 (flat on the ridge, where f2 − f1
/// has a kink that sampling on a grid turns into beads), about 2 grid pixels wide or more; and each
/// facet's shade fades to the same ridge value as it nears an edge, so facets meet without a seam and
/// edges do not step at any size.
///
/// Audio: edges blaze on beats, the light circles further with the slow mid band.
struct BlackDiamond: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "black_diamond", "Dark crystal facets lit by a circling light.", speed: 0.4, [
            ParameterDescriptor("facets", "Facets across the frame height.", .number(default: 5, range: 1...30)),
        ])
    static let stops = ["#000000", "#07070c", "#151a2a", "#2f3b5c", "#8fa8d8", "#ffffff"].compactMap(Color.init(parsing:))
    /// Thin edges: full resolution at small sizes, a third at 720p, a quarter at 1080p (≈32 ns a pixel).
    static let resolution = BackgroundResolution(coarsest: 4, budget: 200_000)

    private let noise = Noise.Sampler()
    private var facets: Float = 5, edgeGlow: Float = 0.4, lightX: Float = 1, lightY: Float = 0, sharpness: Float = 14

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        facets = parameters.number("facets")
        // Edges at least 2.5 grid pixels wide (in f2 − f1 units, about twice the distance to the edge;
        // `shade` narrows the bell by 1.3, so about 2 of them).
        sharpness = min(14, 1 / max(2.5 * frame.pixel * facets, 1e-4))
        edgeGlow = 0.35 + 0.6 * frame.react * frame.drive.beat
        let a = frame.time * 0.5 + 0.4 * frame.react * frame.drive.midSlow
        lightX = fastCos(a); lightY = fastSin(a)
    }

    func row(_ y: Float) -> Lanes { Lanes(repeating: y * facets) }

    func shade(_ x: Lanes, _ cellY: Lanes) -> Lanes {
        let c = noise.voronoi(x * facets, cellY, jitter: 1)
        // Each facet's normal from its id: a tilt direction on the unit circle.
        let tilt = c.id * 6.283_185
        let facing = 0.5 + 0.5 * (fastCos(tilt) * lightX + fastSin(tilt) * lightY)
        let across = (c.f2 - c.f1) * sharpness * 1.3
        let fall = clamp01(1 - across * across)
        let edge = fall * fall
        let lit: Lanes = 0.08 + 0.45 * facing * facing * facing
        // Towards the edge the facet's own shade gives way to the ridge's (the same on both sides).
        return clamp01(lit + fall * (0.2 - lit) + edgeGlow * edge)
    }
}
