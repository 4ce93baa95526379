import MarbleCore

/// Marble: polished stone — veins from a sine of x bent by fbm turbulence, white and grey with gold.
///
/// Audio: the turbulence (how much veins wander) swells with the slow mid band; beats brighten the
/// gold. Versus Marble's Metal original (turbulence from wall-clock time and loudness via sin()):
/// media time and bounded reaction.
public final class MarbleBackground: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` reads per-frame values and the canvas.
    public static let descriptor = ShaderDescriptor(
        name: "marble", summary: "Polished marble veins bent by turbulence.", kind: .generator, isOpaque: true,
        parameters: [
            ParameterDescriptor("veins", "Number of veins across the frame.", .number(default: 4, range: 1...20)),
        ] + BackgroundParameters.common(speed: 0.3))

    static let stops = ["#2b2b30", "#8d8a86", "#d8d4cc", "#f7f4ee", "#d6b25e", "#fffaf0"].compactMap(Color.init(parsing:))
    private let canvas = BackgroundCanvas()
    private var frame = BackgroundFrame()
    private var veins: Float = 4, turbulence: Float = 5

    public init(parameters: ShaderParameters) throws {}

    public func configure(width: Int, height: Int) { canvas.configure(width: width, height: height) }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        frame = BackgroundFrame(uniforms, parameters)
        veins = parameters.number("veins") * Float.pi
        turbulence = 5 + 1.5 * frame.react * min(2, frame.drive.midSlow)
        canvas.setPalette(Self.stops, hue: parameters.number("hue"), gain: 1 + 0.08 * frame.react * frame.drive.beat)
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let t = frame.time, k = veins, turb = turbulence
        let noise = Noise.Sampler()
        canvas.render(target, rows: rows, zoom: frame.zoom) { x0, y, step, count, out in
            let ny = Lanes(repeating: y * 2.5 - 0.03 * t), slant = 0.6 * y
            forEachLaneGroup(count: count, { first in
                let x = lanes(x0, step: step, first: first)
                let n = noise.fbm(x * 2.5 + 0.05 * t, ny, octaves: 4)
                let s = fastSin((x + slant) * k + turb * n + 0.2 * t)
                // Thin dark veins where s crosses 0, a gold vein where it peaks.
                let vein = 1 - s.replacing(with: -s, where: s .< 0)
                let body = 0.35 + 0.35 * n
                let veinLight: Lanes = 0.3 * vein * vein * vein * vein
                return clamp01(body + veinLight + 0.35 * smoothstep(0.9, 0.99, s))
            }, store: { i, v in out[i] = canvas.color(v) })
        }
    }
}
