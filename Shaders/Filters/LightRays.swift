import MarbleCore

/// Light rays (Marble's `godRay` effect; named apart from the `godrays` background): light streaming from a point through the bright parts of the picture, screened over the
/// dark parts (volumetric light scattering, GPU Gems 3 ch. 13).
///
/// For each pixel, taps along the line towards the light sum the picture's bright-pass (luma above
/// `threshold`) with exponential decay; the result, tinted, is screen-blended onto the picture, so it
/// shows in dark pixels and leaves bright ones alone. Audio: exposure × (1 + `react` · (0.8 · (level − ½)
/// + 1.5 · beat pulse)), and on a beat the threshold drops (by up to 0.15 · `react`), so more of the
/// picture shines: the rays swell with the loud parts and burst on each beat.
/// Rays are smooth: taps read a quarter-resolution bright-pass of the picture shared by all strips
/// (`SharedRows`, cache-resident), the rays are evaluated at quarter resolution and stretched. Versus Marble's Metal original
/// (ray length from sin(loudness), wrapping when loud; rays added over everything, clipping highlights):
/// monotonic response and a screen blend.
package final class LightRays: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; the scratch of `grid` is partitioned by strip.
    package static let descriptor = ShaderDescriptor(
        name: "light_rays", summary: "Light rays from a point through bright areas, over dark ones.", kind: .filter,
        parameters: [
            ParameterDescriptor("light_x", "Light position, fraction of the width.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("light_y", "Light position, fraction of the height.", .number(default: 0.35, range: 0...1)),
            ParameterDescriptor("exposure", "Ray brightness.", .number(default: 0.6, range: 0...4)),
            ParameterDescriptor("length", "Fraction of the way to the light the rays gather from.", .number(default: 0.6, range: 0.05...1)),
            ParameterDescriptor("threshold", "Luma (0…1) below which the picture emits no light.", .number(default: 0.55, range: 0...1)),
            ParameterDescriptor("color", "Tint of the rays.", .color(default: Color(parsing: "#ffe0b0")!)),
            ParameterDescriptor("react", "How much the level and the beats brighten the rays.", .number(default: 1, range: 0...4)),
        ])

    static let taps = 24
    private var grid: LowResolution?
    /// The picture's bright-pass at the grid's resolution: max(0, luma − threshold).
    private var bright: SharedRows<Float>?
    private var lightX: Float = 0, lightY: Float = 0, step: Float = 0, gain: Float = 0, cutoff: Float = 0
    private var tint = PremultipliedColor(.white)

    package init(parameters: ShaderParameters) throws {}

    package func configure(width: Int, height: Int) {
        LowResolution.configure(&grid, shared: &bright, width: width, height: height, scale: 4, filler: 0)
    }

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let drive = AudioDrive(uniforms.features)
        lightX = parameters.number("light_x") * Float(uniforms.width)
        lightY = parameters.number("light_y") * Float(uniforms.height)
        step = parameters.number("length") / Float(Self.taps)
        let react = parameters.number("react")
        cutoff = max(0, parameters.number("threshold") - 0.15 * react * drive.beat) * 255
        // Normalise: a fully bright line of taps with decay 0.94 sums to about 1/(1 − 0.94)·(1 − 0.94^n).
        let swing = 0.8 * (min(1, drive.level) - 0.5) + 1.5 * drive.beat
        let exposure = parameters.number("exposure") * max(0.2, 1 + react * swing)
        gain = exposure * 0.06 / (255 - min(254, cutoff))
        tint = PremultipliedColor(parameters.color("color"))
        bright?.beginFrame()
    }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        guard let grid, let bright, grid.fits(target, source: source) else { clearRows(target, rows); return }
        let scale = Float(grid.scale), lowScale = grid.scale
        // Light and taps in grid units (pixel i covers grid coordinates i…i+1).
        let lu = lightX / scale, lv = lightY / scale, s = step, c = cutoff, g = gain
        let tr = tint.r, tg = tint.g, tb = tint.b
        let count = grid.lowWidth, lastColumn = Float(count) - 0.51, lastRow = Float(grid.lowHeight) - 0.51
        // Tap-major loops: for each tap, all pixels of the row (independent iterations overlap the loads).
        // Workspace: sums, x, x step.
        let sums = grid.workspace(forStripAt: rows.lowerBound).assumingMemoryBound(to: Float.self)
        let xs = sums + count, steps = xs + count
        // A local function, not a closure value: passing it on allocates nothing.
        func fillBright(_ j: Int, _ out: UnsafeMutablePointer<Float>) {
            forEachBlock(source, row: j, scale: lowScale, count: count) { i, p in out[i] = max(0, Float(luma(p)) - c) }
        }
        grid.render(rows: rows, evaluate: { j, out in
            let v = min(Float(j) + 0.5, lastRow)
            let stepV = (lv - v) * s
            for i in 0..<count {
                let u = min(Float(i) + 0.5, lastColumn)
                sums[i] = 0; xs[i] = u - 0.5; steps[i] = (lu - u) * s
            }
            var decay: Float = 1
            for k in 0..<Self.taps {
                let row = bright.row(Int(roundToInt32(v - 0.5 + stepV * Float(k))), fill: fillBright)
                // Eight pixels a step (the same arithmetic lane for lane), then the rest.
                var i = 0
                while i + 8 <= count {
                    let x = loadLanes(xs + i)
                    storeLanes(loadLanes(sums + i) + gather(row, roundToInt32(x)) * decay, sums + i)
                    storeLanes(x + loadLanes(steps + i), xs + i)
                    i += 8
                }
                for i in i..<count {
                    sums[i] += row[Int(roundToInt32(xs[i]))] * decay
                    xs[i] += steps[i]
                }
                decay *= 0.94
            }
            for i in 0..<count {
                let light = clamp01(sums[i] * g)
                out[i] = packPremultiplied(tr * light, tg * light, tb * light, light)
            }
        }, emit: { y, rays in
            let dst = target.row(y), src = source.row(y)
            dst.update(from: src, count: target.width * 4)
            Blend.screenRow(UnsafeMutableRawPointer(rays).assumingMemoryBound(to: UInt8.self), dst, target.width * 4, 255)
        })
    }
}
