/// Blur: a radial (zoom) blur — every pixel averaged along the line towards a centre point.
///
/// Audio: blur length = `strength` · (1 + `react` · level). Tap k of n for a pixel at p samples
/// p + (centre − p)·length·k/n: the offset is a fraction of the distance to the centre, so the blur
/// grows smoothly outwards and is zero at the centre. (Marble's Metal original divided the offset by
/// the pixel coordinate, which blew up at the left and top edges and made the blur lopsided.)
/// Evaluated at half resolution with nearest-pixel taps from the full picture, then stretched.
import MarbleCore

public final class Blur: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; the scratch of `grid` is partitioned by strip.
    public static let descriptor = ShaderDescriptor(
        name: "blur", summary: "Radial zoom blur towards a centre, longer when loud.", kind: .filter,
        parameters: [
            ParameterDescriptor("strength", "Blur length as a fraction of the distance to the centre.",
                                .number(default: 0.08, range: 0...0.9)),
            ParameterDescriptor("react", "Extra length with loudness (× level).", .number(default: 1, range: 0...8)),
            ParameterDescriptor("center_x", "Centre, fraction of the width.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("center_y", "Centre, fraction of the height.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("taps", "Samples per pixel.", .integer(default: 16, range: 2...64)),
        ])

    private var grid: LowResolution?
    private var length: Float = 0, centerX: Float = 0, centerY: Float = 0
    private let taps: Int

    public init(parameters: ShaderParameters) throws {
        taps = parameters.integer("taps")
    }

    public func configure(width: Int, height: Int) {
        if grid?.width != width || grid?.height != height { grid = LowResolution(width: width, height: height, scale: 2) }
    }

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let drive = AudioDrive(uniforms.features)
        length = min(0.95, parameters.number("strength") * (1 + parameters.number("react") * drive.level))
        centerX = parameters.number("center_x") * Float(uniforms.width)
        centerY = parameters.number("center_y") * Float(uniforms.height)
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        guard let grid, grid.width == target.width, grid.height == target.height,
              source.width >= target.width, source.height >= target.height else {
            for y in rows { fillPixels(target.row32(y), target.width, 0) }
            return
        }
        let n = taps, step = length / Float(max(1, taps - 1)), cx = centerX, cy = centerY
        grid.render(target, rows: rows) { j, out in
            let py = grid.center(j)
            for i in 0..<grid.lowWidth {
                let px = grid.center(i)
                let dx = (cx - px) * step, dy = (cy - py) * step
                var sum = TapSum()
                for k in 0..<n { sum.add(nearestPixel(source, px + dx * Float(k), py + dy * Float(k))) }
                out[i] = sum.mean(n)
            }
        }
    }
}
