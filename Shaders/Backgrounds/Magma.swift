import MarbleCore

/// Magma: slow molten rock — domain-warped fbm through a black → red → orange → yellow palette.
///
/// Audio: heat rises with the slow bass (the palette brightens and the hot end widens) and beats
/// briefly speed up the flow's warp. Versus Marble's Metal original (loudness through sin(), so very
/// loud passages cooled back down): heat follows the bass monotonically.
public final class Magma: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` reads per-frame values and the canvas.
    public static let descriptor = ShaderDescriptor(
        name: "magma", summary: "Molten rock: domain-warped fbm in fire colours.", kind: .generator, isOpaque: true,
        parameters: [
            ParameterDescriptor("heat", "Base temperature: higher shows more glowing rock.", .number(default: 0.5, range: 0...1)),
        ] + BackgroundParameters.common(speed: 0.6))

    static let stops = ["#000000", "#2a0300", "#8c1000", "#e8470c", "#ffb43a", "#fff4c2"].compactMap(Color.init(parsing:))
    /// Smooth but detailed: 1/5 resolution.
    private let canvas = BackgroundCanvas(scale: 5)
    private var frame = BackgroundFrame()
    private var heat: Float = 0.5

    public init(parameters: ShaderParameters) throws {}

    public func configure(width: Int, height: Int) { canvas.configure(width: width, height: height) }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        frame = BackgroundFrame(uniforms, parameters)
        heat = parameters.number("heat") + 0.25 * frame.react * (frame.drive.bassSlow - 1)
        canvas.setPalette(Self.stops, hue: parameters.number("hue"), gain: 1 + 0.15 * frame.react * frame.drive.beat)
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let t = frame.time, warp = 1.2 + 0.4 * frame.react * frame.drive.beat, bias = heat - 0.5
        let noise = Noise.Sampler()
        canvas.render(target, rows: rows, zoom: frame.zoom) { x0, y, step, count, out in
            let v = Lanes(repeating: y * 3)
            forEachLaneGroup(count: count, { first in
                let x = lanes(x0, step: step, first: first) * 3
                let qx = noise.fbm(x + 0.1 * t, v - 0.13 * t, octaves: 3)
                let qy = noise.fbm(x + 5.2 - 0.08 * t, v + 1.3, octaves: 3)
                let f = noise.fbm(x + warp * 4 * qx, v + warp * 4 * qy + 0.05 * t, octaves: 4)
                let hot = ((f - 0.3) * 1.9 + bias).clamped(lowerBound: Lanes(repeating: 0), upperBound: Lanes(repeating: 1))
                return hot * hot
            }, store: { i, heat in out[i] = canvas.color(heat) })
        }
    }
}
