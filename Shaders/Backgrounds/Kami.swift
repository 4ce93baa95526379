import MarbleCore

/// Kami: Japanese paper with ink — fibrous washi (stretched fine noise) under slowly spreading
/// sumi-ink blooms.
///
/// Audio: the blooms spread with the slow bass (their threshold falls), beats darken the ink.
public final class Kami: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` reads per-frame values and the canvas.
    public static let descriptor = ShaderDescriptor(
        name: "kami", summary: "Washi paper with spreading ink blooms.", kind: .generator, isOpaque: true,
        parameters: [
            ParameterDescriptor("ink", "How much of the paper the ink covers.", .number(default: 0.35, range: 0...1)),
        ] + BackgroundParameters.common(speed: 0.2))

    static let stops = ["#0c0c10", "#2c2c34", "#6b6a70", "#b9b4a8", "#e9e3d3", "#f8f4ea"].compactMap(Color.init(parsing:))
    private let canvas = BackgroundCanvas()
    private var frame = BackgroundFrame()
    private var threshold: Float = 0.6, darkness: Float = 1

    public init(parameters: ShaderParameters) throws {}

    public func configure(width: Int, height: Int) { canvas.configure(width: width, height: height) }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        frame = BackgroundFrame(uniforms, parameters)
        threshold = 0.75 - 0.4 * parameters.number("ink") - 0.05 * frame.react * min(2, frame.drive.bassSlow)
        darkness = 0.8 + 0.2 * frame.react * frame.drive.beat
        canvas.setPalette(Self.stops, hue: parameters.number("hue"))
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let t = frame.time, th = threshold, dark = darkness
        let noise = Noise.Sampler()
        canvas.render(target, rows: rows, zoom: frame.zoom) { x0, y, step, count, out in
            let tilt = 0.3 * y, fibreY = Lanes(repeating: y * 6), inkY = Lanes(repeating: y * 1.8 - 0.02 * t)
            forEachLaneGroup(count: count, { first in
                let x = lanes(x0, step: step, first: first)
                // Fibres: noise stretched along a slightly tilted axis.
                let fibre = noise.value((x + tilt) * 60, fibreY)
                let ink = noise.fbm(x * 1.8 + 0.03 * t, inkY, octaves: 4)
                let wash = smoothstep(th, th + 0.12, ink)
                let edge = smoothstep(th - 0.02, th + 0.02, ink) - smoothstep(th + 0.02, th + 0.08, ink)
                let paper = 0.86 + 0.08 * fibre
                return paper * (1 - dark * (0.75 * wash + 0.25 * edge))
            }, store: { i, v in out[i] = canvas.color(v) })
        }
    }
}
