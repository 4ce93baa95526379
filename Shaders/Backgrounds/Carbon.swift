import MarbleCore

/// Carbon: woven carbon fibre — a 2/2 twill of rounded tows, each shaded across its width, with a
/// glossy band sliding over the weave.
///
/// Audio: the gloss flashes on beats and brightens with the level.
public final class Carbon: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` reads per-frame values and the canvas.
    public static let descriptor = ShaderDescriptor(
        name: "carbon", summary: "Carbon-fibre twill with a sliding gloss.", kind: .generator, isOpaque: true,
        parameters: [
            ParameterDescriptor("tows", "Tows across the frame height.", .number(default: 24, range: 4...60)),
        ] + BackgroundParameters.common(speed: 0.5))

    static let stops = ["#050607", "#121418", "#23272e", "#3c434d", "#8894a3", "#e8f0ff"].compactMap(Color.init(parsing:))
    private let canvas = BackgroundCanvas()
    private var frame = BackgroundFrame()
    private var tows: Float = 24, gloss: Float = 1

    public init(parameters: ShaderParameters) throws {}

    public func configure(width: Int, height: Int) { canvas.configure(width: width, height: height) }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        frame = BackgroundFrame(uniforms, parameters)
        tows = parameters.number("tows")
        gloss = 0.5 + 0.5 * frame.react * (frame.drive.beat + 0.5 * frame.drive.level)
        canvas.setPalette(Self.stops, hue: parameters.number("hue"))
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let k = tows, g = gloss, t = frame.time
        // Where the gloss band crosses (per frame).
        let sway = 0.8 * fastSin(t * 0.3)
        canvas.render(target, rows: rows, zoom: frame.zoom) { x0, y, step, count, out in
            let v = y * k
            let iy = floorToInt32(v)
            let fy = fract(v)
            let slant = y * 0.5
            let fys = Lanes(repeating: fy), glossGain = 0.35 * g
            forEachLaneGroup(count: count, { first in
                let x = lanes(x0, step: step, first: first)
                let u = x * k
                let ix = floorToInt32(u)
                let fx = u - Lanes(ix)
                // 2/2 twill: the warp is on top when (ix + iy) mod 4 < 2.
                let warpOnTop = ((ix &+ iy) & 3) .< 2
                let across = fys.replacing(with: fx, where: warpOnTop)      // position across the visible tow
                let along = fx.replacing(with: fys, where: warpOnTop)
                let round = 4 * across * (1 - across) // tow cross-section, 0 at edges, 1 in the middle
                let base = Lanes(repeating: 0.22).replacing(with: 0.3, where: warpOnTop)
                let across3 = (x + slant - sway) * 3
                let glossBand = fastExp(-across3 * across3)
                let sheen: Lanes = glossGain * glossBand * round * (0.6 + 0.4 * along)
                return base * (0.5 + 0.5 * round) + sheen
            }, store: { i, shade in out[i] = canvas.color(shade) })
        }
    }
}
