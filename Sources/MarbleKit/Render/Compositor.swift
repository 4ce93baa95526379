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

    final class Layer: @unchecked Sendable {
        // Safety of @unchecked Sendable: bindings and parameters change only in `prepare`, before the
        // frame's strips start; strips only read them.
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
        isBanded = built.allSatisfy { $0.drawsDirectly || $0.drawsOnCanvas }
        let bands = (height + Compositor.bandHeight - 1) / Compositor.bandHeight
        bandTimes = .allocate(capacity: max(1, bands * (built.count + 1)))
        bandTimes.initialize(repeating: 0, count: max(1, bands * (built.count + 1)))
        coveredRows = [Range<Int>](repeating: 0..<0, count: built.count)
    }

    deinit { bandTimes.deallocate() }

    /// Rows per band in the fused path: 32 rows of 1080p RGBA are 245 KB, which stay in a core's L2
    /// cache while every layer and the colour conversion go over them.
    static let bandHeight = 32

    /// True when every layer draws straight onto the canvas (no filter, no layer texture): then a frame
    /// is drawn band by band, each band going through all layers and `finish` while it is in cache.
    public let isBanded: Bool
    /// Per band and layer, the milliseconds spent (written by each band's own thread, summed after).
    private let bandTimes: UnsafeMutablePointer<Double>
    private var coveredRows: [Range<Int>]
    /// Milliseconds the last frame spent in `finish`.
    public private(set) var lastFinishTime = 0.0

    /// Layer names, bottom first.
    public var layerNames: [String] { layers.map(\.spec.shader) }

    /// Draws one frame into `canvas` (which must have the compositor's size), then calls `finish` on
    /// every row range once it is final (ranges start and end on even rows: ready for 4:2:0 conversion).
    /// `finish` runs concurrently on disjoint ranges.
    public func render(_ uniforms: FrameUniforms, into canvas: Texture, finish: ((Range<Int>) -> Void)? = nil) {
        for layer in layers { layer.prepare(uniforms) }
        if isBanded {
            renderBands(uniforms, canvas.view, finish)
        } else {
            renderLayers(uniforms, canvas)
            if let finish {
                let start = MonotonicClock.now()
                scheduler.run(count: height / 2) { pairs in finish((pairs.lowerBound * 2)..<(pairs.upperBound * 2)) }
                lastFinishTime = MonotonicClock.milliseconds(since: start)
            }
        }
    }

    /// The fused path: bands of rows across cores, each through all layers, then `finish`.
    private func renderBands(_ uniforms: FrameUniforms, _ canvas: TextureView, _ finish: ((Range<Int>) -> Void)?) {
        let band = Compositor.bandHeight, count = layers.count, height = self.height
        let clear = layers.first?.drawsDirectly != true
        for (i, layer) in layers.enumerated() {
            coveredRows[i] = layer.drawsDirectly ? 0..<height : layer.shader.coveredRows(height: height).clamped(to: 0..<height)
        }
        let bands = (height + band - 1) / band
        let layers = self.layers, covered = self.coveredRows, times = bandTimes
        scheduler.run(count: bands) { range in
            for b in range {
                let rows = (b * band)..<min(height, (b + 1) * band)
                if clear { for y in rows { canvas.row32(y).update(repeating: 0xFF00_0000, count: canvas.width) } }
                var start = MonotonicClock.now()
                for i in 0..<count {
                    let r = rows.clamped(to: covered[i])
                    if !r.isEmpty { layers[i].draw(canvas, rows: r, uniforms) }
                    let now = MonotonicClock.now()
                    times[b * (count + 1) + i] = Double(now &- start) / 1e6
                    start = now
                }
                finish?(rows)
                times[b * (count + 1) + count] = MonotonicClock.milliseconds(since: start)
            }
        }
        for i in 0...count {
            var total = 0.0
            for b in 0..<bands { total += times[b * (count + 1) + i] }
            if i < count { lastLayerTimes[i] = total } else { lastFinishTime = total }
        }
    }

    /// The general path: one layer after another over the whole frame (filters need whole pictures).
    private func renderLayers(_ uniforms: FrameUniforms, _ canvas: Texture) {
        let canvasView = canvas.view
        if layers.first?.drawsDirectly != true { canvas.fill(RGBA8(r: 0, g: 0, b: 0)) }
        for (index, layer) in layers.enumerated() {
            let start = MonotonicClock.now()
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
            } else if layer.drawsDirectly || layer.drawsOnCanvas {
                let covered = layer.drawsDirectly ? 0..<height : shader.coveredRows(height: height).clamped(to: 0..<height)
                scheduler.run(count: covered.count) { strip in
                    layer.draw(canvasView, rows: (covered.lowerBound + strip.lowerBound)..<(covered.lowerBound + strip.upperBound), uniforms)
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

extension Compositor.Layer {
    /// Applies the audio bindings to this frame's parameters and runs the shader's `prepare`.
    func prepare(_ uniforms: FrameUniforms) {
        for j in bindings.indices {
            let b = bindings[j]
            let feature = Double(uniforms.features.scalar(named: b.binding.feature) ?? 0)
            let target = b.base + b.binding.amount * feature
            let value = b.binding.smoothing * b.value + (1 - b.binding.smoothing) * target
            bindings[j].value = value
            parameters.setNumber(at: b.index, value)
        }
        shader.prepare(withBlend(uniforms), parameters: parameters)
    }

    /// Draws straight onto the canvas (an opaque background, or a generator that blends itself).
    func draw(_ canvas: TextureView, rows: Range<Int>, _ uniforms: FrameUniforms) {
        shader.render(canvas, source: canvas, rows: rows, uniforms: withBlend(uniforms))
    }

    /// The uniforms with this layer's blend mode and opacity.
    func withBlend(_ uniforms: FrameUniforms) -> FrameUniforms {
        var u = uniforms
        u.blend = spec.blend
        u.opacity = Float(spec.opacity)
        return u
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
