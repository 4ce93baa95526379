/// God rays: light streaming from a point through the bright parts of the picture, screened over the
/// dark parts (volumetric light scattering, GPU Gems 3 ch. 13).
///
/// For each pixel, taps along the line towards the light sum the picture's bright-pass (luma above
/// `threshold`) with exponential decay; the result, tinted, is screen-blended onto the picture, so it
/// shows in dark pixels and leaves bright ones alone. Audio: exposure × (1 + `react` · beat pulse).
/// Rays are smooth: evaluated at quarter resolution and stretched. Versus Marble's Metal original
/// (ray length from sin(loudness), wrapping when loud; rays added over everything, clipping highlights):
/// monotonic response and a screen blend.
import MarbleCore

public final class GodRays: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; the scratch of `grid` is partitioned by strip.
    public static let descriptor = ShaderDescriptor(
        name: "godRay", summary: "Light rays from a point through bright areas, over dark ones.", kind: .filter,
        parameters: [
            ParameterDescriptor("light_x", "Light position, fraction of the width.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("light_y", "Light position, fraction of the height.", .number(default: 0.35, range: 0...1)),
            ParameterDescriptor("exposure", "Ray brightness.", .number(default: 0.6, range: 0...4)),
            ParameterDescriptor("length", "Fraction of the way to the light the rays gather from.", .number(default: 0.6, range: 0.05...1)),
            ParameterDescriptor("threshold", "Luma (0…1) below which the picture emits no light.", .number(default: 0.55, range: 0...1)),
            ParameterDescriptor("color", "Tint of the rays.", .color(default: Color(parsing: "#ffe0b0")!)),
            ParameterDescriptor("react", "Extra exposure on a beat (× beat pulse).", .number(default: 1, range: 0...4)),
        ])

    static let taps = 24
    private var grid: LowResolution?
    private var lightX: Float = 0, lightY: Float = 0, step: Float = 0, gain: Float = 0, cutoff: Float = 0
    private var tint = PremultipliedColor(.white)

    public init(parameters: ShaderParameters) throws {}

    public func configure(width: Int, height: Int) {
        if grid?.width != width || grid?.height != height { grid = LowResolution(width: width, height: height, scale: 4) }
    }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let drive = AudioDrive(uniforms.features)
        lightX = parameters.number("light_x") * Float(uniforms.width)
        lightY = parameters.number("light_y") * Float(uniforms.height)
        step = parameters.number("length") / Float(Self.taps)
        cutoff = parameters.number("threshold") * 255
        // Normalise: a fully bright line of taps with decay 0.94 sums to about 1/(1 − 0.94)·(1 − 0.94^n).
        let exposure = parameters.number("exposure") * (1 + parameters.number("react") * drive.beat)
        gain = exposure * 0.06 / (255 - min(254, cutoff))
        tint = PremultipliedColor(parameters.color("color"))
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        guard let grid, grid.width == target.width, grid.height == target.height,
              source.width >= target.width, source.height >= target.height else {
            for y in rows { fillPixels(target.row32(y), target.width, 0) }
            return
        }
        let lx = lightX, ly = lightY, s = step, c = cutoff, g = gain, tr = tint.r, tg = tint.g, tb = tint.b
        grid.render(rows: rows, evaluate: { j, out in
            let py = grid.center(j)
            for i in 0..<grid.lowWidth {
                let px = grid.center(i)
                let dx = (lx - px) * s, dy = (ly - py) * s
                var sum: Float = 0, decay: Float = 1
                for k in 0..<Self.taps {
                    let l = Float(luma(nearestPixel(source, px + dx * Float(k), py + dy * Float(k))))
                    sum += max(0, l - c) * decay
                    decay *= 0.94
                }
                let light = clamp01(sum * g)
                out[i] = packPremultiplied(tr * light, tg * light, tb * light, light)
            }
        }, emit: { y, rays in
            let dst = target.row(y), src = source.row(y)
            dst.update(from: src, count: target.width * 4)
            Blend.screenRow(UnsafeMutableRawPointer(rays).assumingMemoryBound(to: UInt8.self), dst, target.width * 4, 255)
        })
    }
}
