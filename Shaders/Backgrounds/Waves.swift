import MarbleCore

/// Waves: layered ocean swells — several sine layers with drifting phase, darker with depth.
///
/// Audio: wave height follows the level and surges on each beat (the crests rise and foam, the sea
/// brightens), the crest highlights the treble; the swell never wraps (Marble's Metal original scaled
/// the phase by sin(loudness)). Wave heights depend on x only, so `prepare` computes them once per
/// column and layer; pixels only compare their height with them. Each crest line is antialiased over
/// a share of the frame height, never under 2 grid pixels, so it does not step at any size.
struct Waves: BackgroundField {
    static let descriptor = ShaderDescriptor.background(
        "waves", "Layered ocean swells rising with the level.", speed: 0.8, [
            ParameterDescriptor("layers", "Number of wave layers.", .integer(default: 6, range: 2...12)),
        ])
    static let stops = ["#020b1a", "#06304f", "#0c5a7a", "#2aa1b3", "#bfeff0", "#ffffff"].compactMap(Color.init(parsing:))
    /// Cheap per pixel but with long crest lines: a third at 1080p, a half at 720p, full at 640x360.
    static let resolution = BackgroundResolution(coarsest: 4, budget: 240_000)

    private let layers: Int
    private var crest: Float = 0.2, edge: Float = 1.0 / 240
    private(set) var paletteGain: Float = 1
    /// Crest height of layer l at each low-resolution column: table l.
    private var heights: BackgroundColumns?

    init(parameters: ShaderParameters) { layers = parameters.integer("layers") }

    var columnTables: Int { layers }

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        let r = frame.react, d = frame.drive
        let amp = 0.035 * (1 + r * d.level) * (1 + 0.6 * r * d.beat), t = frame.time
        crest = 0.2 + 0.15 * r * min(1.5, d.trebleSlow) + 0.25 * r * d.beat
        paletteGain = 1 + r * (0.1 * min(1, d.level) - 0.1 + 0.15 * d.beat)
        // The soft edge of a crest: 1/240 of the height, at least 2 grid pixels.
        edge = max(1.0 / 240, 2 * frame.pixel)
        let columns = frame.columns
        heights = columns
        for l in 0..<layers {
            let depth = Float(l) / Float(layers)
            let base = -0.35 + 0.8 * depth, f = 3 + 2 * depth, lift = amp * (1 + depth)
            let row = columns.table(l)
            for i in 0..<columns.count {
                let x = columns.x(i)
                row[i] = base + lift * (fastSin(x * f + t * (0.6 + depth) + Float(l) * 1.7)
                    + 0.5 * fastSin(x * f * 2.3 - t * 0.9 + Float(l)))
            }
        }
    }

    func fill(_ row: BackgroundRow, _ out: UnsafeMutablePointer<UInt32>, _ canvas: BackgroundCanvas) {
        guard let heights, heights.count == row.count else { return fillPixels(out, row.count, canvas.palette[0]) }
        let n = layers, crest = crest, count = row.count, y = row.y, sharpness = 1 / edge
        // Layer by layer over the whole row (vectorises); the front-most layer above a pixel wins.
        out.withMemoryRebound(to: Float.self, capacity: count) { v in
            v.update(repeating: 0.05, count: count)
            for l in 0..<n {
                let depth = Float(l) / Float(n)
                let heightRow = heights.table(l)
                for i in 0..<count {
                    let d = y - heightRow[i]
                    let inside = clamp01(d * sharpness + 0.5)   // coverage of the crest line
                    let foam = clamp01(1 - d * 40) * inside * crest
                    v[i] = mix(v[i], 0.15 + 0.6 * depth + foam, inside)
                }
            }
            for i in 0..<count { v[i] = clamp01(v[i]) }
        }
        for i in 0..<count { out[i] = canvas.color(Float(bitPattern: out[i])) }
    }
}
