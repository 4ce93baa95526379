import MarbleCore

/// Andromeda: a spiral galaxy — spiral arms of fbm dust around a bright core, turning. The arms wind
/// linearly with radius (Archimedean), cheaper than a logarithmic spiral and alike at this scale.
///
/// Audio: the core glows with the level, the arms brighten with the slow bass, beats flash the core.
/// k·θ with whole k is continuous across ±π, so the arms have no seam.
public final class Andromeda: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` reads per-frame values and the canvas.
    public static let descriptor = ShaderDescriptor(
        name: "andromeda", summary: "Turning spiral galaxy with a glowing core.", kind: .generator, isOpaque: true,
        parameters: [
            ParameterDescriptor("arms", "Number of spiral arms.", .integer(default: 2, range: 1...6)),
            ParameterDescriptor("twist", "How tightly the arms wind.", .number(default: 3, range: 0.5...8)),
        ] + BackgroundParameters.common(speed: 0.4))

    static let stops = ["#000004", "#120a2e", "#3a2a7a", "#8a6fd1", "#f0d9ff", "#fff6e0"].compactMap(Color.init(parsing:))
    /// Smooth field: 1/6 resolution is enough.
    private let canvas = BackgroundCanvas(scale: 6)
    private var frame = BackgroundFrame()
    private let arms: Float, twist: Float
    private var core: Float = 1, armLight: Float = 1

    public init(parameters: ShaderParameters) throws {
        arms = Float(parameters.integer("arms")); twist = parameters.number("twist")
    }

    public func configure(width: Int, height: Int) { canvas.configure(width: width, height: height) }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        frame = BackgroundFrame(uniforms, parameters)
        core = 0.6 + 0.4 * frame.react * (frame.drive.level + 0.5 * frame.drive.beat)
        armLight = 0.8 + 0.25 * frame.react * min(2, frame.drive.bassSlow)
        canvas.setPalette(Self.stops, hue: parameters.number("hue"))
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let t = frame.time, k = arms, tw = twist, coreGlow = core, arm = armLight
        let noise = Noise.Sampler()
        canvas.render(target, rows: rows, zoom: frame.zoom) { x0, y0, step, count, out in
            // A tilted disc: squash y.
            let y = y0 * 1.8
            let yy = y * y, yLanes = Lanes(repeating: y), winding = tw * 6, spin = t * 0.3
            let dustY = Lanes(repeating: y * 6 + 0.1 * t)
            forEachLaneGroup(count: count, { first in
                let x = lanes(x0, step: step, first: first)
                let r2 = x * x + yy, r = r2.squareRoot() + 1e-4
                let angle = fastAtan2(yLanes, x)
                // Arms where cos(k·θ − twist·r + t) peaks.
                let wind = angle * k - winding * r + spin
                let armShape = 0.5 + 0.5 * fastCos(wind)
                let dust = noise.fbm(x * 6 + 20, dustY, octaves: 3)
                let disc = fastExp(-r * 3.2)
                let coreLight = coreGlow * fastExp(-r2 * 90)
                let arms: Lanes = arm * disc * armShape * armShape * (0.4 + 0.9 * dust)
                return clamp01(arms + coreLight + 0.03 * dust)
            }, store: { i, v in out[i] = canvas.color(v) })
        }
    }
}
