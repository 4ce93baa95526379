import MarbleCore

/// Bankai: released spiritual pressure — a burst of flame-like streaks radiating from the centre,
/// flickering outwards, red and black.
///
/// Audio: the burst's reach grows with the level, beats flare it white-hot. Angles are sampled on a
/// circle (cos, sin), so the streaks have no seam.
public final class Bankai: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` reads per-frame values and the canvas.
    public static let descriptor = ShaderDescriptor(
        name: "bankai", summary: "Radiating burst of flame streaks flaring on beats.", kind: .generator,
        isOpaque: true,
        parameters: [
            ParameterDescriptor("streaks", "Angular detail of the streaks.", .number(default: 6, range: 1...20)),
        ] + BackgroundParameters.common(speed: 1))

    static let stops = ["#000000", "#1a0000", "#6b0000", "#d01010", "#ff7a3a", "#ffffff"].compactMap(Color.init(parsing:))
    private let canvas = BackgroundCanvas()
    private var frame = BackgroundFrame()
    private var streaks: Float = 6, reach: Float = 0.5, flare: Float = 0

    public init(parameters: ShaderParameters) throws {}

    public func configure(width: Int, height: Int) { canvas.configure(width: width, height: height) }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        frame = BackgroundFrame(uniforms, parameters)
        streaks = parameters.number("streaks")
        reach = 0.35 + 0.3 * frame.react * frame.drive.level
        flare = 0.5 * frame.react * frame.drive.beat
        canvas.setPalette(Self.stops, hue: parameters.number("hue"), gain: 1 + 0.3 * flare)
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let t = frame.time, k = streaks, rc = reach, fl = flare
        let noise = Noise.Sampler()
        canvas.render(target, rows: rows, zoom: frame.zoom) { x0, y, step, count, out in
            let yy = y * y, flow = t * 1.5, coreGain = 0.6 + fl
            forEachLaneGroup(count: count, { first in
                let x = lanes(x0, step: step, first: first)
                let r = (x * x + yy).squareRoot() + 1e-5
                let cx = x / r, cy = y / r
                // Noise along the ray flows outwards with time.
                let n = noise.fbm(cx * k + 13, cy * k + r * 3 - flow, octaves: 3)
                let flame = smoothstep(0.0, 1.0, (rc + 0.4 * n - r) * 3)
                let core = fastExp(-r * 10) * coreGain
                return flame * (0.5 + n) + core
            }, store: { i, v in out[i] = canvas.color(v) })
        }
    }
}
