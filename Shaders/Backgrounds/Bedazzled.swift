import MarbleCore

/// Bedazzled: a field of glitter — cells of tiny facets, each flashing at its own rate and phase over
/// a warm gradient.
///
/// Audio: more facets catch the light as the treble rises, beats make them all flash. Each facet's
/// rate and phase come from a hash of its cell, so the sparkle is a pure function of media time.
struct Bedazzled: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "bedazzled", "Glitter flashing with the treble and beats.", speed: 1, [
            ParameterDescriptor("density", "Facets across the frame height.", .number(default: 40, range: 8...120)),
        ])
    static let stops = ["#1a0d05", "#4a2a0d", "#8c5a1c", "#d4a043", "#ffe7a3", "#ffffff"].compactMap(Color.init(parsing:))
    static let resolution = BackgroundResolution(scale: 4)

    private let noise = Noise.Sampler()
    private var t: Float = 0, density: Float = 40, share: Float = 0.3, flash: Float = 0

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        t = frame.time
        density = parameters.number("density")
        share = clamp01(0.25 + 0.2 * frame.react * min(1.5, frame.drive.trebleSlow))
        flash = 0.5 * frame.react * frame.drive.beat
    }

    struct Row { var cellY: LaneInts, rateY: LaneInts, tilt: Float }

    func row(_ y: Float) -> Row {
        let cy = floorToInt32(y * density)
        return Row(cellY: LaneInts(repeating: cy), rateY: LaneInts(repeating: cy &+ 13), tilt: y * 0.3)
    }

    func shade(_ x: Lanes, _ row: Row) -> Lanes {
        let cx = floorToInt32(x * density)
        let facet = noise.lattice(cx, row.cellY), rate = noise.lattice(cx &+ 71, row.rateY)
        let twinkle = 0.5 + 0.5 * fastSin(t * (2 + 6 * rate) + facet * 40)
        let lit = Lanes(repeating: 0).replacing(with: twinkle * twinkle * twinkle, where: facet .< share)
        let base = 0.25 + 0.25 * (x * 0.5 + 0.5 - row.tilt) + 0.15 * facet
        return clamp01(base + 0.7 * lit + flash * facet)
    }
}
