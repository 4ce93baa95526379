import MarbleCore

/// Latte: milk swirling into coffee — a vortex twist of warped noise through brown and cream.
///
/// Audio: the swirl turns faster as the slow mid band rises (an offset, not an integral: frames
/// stay independent), beats whiten the foam.
public final class Latte: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` reads per-frame values and the canvas.
    public static let descriptor = ShaderDescriptor(
        name: "latte", summary: "Milk swirling into coffee.", kind: .generator, isOpaque: true,
        parameters: [
            ParameterDescriptor("swirl", "How strongly the vortex twists.", .number(default: 2.5, range: 0...8)),
        ] + BackgroundParameters.common(speed: 0.3))

    static let stops = ["#2a140a", "#5b3219", "#8e5a34", "#c89566", "#ecd2b0", "#fff8ee"].compactMap(Color.init(parsing:))
    /// Smooth field: 1/6 resolution is enough.
    private let canvas = BackgroundCanvas(scale: 6)
    private var frame = BackgroundFrame()
    private var swirl: Float = 2.5, turn: Float = 0

    public init(parameters: ShaderParameters) throws {}

    public func configure(width: Int, height: Int) { canvas.configure(width: width, height: height) }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        frame = BackgroundFrame(uniforms, parameters)
        swirl = parameters.number("swirl")
        turn = frame.time * 0.3 + 0.5 * frame.react * frame.drive.midSlow
        canvas.setPalette(Self.stops, hue: parameters.number("hue"), gain: 1 + 0.08 * frame.react * frame.drive.beat)
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let sw = swirl, tn = turn, t = frame.time
        let noise = Noise.Sampler()
        canvas.render(target, rows: rows, zoom: frame.zoom) { x0, y, step, count, out in
            let yy = y * y
            forEachLaneGroup(count: count, { first in
                let x = lanes(x0, step: step, first: first)
                let r = (x * x + yy).squareRoot()
                // Rotate more near the centre: a vortex.
                let a = tn + sw / (0.3 + r * 3)
                let c = fastCos(a), s = fastSin(a)
                let u = c * x - s * y, v = s * x + c * y
                let n = noise.fbm(u * 3 + 7, v * 3 + 0.05 * t, octaves: 4)
                let milk = smoothstep(0.35, 0.7, n + 0.25 * fastSin(u * 8))
                return 0.15 + 0.8 * milk
            }, store: { i, v in out[i] = canvas.color(v) })
        }
    }
}
