import MarbleCore

/// M1lky way: the galactic band across a night sky — a diagonal glow of fbm star clouds split by
/// dark dust lanes, over a speckle of faint stars.
///
/// Audio: the band glows with the level, the dust lanes part slightly with the slow bass.
public final class MilkyWay: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` reads per-frame values and the canvas.
    public static let descriptor = ShaderDescriptor(
        name: "m1lky_way", summary: "The galactic band with dust lanes across the sky.", kind: .generator,
        isOpaque: true,
        parameters: [
            ParameterDescriptor("tilt", "Angle of the band in degrees.", .number(default: 25, range: -90...90)),
        ] + BackgroundParameters.common(speed: 0.1))

    static let stops = ["#000105", "#0a0f24", "#2a2f57", "#7d6f9e", "#e8d6c8", "#ffffff"].compactMap(Color.init(parsing:))
    private let canvas = BackgroundCanvas()
    private var frame = BackgroundFrame()
    private var cosTilt: Float = 1, sinTilt: Float = 0, glow: Float = 1, dust: Float = 1

    public init(parameters: ShaderParameters) throws {}

    public func configure(width: Int, height: Int) { canvas.configure(width: width, height: height) }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        frame = BackgroundFrame(uniforms, parameters)
        let a = parameters.number("tilt") * (Float.pi / 180)
        cosTilt = fastCos(a); sinTilt = fastSin(a)
        glow = 0.8 + 0.35 * frame.react * frame.drive.level
        dust = 1 - 0.15 * frame.react * min(2, frame.drive.bassSlow)
        canvas.setPalette(Self.stops, hue: parameters.number("hue"))
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let t = frame.time, c = cosTilt, s = sinTilt, g = glow, d = dust
        let noise = Noise.Sampler()
        canvas.render(target, rows: rows, zoom: frame.zoom) { x0, y, step, count, out in
            let sy = s * y, cy = c * y, speckleY = Lanes(repeating: y * 120)
            forEachLaneGroup(count: count, { first in
                let x = lanes(x0, step: step, first: first)
                let along = c * x + sy + 0.02 * t, across = -s * x + cy
                let clouds = noise.fbm(along * 3, across * 6, octaves: 4)
                let band = fastExp(-across * across * 18)
                let lane = smoothstep(0.45, 0.7, noise.fbm(along * 5 + 9, across * 14, octaves: 2)) * d
                let speckle = smoothstep(0.9, 1, noise.value(x * 120, speckleY))
                let light: Lanes = g * band * clouds * 1.3 * (1 - 0.8 * lane)
                return clamp01(light + 0.04 + 0.3 * speckle)
            }, store: { i, v in out[i] = canvas.color(v) })
        }
    }
}
