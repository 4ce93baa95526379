import MarbleCore

/// Amsterdam: a canal at night — warm city lights as soft bokeh above, their reflections broken into
/// wavering streaks on the water below.
///
/// Lights are cellular feature points (one per cell, some dark); the water mirrors the sky with a
/// rippling sideways offset and vertical stretch. Audio: ripples stir with the slow bass, lights
/// brighten with the level and flash on beats.
public final class Amsterdam: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` reads per-frame values and the canvas.
    public static let descriptor = ShaderDescriptor(
        name: "amsterdam", summary: "City lights over a canal and their rippling reflections.", kind: .generator,
        isOpaque: true,
        parameters: [
            ParameterDescriptor("waterline", "Height of the waterline, −0.5 (top) … 0.5 (bottom).", .number(default: 0.1, range: -0.5...0.5)),
        ] + BackgroundParameters.common(speed: 0.5))

    static let stops = ["#03040a", "#0d1226", "#3a2a3a", "#b5652a", "#ffc46b", "#fff3d6"].compactMap(Color.init(parsing:))
    /// Soft shapes: 1/5 resolution is enough.
    private let canvas = BackgroundCanvas(scale: 5)
    private var frame = BackgroundFrame()
    private var waterline: Float = 0.1, ripple: Float = 1, light: Float = 1

    public init(parameters: ShaderParameters) throws {}

    public func configure(width: Int, height: Int) { canvas.configure(width: width, height: height) }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        frame = BackgroundFrame(uniforms, parameters)
        waterline = parameters.number("waterline")
        ripple = 1 + 0.5 * frame.react * min(2, frame.drive.bassSlow)
        light = 0.75 + 0.3 * frame.react * (frame.drive.level + 0.5 * frame.drive.beat)
        canvas.setPalette(Self.stops, hue: parameters.number("hue"))
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let t = frame.time, line = waterline, rp = ripple, li = light
        let noise = Noise.Sampler()
        canvas.render(target, rows: rows, zoom: frame.zoom) { x0, y, step, count, out in
            let inWater = y > line
            // Mirror about the waterline, stretched vertically (reflections elongate).
            let depth = y - line
            let mirrorY = inWater ? line - depth * 0.8 : y
            let rowWave = inWater ? 0.012 * rp * (0.2 + depth * 2) : 0
            let rowPhase = y * 45 + t * 2, cellY = Lanes(repeating: mirrorY * 7)
            let sky = 0.06 + 0.08 * (0.5 - mirrorY), dim = 0.65 - 0.3 * depth
            forEachLaneGroup(count: count, { first in
                let x = lanes(x0, step: step, first: first)
                let wobble = rowWave * fastSin(rowPhase + 0.5 * fastSin(x * 3 + t))
                let c = noise.voronoi((x + wobble) * 7, cellY, jitter: 0.9)
                let glow = fastExp(-c.f1 * c.f1 * 30) * (0.6 + 0.8 * c.id)
                let lamp = Lanes(repeating: 0).replacing(with: glow, where: c.id .< 0.45)
                let v = sky + li * lamp
                return inWater ? v * dim : v
            }, store: { i, v in out[i] = canvas.color(v) })
        }
    }
}
