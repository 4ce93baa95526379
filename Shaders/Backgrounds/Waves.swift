import MarbleCore

/// Waves: layered ocean swells — several sine layers with drifting phase, darker with depth.
///
/// Audio: wave height follows the level, the crest highlights the treble; the swell never wraps
/// (Marble's Metal original scaled the phase by sin(loudness)). Wave heights depend on x only, so
/// `prepare` computes them once per column and layer; pixels only compare their height with them.
public final class Waves: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` reads per-frame values and the canvas.
    public static let descriptor = ShaderDescriptor(
        name: "waves", summary: "Layered ocean swells rising with the level.", kind: .generator, isOpaque: true,
        parameters: [
            ParameterDescriptor("layers", "Number of wave layers.", .integer(default: 6, range: 2...12)),
        ] + BackgroundParameters.common(speed: 0.8))

    static let stops = ["#020b1a", "#06304f", "#0c5a7a", "#2aa1b3", "#bfeff0", "#ffffff"].compactMap(Color.init(parsing:))
    private let canvas = BackgroundCanvas()
    private var frame = BackgroundFrame()
    private let layers: Int
    private var crest: Float = 0.2
    /// Crest height of layer l at low-resolution column i: heights[l · columns + i].
    private var heights: UnsafeMutablePointer<Float> = allocateFilled(1, 0)
    private var columns = 0

    public init(parameters: ShaderParameters) throws {
        layers = parameters.integer("layers")
    }

    deinit { heights.deallocate() }

    public func configure(width: Int, height: Int) {
        canvas.configure(width: width, height: height)
        let count = canvas.grid?.lowWidth ?? 0
        guard count != columns else { return }
        heights.deallocate()
        heights = allocateFilled(count * layers, 0)
        columns = count
    }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        frame = BackgroundFrame(uniforms, parameters)
        let amp = 0.035 * (1 + frame.react * frame.drive.level), t = frame.time
        crest = 0.2 + 0.15 * frame.react * min(1.5, frame.drive.trebleSlow)
        canvas.setPalette(Self.stops, hue: parameters.number("hue"))
        for l in 0..<layers {
            let depth = Float(l) / Float(layers)
            let base = -0.35 + 0.8 * depth, f = 3 + 2 * depth, lift = amp * (1 + depth)
            for i in 0..<columns {
                let x = canvas.columnX(i, width: uniforms.width, height: uniforms.height, zoom: frame.zoom)
                heights[l * columns + i] = base + lift * (fastSin(x * f + t * (0.6 + depth) + Float(l) * 1.7)
                    + 0.5 * fastSin(x * f * 2.3 - t * 0.9 + Float(l)))
            }
        }
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let n = layers, crest = crest, heights = heights
        canvas.render(target, rows: rows, zoom: frame.zoom) { _, y, _, count, out in
            // Layer by layer over the whole row (vectorises); the front-most layer above a pixel wins.
            out.withMemoryRebound(to: Float.self, capacity: count) { v in
                v.update(repeating: 0.05, count: count)
                for l in 0..<n {
                    let depth = Float(l) / Float(n)
                    let row = heights + l * count
                    for i in 0..<count {
                        let d = y - row[i]
                        let inside = clamp01(d * 120)          // soft edge below the crest line
                        let foam = clamp01(1 - d * 40) * inside * crest
                        v[i] = mix(v[i], 0.15 + 0.6 * depth + foam, inside)
                    }
                }
                for i in 0..<count { v[i] = clamp01(v[i]) }
            }
            for i in 0..<count {
                out[i] = canvas.color(Float(bitPattern: out[i]))
            }
        }
    }
}
