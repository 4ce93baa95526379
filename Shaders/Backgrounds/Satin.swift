import MarbleCore

/// Satin: flowing fabric — smooth folds from crossed sine waves bent by slow noise, lit by a soft
/// sheen that slides across them.
///
/// Audio: folds deepen with the slow bass, the sheen brightens with the level.
public final class Satin: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` reads per-frame values and the canvas.
    public static let descriptor = ShaderDescriptor(
        name: "satin", summary: "Flowing satin folds with a sliding sheen.", kind: .generator, isOpaque: true,
        parameters: [
            ParameterDescriptor("folds", "Number of folds across the frame.", .number(default: 3, range: 0.5...12)),
        ] + BackgroundParameters.common(speed: 0.4))

    static let stops = ["#1a0610", "#5c1030", "#a3245a", "#e0608f", "#ffc2d6", "#fff5f8"].compactMap(Color.init(parsing:))
    private let canvas = BackgroundCanvas()
    private var frame = BackgroundFrame()
    private var folds: Float = 3, depth: Float = 1, sheen: Float = 1

    public init(parameters: ShaderParameters) throws {}

    public func configure(width: Int, height: Int) { canvas.configure(width: width, height: height) }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        frame = BackgroundFrame(uniforms, parameters)
        folds = parameters.number("folds") * 2
        depth = 1 + 0.3 * frame.react * min(2, frame.drive.bassSlow)
        sheen = 0.6 + 0.4 * frame.react * frame.drive.level
        canvas.setPalette(Self.stops, hue: parameters.number("hue"))
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let t = frame.time, f = folds, d = depth, sh = sheen
        let noise = Noise.Sampler()
        canvas.render(target, rows: rows, zoom: frame.zoom) { x0, y, step, count, out in
            // Per row: the bend's row share, the row's fold offset and the sheen's light direction.
            let rowBend = 0.6 * fastSin(y * 1.3 + t * 0.2)
            let drift = 0.1 * t, noiseY = y * 1.5
            let rowFold = 0.4 * fastSin(y * f * 0.7 - t * 0.3)
            let lightDirection = fastSin(t * 0.25 + y * 2)
            let noiseYs = Lanes(repeating: noiseY), sheenGain = sh * 0.35
            forEachLaneGroup(count: count, { first in
                let x = lanes(x0, step: step, first: first)
                let bend = noise.value(x * 1.5 + drift, noiseYs) * 2
                let u = x * f + d * (bend + rowBend) + rowFold
                let height = fastSin(u)
                // Sheen: light from a direction sliding with time, on the fold's slope.
                let slope = fastCos(u)
                return 0.5 + 0.35 * height + sheenGain * clamp01(slope * lightDirection)
            }, store: { i, v in out[i] = canvas.color(v) })
        }
    }
}
