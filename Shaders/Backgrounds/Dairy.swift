import MarbleCore

/// Dairy: cow print — soft-edged black patches on cream, slowly drifting and reshaping.
///
/// Audio: patches grow with the slow bass (their threshold falls), beats add a warm tint through the
/// palette gain. A patch's edge is soft over a share of the frame, never under about 1.5 grid
/// pixels (the noise changes by ≈3 per frame height), so edges do not step at any size.
struct Dairy: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "dairy", "Drifting cow-print patches.", speed: 0.2, [
            ParameterDescriptor("patches", "Share of the hide covered by patches.", .number(default: 0.4, range: 0...1)),
        ])
    static let stops = ["#0d0b0a", "#2a2420", "#6e6258", "#d9cdb8", "#f5eedf", "#fffaf0"].compactMap(Color.init(parsing:))
    /// Soft shapes with crisp edges: a half at 640x360, a third at 720p, a fifth at 1080p (≈40 ns a pixel).
    static let resolution = BackgroundResolution(coarsest: 5, budget: 110_000)

    private let noise = Noise.Sampler()
    private var t: Float = 0, threshold: Float = 0.5, soft: Float = 0.03
    private(set) var paletteGain: Float = 1

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        t = frame.time
        threshold = 0.62 - 0.2 * parameters.number("patches") - 0.04 * frame.react * min(2, frame.drive.bassSlow)
        paletteGain = 1 + 0.06 * frame.react * frame.drive.beat
        soft = max(0.03, 2.2 * frame.pixel)
    }

    func row(_ y: Float) -> (bendY: Lanes, patchY: Float) { (Lanes(repeating: y * 3), y * 2.2) }

    func shade(_ x: Lanes, _ row: (bendY: Lanes, patchY: Float)) -> Lanes {
        let th = threshold, soft = soft
        // Low-octave noise bent by a second one gives blotchy, rounded patches.
        let bend = noise.fbm(x * 3 + 0.05 * t, row.bendY, octaves: 2) - 0.5
        let n = noise.fbm(x * 2.2 + bend * 0.8 + 0.02 * t + 40, row.patchY + bend * 0.8, octaves: 3)
        let spot = smoothstep(th + soft, th - soft, 1 - n)
        let hide = 0.85 + 0.1 * bend
        return hide * (1 - 0.92 * spot)
    }
}
