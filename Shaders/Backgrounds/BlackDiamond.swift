import MarbleCore

/// Black diamond: a dark faceted crystal — Voronoi facets, each a flat plane lit by a light that
/// circles slowly, with bright edges where facets meet.
///
/// Audio: edges blaze on beats, the light circles further with the slow mid band.
public final class BlackDiamond: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` reads per-frame values and the canvas.
    public static let descriptor = ShaderDescriptor(
        name: "black_diamond", summary: "Dark crystal facets lit by a circling light.", kind: .generator,
        isOpaque: true,
        parameters: [
            ParameterDescriptor("facets", "Facets across the frame height.", .number(default: 5, range: 1...30)),
        ] + BackgroundParameters.common(speed: 0.4))

    static let stops = ["#000000", "#07070c", "#151a2a", "#2f3b5c", "#8fa8d8", "#ffffff"].compactMap(Color.init(parsing:))
    private let canvas = BackgroundCanvas()
    private var frame = BackgroundFrame()
    private var facets: Float = 5, edgeGlow: Float = 0.4, lightX: Float = 1, lightY: Float = 0

    public init(parameters: ShaderParameters) throws {}

    public func configure(width: Int, height: Int) { canvas.configure(width: width, height: height) }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        frame = BackgroundFrame(uniforms, parameters)
        facets = parameters.number("facets")
        edgeGlow = 0.35 + 0.6 * frame.react * frame.drive.beat
        let a = frame.time * 0.5 + 0.4 * frame.react * frame.drive.midSlow
        lightX = fastCos(a); lightY = fastSin(a)
        canvas.setPalette(Self.stops, hue: parameters.number("hue"))
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let k = facets, glow = edgeGlow, lx = lightX, ly = lightY
        let noise = Noise.Sampler()
        canvas.render(target, rows: rows, zoom: frame.zoom) { x0, y, step, count, out in
            let cellY = Lanes(repeating: y * k)
            forEachLaneGroup(count: count, { first in
                let x = lanes(x0, step: step, first: first)
                let c = noise.voronoi(x * k, cellY, jitter: 1)
                // Each facet's normal from its id: a tilt direction on the unit circle.
                let tilt = c.id * 6.283_185
                let facing = 0.5 + 0.5 * (fastCos(tilt) * lx + fastSin(tilt) * ly)
                let edge = clamp01(1 - (c.f2 - c.f1) * 14)
                let lit: Lanes = 0.08 + 0.45 * facing * facing * facing
                return clamp01(lit + glow * edge * edge)
            }, store: { i, v in out[i] = canvas.color(v) })
        }
    }
}
