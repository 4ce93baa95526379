import Shaders
import MarbleCore

/// The compositor's per-frame passes as long-lived ``StripTask`` objects: each frame only updates their
/// fields, so running them on the strip scheduler allocates nothing (a closure would, per call).
///
/// Safety of every `@unchecked Sendable` here: fields are set by the compositor's thread before
/// `StripScheduler.run`, which orders those writes before the strips read them; strips write only the
/// rows of their own range.
final class BandPass: StripTask, @unchecked Sendable {
    var layers: [Compositor.Layer] = []
    var covered: [Range<Int>] = []
    var canvas: TextureView?
    var planes: YUVConverter.Planes?
    var clear = false
    /// The packed pixel a cleared band starts from (opaque or transparent black).
    var clearPixel: UInt32 = 0xFF00_0000
    var height = 0
    var times: UnsafeMutablePointer<Double>?
    /// One band-sized scratch picture per strip thread. When the frame only goes to the encoder (`planes`
    /// set, no `canvas`), bands are drawn there instead of into the canvas: the same few hundred KB are reused band
    /// after band and stay in cache, so the canvas's 8 MB (at 1080p) never travel to memory and back.
    var scratch: [TextureView] = []

    /// Rows that layers above the first may draw in this frame (the hull of their covered rows), set
    /// with ``covered`` when ``skipsUniformRows``.
    var overlaid: Range<Int> = 0..<0
    /// The first layer draws straight onto the canvas and may have rows of one colour
    /// (``Shader/uniformRow(_:)``): with no canvas to fill (the frame goes only to the encoder), its
    /// row pairs outside ``overlaid`` go straight to YUV, neither drawn nor read.
    var skipsUniformRows = false

    /// Each band: every layer over its rows while they are in cache, then the colour conversion.
    func run(strip bands: Range<Int>, worker: Int) {
        guard let times else { return }
        let band = Compositor.bandHeight, count = layers.count
        for b in bands {
            let rows = (b * band)..<min(height, (b + 1) * band)
            let canvas: TextureView
            if self.canvas == nil && planes != nil && worker < scratch.count {
                canvas = TextureView(window: scratch[worker], rows: rows, height: height)
            } else if let whole = self.canvas {
                canvas = whole
            } else {
                return   // (the compositor's precondition rules this out)
            }
            let fillStart = MonotonicClock.now()
            // Only the pairs a layer above the first may draw are drawn when the rest go straight to YUV.
            let drawn = fillUniformPairs(rows, width: canvas.width)
            var start = MonotonicClock.now()
            let fillTime = Double(start &- fillStart) / 1e6
            if clear { for y in drawn { canvas.row32(y).update(repeating: clearPixel, count: canvas.width) } }
            for i in 0..<count {
                let r = drawn.clamped(to: covered[i])
                if !r.isEmpty { layers[i].draw(canvas, rows: r) }
                let now = MonotonicClock.now()
                times[b * (count + 1) + i] = Double(now &- start) / 1e6
                start = now
            }
            if let planes { YUVConverter.convert(canvas, into: planes, pairs: (drawn.lowerBound / 2)..<(drawn.upperBound / 2)) }
            times[b * (count + 1) + count] = fillTime + MonotonicClock.milliseconds(since: start)
        }
    }

    /// With ``skipsUniformRows`` (no canvas) and planes: writes the row pairs of `rows` outside ``overlaid`` (an
    /// even-aligned band's prefix and suffix) straight to YUV from the first layer's row colours, and
    /// returns the rows left to draw (all of `rows` when a row there has no one colour).
    private func fillUniformPairs(_ rows: Range<Int>, width: Int) -> Range<Int> {
        guard skipsUniformRows, let planes, let first = layers.first else { return rows }
        // Pairs touching `overlaid` are drawn; an empty hull leaves the whole band to fill.
        let low = overlaid.isEmpty ? rows.upperBound : overlaid.lowerBound & ~1
        let high = overlaid.isEmpty ? rows.upperBound : (overlaid.upperBound + 1) & ~1
        let drawn = max(rows.lowerBound, min(low, rows.upperBound))..<max(rows.lowerBound, min(high, rows.upperBound))
        // Row pair by row pair; a row of no one colour sends the band back to drawing (it rewrites every pair).
        @inline(__always) func fill(_ part: Range<Int>) -> Bool {
            for pair in (part.lowerBound / 2)..<(part.upperBound / 2) {
                guard let top = first.shader.uniformRow(2 * pair), let bottom = first.shader.uniformRow(2 * pair + 1) else { return false }
                YUVConverter.fillRows(top, bottom, into: planes, pair: pair, width: width)
            }
            return true
        }
        guard fill(rows.lowerBound..<drawn.lowerBound), fill(drawn.upperBound..<rows.upperBound) else { return rows }
        return drawn
    }
}

/// One layer of the general (whole-frame) path.
final class LayerPass: StripTask, @unchecked Sendable {
    enum Step {
        /// Copy the canvas into the filter's source picture.
        case copy(from: TextureView, to: TextureView)
        /// Render into the layer's texture, then blend it onto the canvas.
        case renderAndBlend(Compositor.Layer, target: TextureView, source: TextureView, canvas: TextureView, first: Int)
        /// Draw straight onto the canvas, rows offset by `first` (the layer's covered rows).
        case draw(Compositor.Layer, canvas: TextureView, first: Int)
        /// Convert finished canvas rows to YUV (row pairs).
        case convert(TextureView, YUVConverter.Planes)
        case idle
    }
    var step = Step.idle

    func run(strip: Range<Int>, worker: Int) {
        switch step {
        case .copy(let from, let to):
            for y in strip { to.row(y).update(from: from.row(y), count: from.bytesPerRow) }
        case .renderAndBlend(let layer, let target, let source, let canvas, let first):
            guard let uniforms = layer.uniforms else { return }
            let rows = (first + strip.lowerBound)..<(first + strip.upperBound)
            layer.shader.render(target, source: source, rows: rows, uniforms: uniforms)
            if layer.replacesCanvas {
                Blend.mix(layer: target, onto: canvas, rows: rows, opacity: Float(layer.spec.opacity))
            } else {
                Blend.composite(layer: target, onto: canvas, rows: rows, mode: layer.spec.blend, opacity: Float(layer.spec.opacity))
            }
        case .draw(let layer, let canvas, let first):
            layer.draw(canvas, rows: (first + strip.lowerBound)..<(first + strip.upperBound))
        case .convert(let canvas, let planes):
            YUVConverter.convert(canvas, into: planes, pairs: strip)
        case .idle:
            break
        }
    }
}
