import MarbleCore

/// Dairy: cow print — soft-edged black patches on cream, slowly drifting and reshaping.
///
/// Audio: patches grow with the slow bass (their threshold falls), beats add a warm tint through the
/// palette gain.
public final class Dairy: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` reads per-frame values and the canvas.
    public static let descriptor = ShaderDescriptor(
        name: "dairy", summary: "Drifting cow-print patches.", kind: .generator, isOpaque: true,
        parameters: [
            ParameterDescriptor("patches", "Share of the hide covered by patches.", .number(default: 0.4, range: 0...1)),
        ] + BackgroundParameters.common(speed: 0.2))

    static let stops = ["#0d0b0a", "#2a2420", "#6e6258", "#d9cdb8", "#f5eedf", "#fffaf0"].compactMap(Color.init(parsing:))
    /// Soft shapes: 1/5 resolution is enough.
    private let canvas = BackgroundCanvas(scale: 5)
    private var frame = BackgroundFrame()
    private var threshold: Float = 0.5

    public init(parameters: ShaderParameters) throws {}

    public func configure(width: Int, height: Int) { canvas.configure(width: width, height: height) }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        frame = BackgroundFrame(uniforms, parameters)
        threshold = 0.62 - 0.2 * parameters.number("patches") - 0.04 * frame.react * min(2, frame.drive.bassSlow)
        canvas.setPalette(Self.stops, hue: parameters.number("hue"), gain: 1 + 0.06 * frame.react * frame.drive.beat)
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let t = frame.time, th = threshold
        let noise = Noise.Sampler()
        canvas.render(target, rows: rows, zoom: frame.zoom) { x0, y, step, count, out in
            let bendY = Lanes(repeating: y * 3), patchY = y * 2.2
            forEachLaneGroup(count: count, { first in
                let x = lanes(x0, step: step, first: first)
                // Low-octave noise bent by a second one gives blotchy, rounded patches.
                let bend = noise.fbm(x * 3 + 0.05 * t, bendY, octaves: 2) - 0.5
                let n = noise.fbm(x * 2.2 + bend * 0.8 + 0.02 * t + 40, patchY + bend * 0.8, octaves: 3)
                let spot = smoothstep(th + 0.03, th - 0.03, 1 - n)
                let hide = 0.85 + 0.1 * bend
                return hide * (1 - 0.92 * spot)
            }, store: { i, v in out[i] = canvas.color(v) })
        }
    }
}
