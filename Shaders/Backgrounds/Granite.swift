/// Granite: speckled polished stone — coarse and fine noise thresholded into crystals and flecks,
/// drifting very slowly.
///
/// Audio: flecks sparkle with the treble (a brighter fleck threshold), beats lift the polish.
import MarbleCore

public final class GraniteStone: Shader, @unchecked Sendable {
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
        let t = frame.time, g = grain * 16, sp = sparkle
        let palette = canvas.palette
        canvas.render(target, rows: rows, zoom: frame.zoom) { x0, y, step, count, out in
            for i in 0..<count {
                let x = x0 + Float(i) * step + 0.02 * t
                let coarse = Noise.fbm(x * g * 0.15, y * g * 0.15, octaves: 2)
                let crystal = Noise.value(x * g, y * g)
                let fleck = Noise.value(x * g * 2.3 + 31, y * g * 2.3 + 17)
                var v = 0.2 + 0.5 * coarse + 0.3 * smoothstep(0.45, 0.75, crystal) - 0.3 * smoothstep(0.6, 0.85, fleck)
                v += (0.5 + sp) * smoothstep(0.86 - sp * 0.2, 0.97, fleck)
                out[i] = palette[Int(roundToInt32(clamp01(v) * 255))]
            }
        }
    }
}
