import MarbleCore

/// Godrays (background): shafts of light fanning down from a bright point above the frame, with drifting
/// dust in the beams.
///
/// Audio: the light pulses with the beat, the shafts widen with the slow bass. Angles are sampled on a
/// circle (cos, sin), so shafts have no seam. (The `light_rays` filter casts rays from a picture; this one
/// draws them from nothing.)
public final class GodraysBackground: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` reads per-frame values and the canvas.
    public static let descriptor = ShaderDescriptor(
        name: "godrays", summary: "Shafts of light fanning from above, dust in the beams.", kind: .generator,
        isOpaque: true,
        parameters: [
            ParameterDescriptor("shafts", "Angular frequency of the shafts.", .number(default: 5, range: 1...20)),
        ] + BackgroundParameters.common(speed: 0.4))

    static let stops = ["#02030a", "#0b1633", "#23407a", "#7aa7d9", "#fff1c9", "#ffffff"].compactMap(Color.init(parsing:))
    /// Smooth field: 1/6 resolution is enough.
    private let canvas = BackgroundCanvas(scale: 6)
    private var frame = BackgroundFrame()
    private var shafts: Float = 5, intensity: Float = 1, width: Float = 1

    public init(parameters: ShaderParameters) throws {}

    public func configure(width: Int, height: Int) { canvas.configure(width: width, height: height) }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        frame = BackgroundFrame(uniforms, parameters)
        shafts = parameters.number("shafts")
        intensity = 0.8 + 0.5 * frame.react * frame.drive.beat
        width = 1 + 0.3 * frame.react * min(2, frame.drive.bassSlow)
        canvas.setPalette(Self.stops, hue: parameters.number("hue"))
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let t = frame.time, k = shafts, glow = intensity, w = width
        let noise = Noise.Sampler()
        canvas.render(target, rows: rows, zoom: frame.zoom) { x0, y0, step, count, out in
            let y = y0 + 0.75                           // the light sits above the top edge
            let yy = y * y, dustY = Lanes(repeating: y * 30 - 0.3 * t)
            forEachLaneGroup(count: count, { first in
                let x = lanes(x0, step: step, first: first)
                let r = (x * x + yy).squareRoot() + 1e-5
                let cx = x / r, cy = y / r
                let rays = noise.fbm(cx * k + 0.05 * t, cy * k + 0.03 * t, octaves: 3)
                let shaft = smoothstep(0.55 - 0.1 * w, 0.75, rays)
                let dust = noise.value(x * 30 + 0.2 * t, dustY)
                let fall = 1 / (1 + r * r * 2.5)
                let lit: Lanes = glow * fall * (0.15 + 0.85 * shaft) * (0.85 + 0.3 * dust)
                return clamp01(lit + 0.25 * fastExp(-r * 8))
            }, store: { i, v in out[i] = canvas.color(v) })
        }
    }
}
