import MarbleCore

/// Blur: a radial (zoom) blur — every pixel averaged along the line towards a centre point.
///
/// Audio: blur length = `strength` · (1 + `react` · (level / 2 + beat pulse)): a zoom that breathes
/// with the loudness and punches on every beat. Tap k of n for a pixel at p samples
/// p + (centre − p)·length·k/n: the offset is a fraction of the distance to the centre, so the blur
/// grows smoothly outwards and is zero at the centre. (Marble's Metal original divided the offset by
/// the pixel coordinate, which blew up at the left and top edges and made the blur lopsided.)
/// Taps read a quarter-resolution copy of the picture shared by all strips (`SharedRows`: it stays
/// in cache), no clamping needed (every tap lies between the pixel and the centre); the blur is
/// evaluated at quarter resolution and stretched, and where it is shorter than a few pixels (near the
/// centre) the sharp picture is blended back in, so the centre keeps full detail.
package final class Blur: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; the scratch of `grid` is partitioned by strip.
    package static let descriptor = ShaderDescriptor(
        name: "blur", summary: "Radial zoom blur towards a centre, longer when loud.", kind: .filter,
        parameters: [
            ParameterDescriptor("strength", "Blur length as a fraction of the distance to the centre.",
                                .number(default: 0.08, range: 0...0.9)),
            ParameterDescriptor("react", "Extra length with loudness and beats.", .number(default: 1, range: 0...8)),
            ParameterDescriptor("center_x", "Centre, fraction of the width.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("center_y", "Centre, fraction of the height.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("taps", "Samples per pixel.", .integer(default: 16, range: 2...64)),
        ])

    private var grid: LowResolution?
    /// The picture at the grid's resolution.
    private var small: SharedRows<UInt32>?
    private var length: Float = 0, centerX: Float = 0, centerY: Float = 0
    private let taps: Int

    package init(parameters: ShaderParameters) throws {
        taps = parameters.integer("taps")
    }

    package func configure(width: Int, height: Int) {
        LowResolution.configure(&grid, shared: &small, width: width, height: height, scale: 4, filler: 0)
    }

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let drive = AudioDrive(uniforms.features)
        length = min(0.95, parameters.number("strength") * (1 + parameters.number("react") * (0.5 * drive.level + drive.beat)))
        centerX = parameters.number("center_x") * Float(uniforms.width)
        centerY = parameters.number("center_y") * Float(uniforms.height)
        small?.beginFrame()
    }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        guard let grid, let small, grid.fits(target, source: source) else { clearRows(target, rows); return }
        let n = taps, step = length / Float(max(1, taps - 1)), cx = centerX, cy = centerY
        let scale = Float(grid.scale), lowScale = grid.scale
        let cu = cx / scale, cv = cy / scale
        let count = grid.lowWidth, lastColumn = Float(count) - 0.51, lastRow = Float(grid.lowHeight) - 0.51
        // Blur length in pixels where the quarter-resolution result takes over from the sharp picture.
        let sharpUntil = scale * 0.5, blendWidth = scale * 1.5
        let fullLength = length
        // Tap-major loops (independent iterations overlap the loads). Workspace: the two lane sums of
        // every pixel, its x and its x step.
        let sumsRB = grid.workspace(forStripAt: rows.lowerBound).assumingMemoryBound(to: UInt32.self)
        let sumsGA = sumsRB + count
        let xs = UnsafeMutableRawPointer(sumsGA + count).assumingMemoryBound(to: Float.self)
        let dxs = xs + count
        // A local function, not a closure value: passing it on allocates nothing.
        func fillSmall(_ j: Int, _ out: UnsafeMutablePointer<UInt32>) {
            forEachBlock(source, row: j, scale: lowScale, count: count) { i, p in out[i] = p }
        }
        grid.render(rows: rows, evaluate: { j, out in
            let v = min(Float(j) + 0.5, lastRow)
            let dv = (cv - v) * step
            for i in 0..<count {
                let u = min(Float(i) + 0.5, lastColumn)
                sumsRB[i] = 0; sumsGA[i] = 0; xs[i] = u - 0.5; dxs[i] = (cu - u) * step
            }
            for k in 0..<n {
                // Every pixel of a row shares its v step, so one row per tap.
                let row = small.row(Int(roundToInt32(v - 0.5 + dv * Float(k))), fill: fillSmall)
                for i in 0..<count {
                    let p = row[Int(roundToInt32(xs[i]))]
                    sumsRB[i] &+= p & 0x00FF_00FF
                    sumsGA[i] &+= (p >> 8) & 0x00FF_00FF
                    xs[i] += dxs[i]
                }
            }
            for i in 0..<count { out[i] = TapSum(rb: sumsRB[i], ga: sumsGA[i]).mean(n) }
        }, emit: { y, blurred in
            let dst = target.row32(y), src = source.row32(y)
            dst.update(from: blurred, count: target.width)
            // Only inside the disc where the blur is still short does the sharp picture show through.
            let reach = (sharpUntil + blendWidth) / max(fullLength, 1e-6)
            let dy = Float(y) + 0.5 - cy
            guard abs(dy) < reach else { return }
            let half = (reach * reach - dy * dy).squareRoot()
            let x0 = max(0, Int(clamp(cx - half, 0, Float(target.width)))), x1 = min(target.width, Int(clamp(cx + half + 1, 0, Float(target.width))))
            guard x0 < x1 else { return }
            for x in x0..<x1 {
                let dx = Float(x) + 0.5 - cx
                let blurLength = (dx * dx + dy * dy).squareRoot() * fullLength
                dst[x] = lerpPixel(src[x], blurred[x], weight256((blurLength - sharpUntil) / blendWidth))
            }
        })
    }
}
