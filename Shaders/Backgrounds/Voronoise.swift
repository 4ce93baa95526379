import MarbleCore

/// Voronoise: drifting cells — cellular noise coloured by cell, with glowing borders.
///
/// Audio: borders flash with the beat, the cells' jitter (how irregular they are) follows the slow
/// bass, and each cell's colour shifts along the palette with time. Versus Marble's Metal original
/// (jitter = sin(loudness), collapsing to a grid when loud): jitter bounded and monotonic.
struct Voronoise: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "voronoise", "Drifting Voronoi cells with glowing borders.", speed: 0.5, [
            ParameterDescriptor("cells", "Cells across the frame height.", .number(default: 6, range: 1...40)),
            ParameterDescriptor("border", "Border glow strength.", .number(default: 0.6, range: 0...2)),
        ])
    static let stops = ["#0b0c2a", "#1d3b72", "#2f8f9d", "#9ad0b5", "#f2e7c9", "#ff8f70"].compactMap(Color.init(parsing:))
    /// Thin borders: full resolution at small sizes, a third at 720p, a quarter at 1080p (≈31 ns a pixel).
    static let resolution = BackgroundResolution(coarsest: 4, budget: 210_000)

    private let noise = Noise.Sampler()
    private var t: Float = 0, cells: Float = 6, border: Float = 0.6, jitter: Float = 1

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        t = frame.time
        cells = parameters.number("cells")
        border = parameters.number("border") * (1 + frame.react * frame.drive.beat)
        jitter = clamp(0.6 + 0.2 * frame.react * frame.drive.bassSlow, 0, 1)
    }

    func row(_ y: Float) -> Lanes { Lanes(repeating: y * cells + 0.11 * t) }

    func shade(_ x: Lanes, _ cellY: Lanes) -> Lanes {
        let c = noise.voronoi(x * cells + 0.3 * t, cellY, jitter: jitter)
        let edge = clamp01(1 - (c.f2 - c.f1) * 6)
        let shade = fract(c.id + 0.03 * t) * 0.75 + 0.25 * (1 - c.f1)
        return clamp01(shade + border * edge * edge)
    }
}
