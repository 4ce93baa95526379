import MarbleCore

/// Voronoise: drifting cells — cellular noise coloured by cell, with glowing borders.
///
/// Audio: borders flash with the beat, the cells' jitter (how irregular they are) follows the slow
/// bass, and each cell's colour shifts along the palette with time. Versus Marble's Metal original
/// (jitter = sin(loudness), collapsing to a grid when loud): jitter bounded and monotonic.
public final class Voronoise: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` reads per-frame values and the canvas.
    public static let descriptor = ShaderDescriptor(
        name: "voronoise", summary: "Drifting Voronoi cells with glowing borders.", kind: .generator, isOpaque: true,
        parameters: [
            ParameterDescriptor("cells", "Cells across the frame height.", .number(default: 6, range: 1...40)),
            ParameterDescriptor("border", "Border glow strength.", .number(default: 0.6, range: 0...2)),
        ] + BackgroundParameters.common(speed: 0.5))

    static let stops = ["#0b0c2a", "#1d3b72", "#2f8f9d", "#9ad0b5", "#f2e7c9", "#ff8f70"].compactMap(Color.init(parsing:))
    private let canvas = BackgroundCanvas()
    private var frame = BackgroundFrame()
    private var cells: Float = 6, border: Float = 0.6, jitter: Float = 1

    public init(parameters: ShaderParameters) throws {}

    public func configure(width: Int, height: Int) { canvas.configure(width: width, height: height) }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        frame = BackgroundFrame(uniforms, parameters)
        cells = parameters.number("cells")
        border = parameters.number("border") * (1 + frame.react * frame.drive.beat)
        jitter = clamp(0.6 + 0.2 * frame.react * frame.drive.bassSlow, 0, 1)
        canvas.setPalette(Self.stops, hue: parameters.number("hue"))
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let t = frame.time, k = cells, b = border, jit = jitter
        let noise = Noise.Sampler()
        canvas.render(target, rows: rows, zoom: frame.zoom) { x0, y, step, count, out in
            let cellY = Lanes(repeating: y * k + 0.11 * t)
            forEachLaneGroup(count: count, { first in
                let x = lanes(x0, step: step, first: first)
                let c = noise.voronoi(x * k + 0.3 * t, cellY, jitter: jit)
                let edge = clamp01(1 - (c.f2 - c.f1) * 6)
                let shade = fract(c.id + 0.03 * t) * 0.75 + 0.25 * (1 - c.f1)
                return clamp01(shade + b * edge * edge)
            }, store: { i, v in out[i] = canvas.color(v) })
        }
    }
}
