import MarbleCore

/// Temple: a turning mandala — the plane folded into mirrored wedges (kaleidoscope), tiled with
/// fbm ornament and concentric rings, gilded.
///
/// Audio: the rings pulse outwards on beats, the ornament's detail follows the slow mid band.
public final class Temple: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` reads per-frame values and the canvas.
    public static let descriptor = ShaderDescriptor(
        name: "temple", summary: "Turning kaleidoscopic mandala, rings pulsing on beats.", kind: .generator,
        isOpaque: true,
        parameters: [
            ParameterDescriptor("wedges", "Mirror wedges around the centre.", .integer(default: 8, range: 2...24)),
        ] + BackgroundParameters.common(speed: 0.3))

    static let stops = ["#0a0503", "#3b1a08", "#8a4b12", "#d49a2a", "#ffe08a", "#fffbe8"].compactMap(Color.init(parsing:))
    /// Smooth field: 1/6 resolution is enough.
    private let canvas = BackgroundCanvas(scale: 6)
    private var frame = BackgroundFrame()
    private let wedge: Float
    private var pulse: Float = 0, detail: Float = 1

    public init(parameters: ShaderParameters) throws { wedge = Float.pi / Float(parameters.integer("wedges")) }

    public func configure(width: Int, height: Int) { canvas.configure(width: width, height: height) }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        frame = BackgroundFrame(uniforms, parameters)
        pulse = frame.react * frame.drive.beat
        detail = 4 + frame.react * min(2, frame.drive.midSlow)
        canvas.setPalette(Self.stops, hue: parameters.number("hue"))
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let t = frame.time, w = wedge, invW = 1 / wedge, p = pulse, d = detail
        let noise = Noise.Sampler()
        canvas.render(target, rows: rows, zoom: frame.zoom) { x0, y, step, count, out in
            let yy = y * y, yLanes = Lanes(repeating: y)
            let turn = t * 0.1, drift = t * 0.05, ringPhase = t * 2, ringPulse = p * 3, ringGlow = 0.15 * p
            forEachLaneGroup(count: count, { first in
                let x = lanes(x0, step: step, first: first)
                let r = (x * x + yy).squareRoot()
                // Fold the angle into one wedge and mirror every other wedge.
                let a = fastAtan2(yLanes, x) + turn
                let k = a * invW
                let f = fract(k)
                let folded = (1 - f).replacing(with: f, where: f .< 0.5) * w
                let u = r * fastCos(folded), v = r * fastSin(folded)
                let ornament = noise.fbm(u * d + 3, v * d - drift, octaves: 3)
                let rings = 0.5 + 0.5 * fastCos(r * 40 - ringPhase - ringPulse)
                let shade: Lanes = ornament * ornament * 1.6 * (0.5 + 0.5 * rings) * (1.2 - r)
                return clamp01(shade + ringGlow * rings)
            }, store: { i, v in out[i] = canvas.color(v) })
        }
    }
}
