import MarbleCore

/// Bokeh: a lens blur — each pixel is a weighted mean of taps on a golden-angle spiral filling a disc,
/// with bright taps weighted up so highlights bloom into discs, as out-of-focus lights do.
///
/// Audio: radius × (1 + `react` · (slow bass / 2 + beat pulse)): the focus breathes with the low end
/// and drops on every beat. Tap k of n sits at
/// radius R·√(k/n), angle k·2.39996 (the golden angle), which covers the disc evenly with no rings.
/// Weight = 1 + `highlights` · (luma/255)⁴ from a 256-entry table. Taps read a quarter-resolution copy
/// of the picture shared by all strips (`SharedRows`, cache-resident), stored planar (each row holds
/// its weighted reds, then greens, blues, alphas and weights), so a tap adds five contiguous runs and
/// the loop vectorises; evaluated at that resolution, tap-major, then stretched. The resolution is a quarter
/// for radii of 16 output pixels and more, finer for smaller radii (taps land on whole grid pixels,
/// so the grid must stay well below the radius). Versus Marble's Metal original (a fixed
/// 5×5 box labelled bokeh): a real disc kernel with highlight weighting.
package final class Bokeh: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; the scratch of `grid` is partitioned by strip.
    package static let descriptor = ShaderDescriptor(
        name: "bokeh", summary: "Golden-angle spiral lens blur with blooming highlights.", kind: .filter,
        parameters: [
            ParameterDescriptor("radius", "Blur radius in pixels at 1080p.", .number(default: 20, range: 1...64)),
            ParameterDescriptor("highlights", "Extra weight of bright taps.", .number(default: 6, range: 0...32)),
            ParameterDescriptor("react", "Extra radius with the slow bass and beats.", .number(default: 0.6, range: 0...2)),
        ])

    static let taps = 28
    private var grid: LowResolution?
    /// The picture at the grid's resolution, already multiplied by each pixel's weight: five planes
    /// of `lowWidth` floats per row (r, g, b, a, weight).
    private var small: SharedRows<Float>?
    /// Tap offsets for the current radius, in grid pixels.
    private let offsetX = allocateFilled(Bokeh.taps, Float(0)), offsetY = allocateFilled(Bokeh.taps, Float(0))
    private let weights = allocateFilled(256, Float(1))

    private let baseRadius: Float

    package init(parameters: ShaderParameters) throws {
        baseRadius = parameters.number("radius")
    }

    deinit { offsetX.deallocate(); offsetY.deallocate(); weights.deallocate() }

    package func configure(width: Int, height: Int) {
        guard grid?.width != width || grid?.height != height else { return }
        let radius = baseRadius * Float(height) / 1080
        let made = LowResolution(width: width, height: height, scale: max(1, min(4, Int(radius / 4))))
        grid = made
        small = SharedRows(width: Self.planes * made.lowWidth, height: made.lowHeight, filler: 0)
    }

    /// Planes per row of `small`.
    static let planes = 5

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let drive = AudioDrive(uniforms.features)
        let radius = parameters.number("radius") * Float(uniforms.height) / 1080
            * (1 + parameters.number("react") * (0.5 * drive.bassSlow + drive.beat)) / Float(grid?.scale ?? 1)
        for k in 0..<Self.taps {
            let r = radius * (Float(k) / Float(Self.taps - 1)).squareRoot()
            let angle = Float(k) * 2.399_963
            offsetX[k] = r * fastCos(angle); offsetY[k] = r * fastSin(angle)
        }
        let highlights = parameters.number("highlights")
        for l in 0..<256 {
            let x = Float(l) / 255
            weights[l] = 1 + highlights * x * x * x * x
        }
        small?.beginFrame()
    }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        guard let grid, let small, grid.fits(target, source: source) else { clearRows(target, rows); return }
        let count = grid.lowWidth, lowScale = grid.scale
        // Workspace: five accumulators per pixel (r, g, b, a, total weight).
        let sumR = grid.workspace(forStripAt: rows.lowerBound).assumingMemoryBound(to: Float.self)
        let sumG = sumR + count, sumB = sumG + count, sumA = sumB + count, total = sumA + count
        let weights = self.weights
        // Each picture pixel is weighted once, when its row is first needed; taps then only add.
        // A local function, not a closure value: passing it on allocates nothing.
        func fillSmall(_ j: Int, _ out: UnsafeMutablePointer<Float>) {
            forEachBlock(source, row: j, scale: lowScale, count: count) { i, p in
                let pr = p & 0xFF, pg = (p >> 8) & 0xFF, pb = (p >> 16) & 0xFF
                // Cheap luma (r + 2g + b)/4 picks the weight.
                let w = weights[Int((pr &+ 2 &* pg &+ pb) >> 2)]
                out[i] = w * channel(p, 0); out[count + i] = w * channel(p, 8); out[2 * count + i] = w * channel(p, 16)
                out[3 * count + i] = w * channel(p, 24); out[4 * count + i] = w
            }
        }
        let lastColumn = count - 1
        grid.render(target, rows: rows) { j, out in
            for i in 0..<count { sumR[i] = 0; sumG[i] = 0; sumB[i] = 0; sumA[i] = 0; total[i] = 0 }
            for k in 0..<Self.taps {
                let r = small.row(j + Int(roundToInt32(offsetY[k])), fill: fillSmall)
                let g = r + count, b = g + count, a = b + count, w = a + count
                let du = Int(roundToInt32(offsetX[k]))
                // Columns whose tap stays inside the row need no clamp.
                let first = max(0, -du), last = min(count, count - du)
                @inline(__always) func tap(_ i: Int, _ s: Int) {
                    sumR[i] += r[s]; sumG[i] += g[s]; sumB[i] += b[s]; sumA[i] += a[s]; total[i] += w[s]
                }
                for i in 0..<min(first, count) { tap(i, min(lastColumn, max(0, i + du))) }
                if first < last {
                    // One plane at a time: five contiguous runs, each a vectorised add.
                    let n = last - first
                    addRun(sumR + first, r + first + du, n); addRun(sumG + first, g + first + du, n)
                    addRun(sumB + first, b + first + du, n); addRun(sumA + first, a + first + du, n)
                    addRun(total + first, w + first + du, n)
                }
                for i in max(last, first)..<count { tap(i, min(lastColumn, max(0, i + du))) }
            }
            for i in 0..<count {
                let k = 1 / (255 * total[i])
                let alpha = sumA[i] * k
                out[i] = packPremultiplied(min(sumR[i] * k, alpha), min(sumG[i] * k, alpha), min(sumB[i] * k, alpha), alpha)
            }
        }
    }
}

/// `destination[i] += source[i]` for `count` floats, eight at a time (the compiler left the plain loop
/// scalar, not knowing the two never overlap).
@inline(__always)
private func addRun(_ destination: UnsafeMutablePointer<Float>, _ source: UnsafeMutablePointer<Float>, _ count: Int) {
    var i = 0
    while i + 8 <= count {
        storeLanes(loadLanes(destination + i) + loadLanes(source + i), destination + i)
        i += 8
    }
    while i < count { destination[i] += source[i]; i += 1 }
}
