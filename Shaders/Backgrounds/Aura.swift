import MarbleCore

/// Aura: northern lights — soft curtains hanging from a wavy line, streaked vertically, over night sky.
///
/// Audio: curtain brightness follows the level, their sway the slow mid band, beats brighten the
/// palette. Versus Marble's Metal original (brightness = sin(loudness)): brightness rises with level.
/// Curtain edges and streaks depend on x only: `prepare` computes them per column, pixels only add
/// the vertical falloff (curtain-major loops over a row, which vectorise).
public final class Aura: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` reads per-frame values and the canvas.
    public static let descriptor = ShaderDescriptor(
        name: "aura", summary: "Aurora curtains swaying over a night sky.", kind: .generator, isOpaque: true,
        parameters: [
            ParameterDescriptor("curtains", "Number of curtains.", .integer(default: 3, range: 1...6)),
        ] + BackgroundParameters.common(speed: 0.5))

    static let stops = ["#01030d", "#03202b", "#0b6b55", "#36e08e", "#b7ffd0", "#d8b4ff"].compactMap(Color.init(parsing:))
    private let canvas = BackgroundCanvas()
    private var frame = BackgroundFrame()
    private let curtains: Int
    private var glow: Float = 1
    /// Per curtain c and low-resolution column i (index c · columns + i): lower edge y and streak light.
    private var edges: UnsafeMutablePointer<Float> = allocateFilled(1, 0)
    private var streaks: UnsafeMutablePointer<Float> = allocateFilled(1, 0)
    private var columns = 0

    public init(parameters: ShaderParameters) throws { curtains = parameters.integer("curtains") }

    deinit { edges.deallocate(); streaks.deallocate() }

    public func configure(width: Int, height: Int) {
        canvas.configure(width: width, height: height)
        let count = canvas.grid?.lowWidth ?? 0
        guard count != columns else { return }
        edges.deallocate(); streaks.deallocate()
        edges = allocateFilled(count * curtains, 0); streaks = allocateFilled(count * curtains, 0)
        columns = count
    }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        frame = BackgroundFrame(uniforms, parameters)
        glow = 0.7 + 0.5 * frame.react * frame.drive.level
        let sway = 1 + 0.3 * frame.react * min(2, frame.drive.midSlow), t = frame.time
        canvas.setPalette(Self.stops, hue: parameters.number("hue"), gain: 1 + 0.15 * frame.react * frame.drive.beat)
        for c in 0..<curtains {
            let phase = Float(c) * 2.1, strength = 1 - 0.2 * Float(c)
            for i in 0..<columns {
                let x = canvas.columnX(i, width: uniforms.width, height: uniforms.height, zoom: frame.zoom)
                edges[c * columns + i] = -0.05 + 0.12 * Float(c) + 0.08 * sway * fastSin(x * 2.2 + t * 0.7 + phase)
                    + 0.04 * fastSin(x * 5.1 - t * 0.5 + phase)
                streaks[c * columns + i] = strength * (0.55 + 0.45 * fastSin(x * 40 + 3 * fastSin(x * 3 + t * 0.3 + phase)))
            }
        }
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let n = curtains, g = glow, edges = edges, streaks = streaks
        canvas.render(target, rows: rows, zoom: frame.zoom) { _, y, _, count, out in
            out.withMemoryRebound(to: Float.self, capacity: count) { light in
                light.update(repeating: 0, count: count)
                for c in 0..<n {
                    let edge = edges + c * count, streak = streaks + c * count
                    for i in 0..<count {
                        // Light hangs above the edge and fades upwards; below it, it ends quickly.
                        let above = edge[i] - y
                        let hang = fastExp(above > 0 ? -above * 5 : above * 60)
                        light[i] += hang * streak[i]
                    }
                }
                for i in 0..<count { light[i] = clamp01(0.08 + 0.55 * light[i] * g) }
            }
            for i in 0..<count { out[i] = canvas.color(Float(bitPattern: out[i])) }
        }
    }
}
