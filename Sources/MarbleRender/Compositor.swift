import Shaders
import MarbleCore

/// Renders a scene: its layers, bottom first, into one canvas texture.
///
/// Per frame and layer: audio bindings update the layer's numeric parameters (smoothed), the shader's
/// `prepare` runs once, then its `render` runs on row strips across cores, into the canvas directly (an
/// opaque generator drawn normally at full opacity: nothing under it shows) or into the layer's own
/// texture, which is then blended onto the canvas. Filters read a copy of the canvas as their source.
/// All textures are allocated in `init`: rendering a frame allocates nothing.
package final class Compositor {
    /// Output width in pixels.
    package let width: Int
    /// Output height in pixels.
    package let height: Int
    let layers: [Layer]
    /// The picture a filter reads (a copy of the canvas so far); only scenes with a filter have one.
    private let scratch: Texture?
    private let scheduler: StripScheduler
    /// Milliseconds spent in each layer during the last frame (render + blend), for benchmarks.
    package private(set) var lastLayerTimes: [Double]

    final class Layer: @unchecked Sendable {
        // Safety of @unchecked Sendable: bindings, parameters and uniforms change only in `prepare`,
        // before the frame's strips start; strips only read them.
        let spec: LayerSpec
        let shader: any Shader
        var parameters: ShaderParameters
        /// (parameter index, the feature it follows, binding, base value, smoothed value)
        var bindings: [(index: Int, feature: KeyPath<AudioFeatures, Float>, binding: Binding, base: Double, value: Double)]
        /// This frame's uniforms with the layer's blend mode and opacity, set by `prepare` for the strips.
        private(set) var uniforms: FrameUniforms?
        let texture: Texture?
        let drawsDirectly: Bool
        let drawsOnCanvas: Bool
        let isFilter: Bool
        /// The shader writes every pixel of its rows, opaque (a background).
        let isOpaque: Bool
        /// A filter drawn normally on a transparent canvas: its picture replaces the canvas (mixed by
        /// opacity) instead of going over it (see `Blend.mix`).
        let replacesCanvas: Bool

        init(spec: LayerSpec, isFirst: Bool, width: Int, height: Int, transparent: Bool) throws(MarbleError) {
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
            isOpaque = d.isOpaque
            replacesCanvas = isFilter && transparent && spec.blend == .normal
            drawsDirectly = !isFilter && spec.blend == .normal && spec.opacity >= 1 && (d.isOpaque || isFirst)
            drawsOnCanvas = !isFilter && !drawsDirectly && d.drawsOnCanvas
            texture = drawsDirectly || drawsOnCanvas ? nil : Texture(width: width, height: height)
            let parameters = self.parameters
            bindings = spec.bindings.sorted { $0.key < $1.key }.compactMap { name, binding in
                // Preset validation has checked both names; an unknown one is simply not bound.
                guard let i = d.index(of: name), let feature = AudioFeatures.scalarKeyPath(named: binding.feature) else { return nil }
                let base = binding.base ?? parameters.numberValue(at: i)
                return (i, feature, binding, base, base)
            }
        }
    }

    /// Builds the layers of `preset` for one output size: creates and configures each shader and allocates every texture, so drawing a frame allocates nothing.
    ///
    /// - Parameters:
    ///   - preset: the layers, bottom first; shader names must be in the engine's shader table.
    ///   - width: output width in pixels.
    ///   - height: output height in pixels.
    ///   - threads: threads to draw row strips on (1 draws on the calling thread).
    ///   - transparent: frames start from transparent black (0, 0, 0, 0) instead of opaque black, for
    ///     outputs that keep alpha; the blends compose alpha too (see `Blend`), so what no layer covers
    ///     stays transparent. Opaque scenes are drawn the same either way.
    /// - Throws: `MarbleError` (`.preset`) for an unknown shader or bad parameters, or what a shader's `init` throws.
    package init(preset: Preset, width: Int, height: Int, threads: Int, transparent: Bool = false) throws(MarbleError) {
        // The kernels' AVX2 builds where the CPU has them (and MARBLE_PORTABLE_KERNELS is not 1).
        KernelBuilds.select()
        self.width = width
        self.height = height
        var built: [Layer] = []
        for (i, spec) in preset.layers.enumerated() {
            built.append(try Layer(spec: spec, isFirst: i == 0, width: width, height: height, transparent: transparent))
        }
        layers = built
        scratch = built.contains { $0.isFilter } ? Texture(width: width, height: height) : nil
        scheduler = StripScheduler(threads: threads)
        lastLayerTimes = [Double](repeating: 0, count: built.count)
        isBanded = built.allSatisfy { $0.drawsDirectly || $0.drawsOnCanvas }
        let bands = (height + Compositor.bandHeight - 1) / Compositor.bandHeight
        bandTimes = .allocate(capacity: max(1, bands * (built.count + 1)))
        bandTimes.initialize(repeating: 0, count: max(1, bands * (built.count + 1)))
        bandPass.covered = [Range<Int>](repeating: 0..<0, count: built.count)
        bandPass.layers = built
        // Only an opaque first layer drawn straight onto the canvas covers every pixel. A first layer that
        // draws some pixels only (bars, a waveform) starts from black too: otherwise the band scratch
        // (and a reused canvas) would keep the last band's or frame's pixels wherever it draws nothing.
        clearsCanvas = !(built.first.map { $0.drawsDirectly && $0.isOpaque } ?? false)
        bandPass.clear = clearsCanvas
        clearPixel = transparent ? 0 : RGBA8(r: 0, g: 0, b: 0).packed
        bandPass.clearPixel = clearPixel
        bandPass.height = height
        bandPass.times = bandTimes
        if isBanded {
            bandScratch = (0..<scheduler.threads).map { _ in Texture(width: width, height: Compositor.bandHeight) }
            bandPass.scratch = bandScratch.map(\.view)
        }
    }

    deinit { bandTimes.deallocate() }

    /// Rows per band in the fused path: 32 rows of 1080p RGBA are 245 KB, which stay in a core's L2
    /// cache while every layer and the colour conversion go over them.
    static let bandHeight = 32

    /// True when every layer draws straight onto the canvas (no filter, no layer texture): then a frame
    /// is drawn band by band, each band going through all layers and the conversion while it is in cache.
    package let isBanded: Bool
    /// Per band and layer, the milliseconds spent (written by each band's own thread, summed after).
    private let bandTimes: UnsafeMutablePointer<Double>
    /// Milliseconds the last frame spent converting to YUV.
    package private(set) var lastConvertTime = 0.0
    private let bandPass = BandPass()
    /// True when no opaque background draws every pixel first: frames then start from ``clearPixel``.
    private let clearsCanvas: Bool
    /// What a frame starts from: opaque black, or transparent black for a transparent render.
    private let clearPixel: UInt32
    /// Per strip thread, one band of pixels (banded scenes only): see ``BandPass/scratch``.
    private var bandScratch: [Texture] = []
    private let layerPass = LayerPass()

    /// Layer names, bottom first.
    package var layerNames: [String] { layers.map(\.spec.shader) }
    /// The layers' warnings (``Shader/warnings``), read after the last frame.
    package var warnings: [String] { layers.flatMap(\.shader.warnings) }

    /// Draws one frame into `canvas` (which must have the compositor's size) and, given `planes`,
    /// converts it to YUV 4:2:0 there: fused into the bands in the banded path, after the layers
    /// otherwise. In the banded path with `planes` and no canvas, the frame goes only to the planes:
    /// bands are drawn in per-thread scratch. Allocates nothing.
    package func render(_ uniforms: FrameUniforms, into canvas: Texture?, convertingInto planes: YUVConverter.Planes? = nil) {
        precondition(canvas != nil || (isBanded && planes != nil), "a canvas is needed unless a banded scene goes to YUV")
        var uniforms = uniforms
        uniforms.strips = scheduler
        for layer in layers { layer.prepare(uniforms) }
        if isBanded {
            renderBands(canvas?.view, planes)
        } else if let canvas {
            renderLayers(canvas)
            if let planes {
                let start = MonotonicClock.now()
                layerPass.step = .convert(canvas.view, planes)
                scheduler.run(count: height / 2, layerPass)
                layerPass.step = .idle
                lastConvertTime = MonotonicClock.milliseconds(since: start)
            } else {
                lastConvertTime = 0
            }
        }
    }

    /// Does everything a frame does except drawing it: the bindings follow `uniforms.features` (and
    /// their smoothing carries on) and each shader's `prepare` runs. A render that starts later than
    /// frame 0 (one picture, a segment) advances through the frames before its first, so its first
    /// frame is drawn from the same state as in a render from the start. Allocates nothing.
    package func advance(_ uniforms: FrameUniforms) {
        var uniforms = uniforms
        uniforms.strips = scheduler
        for layer in layers { layer.prepare(uniforms) }
    }

    /// The fused path: bands of rows across cores, each through all layers and the conversion.
    private func renderBands(_ canvas: TextureView?, _ planes: YUVConverter.Planes?) {
        let count = layers.count
        let pass = bandPass
        // Written in place (the pass owns the only reference): no copy, no allocation.
        for (i, layer) in layers.enumerated() {
            pass.covered[i] = layer.coveredRows(height: height)
        }
        // Encoder-only frames: the first layer's rows of one colour that nothing else draws go straight to YUV.
        pass.skipsUniformRows = canvas == nil && planes != nil && layers.first?.drawsDirectly == true
        if pass.skipsUniformRows {
            var low = height, high = 0
            for i in 1..<count where !pass.covered[i].isEmpty {
                low = min(low, pass.covered[i].lowerBound); high = max(high, pass.covered[i].upperBound)
            }
            pass.overlaid = low < high ? low..<high : 0..<0
        }
        let bands = (height + Compositor.bandHeight - 1) / Compositor.bandHeight
        pass.canvas = canvas
        pass.planes = planes
        let start = MonotonicClock.now()
        scheduler.run(count: bands, pass)
        let wall = MonotonicClock.milliseconds(since: start)
        // Band times add up CPU time over the threads; scaled to shares of the wall time, the layers and
        // the conversion add up to what this frame took (so "render" = total − conversion stays ≥ 0).
        var cpu = 0.0
        for k in 0..<(bands * (count + 1)) { cpu += bandTimes[k] }
        let scale = cpu > 0 ? wall / cpu : 0
        for i in 0...count {
            var total = 0.0
            for b in 0..<bands { total += bandTimes[b * (count + 1) + i] }
            if i < count { lastLayerTimes[i] = total * scale } else { lastConvertTime = planes == nil ? 0 : total * scale }
        }
    }

    /// The general path: one layer after another over the whole frame (filters need whole pictures).
    private func renderLayers(_ canvas: Texture) {
        let canvasView = canvas.view
        if clearsCanvas {
            for y in 0..<height { canvasView.row32(y).update(repeating: clearPixel, count: width) }
        }
        let pass = layerPass
        for (index, layer) in layers.enumerated() {
            let start = MonotonicClock.now()
            if layer.isFilter {
                // The filter reads the picture so far from a copy, so strips never read rows another strip writes.
                let source = scratch!.view
                pass.step = .copy(from: canvasView, to: source)
                scheduler.run(count: height, pass)
                pass.step = .renderAndBlend(layer, target: layer.texture!.view, source: source, canvas: canvasView, first: 0)
                scheduler.run(count: height, pass)
            } else {
                let covered = layer.coveredRows(height: height)
                if layer.drawsDirectly || layer.drawsOnCanvas {
                    pass.step = .draw(layer, canvas: canvasView, first: covered.lowerBound)
                } else {
                    // Only the rows the generator covers this frame are drawn and blended.
                    pass.step = .renderAndBlend(layer, target: layer.texture!.view, source: canvasView, canvas: canvasView,
                                                first: covered.lowerBound)
                }
                scheduler.run(count: covered.count, pass)
            }
            lastLayerTimes[index] = MonotonicClock.milliseconds(since: start)
        }
        pass.step = .idle
    }
}

extension Compositor.Layer {
    /// Applies the audio bindings to this frame's parameters and runs the shader's `prepare`.
    func prepare(_ frame: FrameUniforms) {
        var uniforms = frame
        uniforms.blend = spec.blend
        uniforms.opacity = Float(spec.opacity)
        self.uniforms = uniforms
        for j in bindings.indices {
            let b = bindings[j]
            let feature = Double(uniforms.features[keyPath: b.feature])
            let target = b.base + b.binding.amount * feature
            let value = b.binding.smoothing * b.value + (1 - b.binding.smoothing) * target
            bindings[j].value = value
            parameters.setNumber(at: b.index, value)
        }
        shader.prepare(uniforms, parameters: parameters)
    }

    /// Draws straight onto the canvas (an opaque background, or a generator that blends itself), with
    /// the uniforms of this frame's `prepare`.
    func draw(_ canvas: TextureView, rows: Range<Int>) {
        guard let uniforms else { return }
        shader.render(canvas, source: canvas, rows: rows, uniforms: uniforms)
    }

    /// The rows this layer draws in this frame (all of them for an opaque background).
    func coveredRows(height: Int) -> Range<Int> {
        drawsDirectly ? 0..<height : shader.coveredRows(height: height).clamped(to: 0..<height)
    }
}
