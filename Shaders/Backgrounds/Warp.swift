import MarbleCore

/// Warp: flying down a tunnel — polar coordinates mapped to depth (1/r) and angle, textured with fbm
/// streaks, bright at the far end.
///
/// Audio: the flight surges with the bass (depth offset = time·speed + surge·slow bass: faster while
/// the bass swells, a pure function of the frame), the walls flash on beats. Versus Marble's Metal
/// original (speed = sin(loudness), reversing when loud): never reverses with loudness.
public final class Warp: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` reads per-frame values and the canvas.
    public static let descriptor = ShaderDescriptor(
        name: "warp", summary: "Flight down a streaked tunnel, surging with the bass.", kind: .generator, isOpaque: true,
        parameters: [
            ParameterDescriptor("surge", "Extra depth pushed by the bass.", .number(default: 0.6, range: 0...4)),
        ] + BackgroundParameters.common(speed: 1))

    static let stops = ["#000000", "#12002e", "#3f1d8c", "#2f7bd6", "#8fe3ff", "#ffffff"].compactMap(Color.init(parsing:))
    /// Smooth field: 1/5 resolution.
    private let canvas = BackgroundCanvas(scale: 5)
    private var frame = BackgroundFrame()
    private var depth: Float = 0

    public init(parameters: ShaderParameters) throws {}

    public func configure(width: Int, height: Int) { canvas.configure(width: width, height: height) }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        frame = BackgroundFrame(uniforms, parameters)
        depth = fract(frame.time * 0.5 / 256 + parameters.number("surge") * frame.react * frame.drive.bassSlow / 256) * 256
        canvas.setPalette(Self.stops, hue: parameters.number("hue"), gain: 1 + 0.25 * frame.react * frame.drive.beat)
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let d = depth, spin = frame.time * 0.05
        let noise = Noise.Sampler()
        canvas.render(target, rows: rows, zoom: frame.zoom) { x0, y, step, count, out in
            let yy = Lanes(repeating: y)
            forEachLaneGroup(count: count, { first in
                let x = lanes(x0, step: step, first: first)
                let r = lanesMax(Lanes(repeating: 1e-3), (x * x + yy * yy).squareRoot())
                let angle = fastAtan2(yy, x) * (1 / Float.pi) + spin   // −1…1 around the tunnel
                let u = 0.35 / r + d
                // Angle wraps at ±1: sample noise on a circle of the angle so the seam disappears.
                let a = angle * Float.pi
                let streak = noise.fbm(fastCos(a) * 3 + 10, fastSin(a) * 3 + u * 2, octaves: 3)
                let rings = 0.5 + 0.5 * fastSin(u * 12)
                let fade = clamp01(r * 2.2)
                let glow = clamp01(0.05 / r) * 0.6
                return clamp01((streak * 0.8 + 0.2 * rings) * fade + glow)
            }, store: { i, v in out[i] = canvas.color(v) })
        }
    }
}
