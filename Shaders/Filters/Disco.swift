import MarbleCore

/// Disco: a slowly turning cosine colour field overlay-blended onto the picture.
///
/// Audio: the field's strength follows the beat (`amount` · (0.6 + 0.4 · beat pulse)) and its angle
/// leans with the slow mid band. The field is evaluated at quarter resolution and stretched (it is smooth), the
/// overlay runs per pixel in 16-bit integers. Versus Marble's Metal original (wall-clock time, a field
/// that ignored the picture where it was dark): media time, and a true overlay that keeps the
/// picture's shadows and highlights.
package final class Disco: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; the scratch of `grid` is partitioned by strip.
    package static let descriptor = ShaderDescriptor(
        name: "disco", summary: "Cosine colour field overlay-blended onto the picture.", kind: .filter,
        parameters: [
            ParameterDescriptor("amount", "Strength of the overlay.", .number(default: 0.7, range: 0...1)),
            ParameterDescriptor("speed", "Animation speed.", .number(default: 1, range: 0...4)),
            ParameterDescriptor("scale", "Size of the colour bands (higher: more bands).", .number(default: 1, range: 0.1...8)),
        ])

    private var grid: LowResolution?
    private var phase: Float = 0, spin: Float = 0, bands: Float = 1, amount: UInt16 = 0

    package init(parameters: ShaderParameters) throws {}

    package func configure(width: Int, height: Int) {
        if grid?.width != width || grid?.height != height { grid = LowResolution(width: width, height: height, scale: 4) }
    }

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let drive = AudioDrive(uniforms.features)
        let t = Float(uniforms.time) * parameters.number("speed")
        phase = t * 0.15
        spin = t * 0.2 + 0.3 * drive.midSlow
        bands = parameters.number("scale") * 3 / Float(max(1, uniforms.height))
        amount = UInt16(weight256(parameters.number("amount") * (0.6 + 0.4 * drive.beat)))
    }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        guard let grid, grid.fits(target, source: source) else { clearRows(target, rows); return }
        let cx = Float(target.width) * 0.5, cy = Float(target.height) * 0.5
        let c = fastCos(spin), s = fastSin(spin), k = bands, ph = phase
        let tau: Float = 6.283_185_3
        grid.render(rows: rows, evaluate: { j, out in
            let dy = grid.center(j) - cy
            for i in 0..<grid.lowWidth {
                let dx = grid.center(i) - cx
                let u = (c * dx - s * dy) * k, v = (s * dx + c * dy) * k
                let t = u + 0.5 * fastSin(v * 1.7 + ph * tau) + ph
                // Inigo Quilez palette a + b·cos(2π(t + d)) with d = (0, 1/3, 2/3): a rainbow.
                out[i] = packOpaque(0.5 + 0.5 * fastCos(tau * t), 0.5 + 0.5 * fastCos(tau * (t + 0.333)),
                                    0.5 + 0.5 * fastCos(tau * (t + 0.667)))
            }
        }, emit: { y, field in
            overlayRow(source: source.row(y), field: UnsafeMutableRawPointer(field).assumingMemoryBound(to: UInt8.self),
                       into: target.row(y), count: target.width * 4)
        })
    }

    /// Overlay of the field on the picture (per byte: 2ab below half, screen-like above), mixed by
    /// `amount`; alpha is kept and colour clamped to it.
    private func overlayRow(source: UnsafeMutablePointer<UInt8>, field: UnsafeMutablePointer<UInt8>,
                            into out: UnsafeMutablePointer<UInt8>, count: Int) {
        let w = amount, iw = 256 &- amount
        for i in 0..<count {
            let base = UInt16(source[i]), layer = UInt16(field[i])
            let low = Blend.div255(2 &* base &* layer)
            let high = 255 &- Blend.div255(2 &* (255 &- base) &* (255 &- layer))
            let overlay = base < 128 ? low : high
            out[i] = UInt8(truncatingIfNeeded: (base &* iw &+ overlay &* w &+ 128) >> 8)
        }
        // Alpha bytes went through the formula too: overlay maps 255 over 255 to 255, so opaque pixels
        // are already right. Elsewhere, restore alpha and keep colour ≤ alpha.
        var opaque: UInt8 = 255
        var q = 3
        while q < count { opaque &= source[q]; q += 4 }
        guard opaque != 255 else { return }
        var p = 0
        while p < count {
            let alpha = source[p + 3]
            out[p + 3] = alpha
            out[p] = min(out[p], alpha); out[p + 1] = min(out[p + 1], alpha); out[p + 2] = min(out[p + 2], alpha)
            p += 4
        }
    }
}
