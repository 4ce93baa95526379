import MarbleCore

/// Oculus: an eye's iris filling the frame — radial fibres of fbm around a pupil that dilates with
/// the bass, a dark limbal ring, a slow glint.
///
/// Audio: the pupil widens with the bass (smoothly: slow bass + a share of the beat pulse), fibres
/// brighten with the level. Angles are sampled on a circle (cos, sin) so fibres have no seam at ±π.
public final class Oculus: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` reads per-frame values and the canvas.
    public static let descriptor = ShaderDescriptor(
        name: "oculus", summary: "An iris whose pupil dilates with the bass.", kind: .generator, isOpaque: true,
        parameters: [
            ParameterDescriptor("pupil", "Pupil radius at rest, fraction of the frame height.", .number(default: 0.08, range: 0.02...0.3)),
        ] + BackgroundParameters.common(speed: 0.3))

    static let stops = ["#000000", "#06221f", "#0f5a52", "#3aa58f", "#d9b25a", "#fff2cf"].compactMap(Color.init(parsing:))
    private let canvas = BackgroundCanvas()
    private var frame = BackgroundFrame()
    private var pupil: Float = 0.08, fibreLight: Float = 1

    public init(parameters: ShaderParameters) throws {}

    public func configure(width: Int, height: Int) { canvas.configure(width: width, height: height) }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        frame = BackgroundFrame(uniforms, parameters)
        let dilation = 1 + 0.35 * frame.react * (0.5 * min(2, frame.drive.bassSlow) + 0.5 * frame.drive.beat)
        pupil = parameters.number("pupil") * min(2.5, dilation)
        fibreLight = 0.75 + 0.35 * frame.react * frame.drive.level
        canvas.setPalette(Self.stops, hue: parameters.number("hue"))
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let t = frame.time, p = pupil, light = fibreLight, irisEdge: Float = 0.42
        let noise = Noise.Sampler()
        canvas.render(target, rows: rows, zoom: frame.zoom) { x0, y, step, count, out in
            let yy = y * y, gy = y + 0.12, gyy = gy * gy
            forEachLaneGroup(count: count, { first in
                let x = lanes(x0, step: step, first: first)
                let r = (x * x + yy).squareRoot() + 1e-5
                let cx = x / r, cy = y / r          // the angle as a point on the unit circle
                let fibres = noise.fbm(cx * 7 + 0.05 * t, cy * 7 + r * 9, octaves: 3)
                let ring = smoothstep(irisEdge - 0.08, irisEdge, r)
                let iris: Lanes = (0.35 + 0.65 * fibres) * light * (1 - 0.7 * ring)
                var v = iris * (1 - smoothstep(irisEdge, irisEdge + 0.01, r))
                v += 0.25 * smoothstep(p + 0.06, p, r - 0.02) * fibres      // bright collar round the pupil
                v *= smoothstep(p, p + 0.01, r)                               // the pupil itself is black
                // A glint up and left.
                let gx = x + 0.12
                v += 0.9 * smoothstep(0.035, 0.02, (gx * gx + gyy).squareRoot())
                return v
            }, store: { i, v in out[i] = canvas.color(v) })
        }
    }
}
