import MarbleCore

/// Vibes: a sine plasma mixed over the picture.
///
/// Audio: the plasma's brightness rises with level, its hue turns with the slow mid band, and beats
/// push the mix up by `beat_mix`. out = picture·(1 − mix) + plasma·mix (Marble swapped the two factors,
/// so "mix 0.2" showed 80 % plasma). The plasma is evaluated at quarter resolution and stretched.
package final class Vibes: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; the scratch of `grid` is partitioned by strip.
    package static let descriptor = ShaderDescriptor(
        name: "vibes", summary: "Sine plasma mixed over the picture.", kind: .filter,
        parameters: [
            ParameterDescriptor("mix", "Plasma share: 0 shows only the picture, 1 only the plasma.",
                                .number(default: 0.35, range: 0...1)),
            ParameterDescriptor("beat_mix", "Extra plasma share on a beat (× beat pulse).", .number(default: 0.2, range: 0...1)),
            ParameterDescriptor("speed", "Animation speed.", .number(default: 1, range: 0...4)),
            ParameterDescriptor("scale", "Plasma feature size (higher: larger blobs).", .number(default: 1, range: 0.1...8)),
        ])

    private var grid: LowResolution?
    private var t: Float = 0, frequency: Float = 1, gain: Float = 1, hue: Float = 0, weight: UInt16 = 0

    package init(parameters: ShaderParameters) throws {}

    package func configure(width: Int, height: Int) {
        if grid?.width != width || grid?.height != height { grid = LowResolution(width: width, height: height, scale: 4) }
    }

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let drive = AudioDrive(uniforms.features)
        t = Float(uniforms.time) * parameters.number("speed")
        frequency = 6 / (parameters.number("scale") * Float(max(1, uniforms.height)))
        gain = 0.75 + 0.35 * drive.level
        hue = 0.25 * drive.midSlow
        weight = UInt16(weight256(parameters.number("mix") + parameters.number("beat_mix") * drive.beat))
    }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        guard let grid, grid.fits(target, source: source) else { clearRows(target, rows); return }
        let f = frequency, time = t, g = gain, h = hue
        let cx = Float(target.width) * 0.5 * f, cy = Float(target.height) * 0.5 * f
        let tau: Float = 6.283_185_3
        // The ring centre's wobble (per frame).
        let wobbleX = 0.5 * fastSin(time * 0.5), wobbleY = 0.5 * fastCos(time * 0.3)
        grid.render(rows: rows, evaluate: { j, out in
            let y = grid.center(j) * f
            let rowWave = fastSin(y + time * 1.3)
            let dy = y - cy + wobbleY
            for i in 0..<grid.lowWidth {
                let x = grid.center(i) * f
                let dx = x - cx + wobbleX
                var v = fastSin(x + time) + rowWave
                v += fastSin((x + y) * 0.5 + time * 0.7)
                v += fastSin((dx * dx + dy * dy).squareRoot() * 1.5 - time)
                let p = v * 0.125 + h
                out[i] = packOpaque(g * (0.5 + 0.5 * fastCos(tau * p)), g * (0.5 + 0.5 * fastCos(tau * (p + 0.33))),
                                    g * (0.5 + 0.5 * fastCos(tau * (p + 0.67))))
            }
        }, emit: { y, plasma in
            let dst = target.row32(y), src = source.row32(y)
            // A convex mix of two valid premultiplied pixels is valid: no clamp needed.
            lerpRows(src, plasma, dst, count: target.width, weight: weight)
        })
    }
}
