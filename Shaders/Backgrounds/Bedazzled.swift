import MarbleCore

/// Bedazzled: a field of glitter — cells of tiny facets, each flashing at its own rate and phase over
/// a warm gradient.
///
/// Audio: more facets catch the light as the treble rises, beats make them all flash. Each facet's
/// rate and phase come from a hash of its cell, so the sparkle is a pure function of media time.
public final class Bedazzled: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` reads per-frame values and the canvas.
    public static let descriptor = ShaderDescriptor(
        name: "bedazzled", summary: "Glitter flashing with the treble and beats.", kind: .generator, isOpaque: true,
        parameters: [
            ParameterDescriptor("density", "Facets across the frame height.", .number(default: 40, range: 8...120)),
        ] + BackgroundParameters.common(speed: 1))

    static let stops = ["#1a0d05", "#4a2a0d", "#8c5a1c", "#d4a043", "#ffe7a3", "#ffffff"].compactMap(Color.init(parsing:))
    private let canvas = BackgroundCanvas()
    private var frame = BackgroundFrame()
    private var density: Float = 40, share: Float = 0.3, flash: Float = 0

    public init(parameters: ShaderParameters) throws {}

    public func configure(width: Int, height: Int) { canvas.configure(width: width, height: height) }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        frame = BackgroundFrame(uniforms, parameters)
        density = parameters.number("density")
        share = clamp01(0.25 + 0.2 * frame.react * min(1.5, frame.drive.trebleSlow))
        flash = 0.5 * frame.react * frame.drive.beat
        canvas.setPalette(Self.stops, hue: parameters.number("hue"))
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let t = frame.time, k = density, s = share, fl = flash
        let noise = Noise.Sampler()
        canvas.render(target, rows: rows, zoom: frame.zoom) { x0, y, step, count, out in
            let cy = floorToInt32(y * k)
            let cellY = LaneInts(repeating: cy), rateY = LaneInts(repeating: cy &+ 13), tilt = y * 0.3
            forEachLaneGroup(count: count, { first in
                let x = lanes(x0, step: step, first: first)
                let cx = floorToInt32(x * k)
                let facet = noise.lattice(cx, cellY), rate = noise.lattice(cx &+ 71, rateY)
                let twinkle = 0.5 + 0.5 * fastSin(t * (2 + 6 * rate) + facet * 40)
                let lit = Lanes(repeating: 0).replacing(with: twinkle * twinkle * twinkle, where: facet .< s)
                let base = 0.25 + 0.25 * (x * 0.5 + 0.5 - tilt) + 0.15 * facet
                return clamp01(base + 0.7 * lit + fl * facet)
            }, store: { i, v in out[i] = canvas.color(v) })
        }
    }
}
