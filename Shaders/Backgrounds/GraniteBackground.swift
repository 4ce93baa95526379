import MarbleCore

/// Granite: speckled polished stone — crystal grains (Voronoi cells, each its own shade) over coarse
/// mottling, a few grains sparkling, drifting very slowly.
///
/// Audio: flecks sparkle with the treble (a brighter fleck threshold), beats lift the polish.
public final class GraniteBackground: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` reads per-frame values and the canvas.
    public static let descriptor = ShaderDescriptor(
        name: "granite", summary: "Speckled polished granite with sparkling flecks.", kind: .generator, isOpaque: true,
        parameters: [
            ParameterDescriptor("grain", "Crystal size: higher gives finer stone.", .number(default: 1, range: 0.25...4)),
        ] + BackgroundParameters.common(speed: 0.1))

    static let stops = ["#121214", "#3b3737", "#7d6e6a", "#b9a39a", "#e6dcd4", "#ffffff"].compactMap(Color.init(parsing:))
    private let canvas = BackgroundCanvas()
    private var frame = BackgroundFrame()
    private var grain: Float = 1, sparkle: Float = 0

    public init(parameters: ShaderParameters) throws {}

    public func configure(width: Int, height: Int) { canvas.configure(width: width, height: height) }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        frame = BackgroundFrame(uniforms, parameters)
        grain = parameters.number("grain")
        sparkle = 0.2 * frame.react * min(1.5, frame.drive.trebleSlow)
        canvas.setPalette(Self.stops, hue: parameters.number("hue"), gain: 1 + 0.1 * frame.react * frame.drive.beat)
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let t = frame.time, g = grain * 24, sp = sparkle
        let noise = Noise.Sampler()
        canvas.render(target, rows: rows, zoom: frame.zoom) { x0, y, step, count, out in
            let coarseY = Lanes(repeating: y * g * 0.15), grainY = Lanes(repeating: y * g)
            forEachLaneGroup(count: count, { first in
                let x = lanes(x0, step: step, first: first) + 0.02 * t
                let coarse = noise.fbm(x * g * 0.15, coarseY, octaves: 2)
                let grain = noise.voronoi(x * g, grainY, jitter: 0.9)
                let crystal = grain.id
                let seam = smoothstep(0.0, 0.12, grain.f2 - grain.f1)       // thin dark boundaries
                var v = (0.12 + 0.45 * coarse + 0.35 * crystal * crystal) * (0.75 + 0.25 * seam)
                v += (0.3 + sp) * smoothstep(0.965 - sp * 0.05, 0.995, crystal)  // mica flecks
                return v
            }, store: { i, v in out[i] = canvas.color(v) })
        }
    }
}
