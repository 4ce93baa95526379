import Shaders

/// Renders a scene: its layers, bottom first, into one canvas texture.
///
/// Per frame and layer: audio bindings update the layer's numeric parameters (smoothed), the shader's
/// `prepare` runs once, then its `render` runs on row strips across cores, into the canvas directly (an
/// opaque generator drawn normally at full opacity: nothing under it shows) or into the layer's own
/// texture, which is then blended onto the canvas. Filters read a copy of the canvas as their source.
/// All textures are allocated in `init`: rendering a frame allocates nothing.
public final class Compositor {
    public let width: Int
    public let height: Int
    private var layers: [Layer]
    private let scratch: Texture
    private let scheduler: StripScheduler
    /// Milliseconds spent in each layer during the last frame (render + blend), for benchmarks.
    public private(set) var lastLayerTimes: [Double]

    final class Layer {
        let spec: LayerSpec
        let shader: any Shader
        var parameters: ShaderParameters
        /// (parameter index, binding, smoothed value)
        var bindings: [(index: Int, binding: Binding, base: Double, value: Double)]
        let texture: Texture?
        let drawsDirectly: Bool
        let drawsOnCanvas: Bool
        let isFilter: Bool

        init(spec: LayerSpec, isFirst: Bool, width: Int, height: Int) throws(MarbleError) {
            guard let type = ShaderLibrary.shader(named: spec.shader) else {
                throw MarbleError(.preset, "unknown shader \"\(spec.shader)\"")
            }
            let d = type.descriptor
            do {
                parameters = try ShaderParameters(descriptor: d, values: spec.parameters)
            } catch {
                throw MarbleError(.preset, "\(spec.shader): \(error.parameter): \(error.message)")
            }
            do {
                shader = try type.init(parameters: parameters)
            } catch let e as MarbleError {
                throw e
            } catch {
                throw MarbleError(.preset, "\(spec.shader): \(error)")
            }
            shader.configure(width: width, height: height)
            self.spec = spec
            isFilter = d.kind == .filter
            drawsDirectly = !isFilter && spec.blend == .normal && spec.opacity >= 1 && (d.isOpaque || isFirst)
            drawsOnCanvas = !isFilter && !drawsDirectly && d.drawsOnCanvas
            texture = drawsDirectly || drawsOnCanvas ? nil : Texture(width: width, height: height)
            bindings = spec.bindings.sorted { $0.key < $1.key }.compactMap { name, binding in
                guard let i = d.index(of: name) else { return nil }
                let base = binding.base ?? ShaderParameters.numberValue(of: d.parameters[i], in: spec.parameters)
                return (i, binding, base, base)
            }
        }
    }

    public init(preset: Preset, width: Int, height: Int, threads: Int) throws(MarbleError) {
        self.width = width
        self.height = height
        var built: [Layer] = []
        for (i, spec) in preset.layers.enumerated() {
            built.append(try Layer(spec: spec, isFirst: i == 0, width: width, height: height))
        }
        layers = built
        scratch = Texture(width: width, height: height)
        scheduler = StripScheduler(threads: threads)
        lastLayerTimes = [Double](repeating: 0, count: built.count)
    }

    /// Layer names, bottom first.
    public var layerNames: [String] { layers.map(\.spec.shader) }

    /// Draws one frame into `canvas` (which must have the compositor's size).
    public func render(_ uniforms: FrameUniforms, into canvas: Texture) {
        let canvasView = canvas.view
        if layers.first?.drawsDirectly != true { canvas.fill(RGBA8(r: 0, g: 0, b: 0)) }
        for (index, layer) in layers.enumerated() {
            let start = MonotonicClock.now()
            for j in layer.bindings.indices {
                let b = layer.bindings[j]
                let feature = Double(uniforms.features.scalar(named: b.binding.feature) ?? 0)
                let target = b.base + b.binding.amount * feature
                let value = b.binding.smoothing * b.value + (1 - b.binding.smoothing) * target
                layer.bindings[j].value = value
                layer.parameters.setNumber(at: b.index, value)
            }
            var prepared = uniforms
            prepared.blend = layer.spec.blend
            prepared.opacity = Float(layer.spec.opacity)
            layer.shader.prepare(prepared, parameters: layer.parameters)
            let shader = layer.shader
            if layer.isFilter {
                // The filter reads the picture so far from a copy, so strips never read rows another strip writes.
                let source = scratch.view
                scheduler.run(count: height) { rows in
                    for y in rows { source.row(y).update(from: canvasView.row(y), count: canvasView.bytesPerRow) }
                }
                let target = layer.texture!.view
                scheduler.run(count: height) { rows in
                    shader.render(target, source: source, rows: rows, uniforms: uniforms)
                    Blend.composite(layer: target, onto: canvasView, rows: rows, mode: layer.spec.blend,
                                    opacity: Float(layer.spec.opacity))
                }
            } else if layer.drawsOnCanvas {
                // A sparse generator blends its own pixels onto the canvas, in the rows it covers.
                var layerUniforms = uniforms
                layerUniforms.blend = layer.spec.blend
                layerUniforms.opacity = Float(layer.spec.opacity)
                let u = layerUniforms
                let covered = shader.coveredRows(height: height).clamped(to: 0..<height)
                scheduler.run(count: covered.count) { strip in
                    let rows = (covered.lowerBound + strip.lowerBound)..<(covered.lowerBound + strip.upperBound)
                    shader.render(canvasView, source: canvasView, rows: rows, uniforms: u)
                }
            } else if layer.drawsDirectly {
                scheduler.run(count: height) { rows in
                    shader.render(canvasView, source: canvasView, rows: rows, uniforms: uniforms)
                }
            } else {
                // Only the rows the generator covers this frame are drawn and blended.
                let covered = shader.coveredRows(height: height).clamped(to: 0..<height)
                let target = layer.texture!.view
                scheduler.run(count: covered.count) { strip in
                    let rows = (covered.lowerBound + strip.lowerBound)..<(covered.lowerBound + strip.upperBound)
                    shader.render(target, source: canvasView, rows: rows, uniforms: uniforms)
                    Blend.composite(layer: target, onto: canvasView, rows: rows, mode: layer.spec.blend,
                                    opacity: Float(layer.spec.opacity))
                }
            }
            lastLayerTimes[index] = MonotonicClock.milliseconds(since: start)
        }
    }
}

extension ShaderParameters {
    /// The number a user gave for a parameter, or its default.
    static func numberValue(of p: ParameterDescriptor, in values: [String: ParameterValue]) -> Double {
        if case .number(let x)? = values[p.name] { return x }
        switch p.kind {
        case .number(let d, _): return d
        case .integer(let d, _): return Double(d)
        default: return 0
        }
    }
}
