import MarbleCore

/// The guard's unit of cost: a trivial, arithmetic-bound kernel on a picture small enough to stay in
/// the L1/L2 cache (256x256 RGBA, a gradient from a polynomial per pixel, eight passes).
///
/// Why not `solid`: a full-frame fill is bound by memory bandwidth, and its time moved by up to 60 %
/// between two processes on the same machine (page placement, huge pages), which moved every ratio
/// with it. Arithmetic on cached data scales with the core's speed and load like the kernels do.
enum ReferenceKernel {
    static let name = "reference"
    private static let side = 256

    /// Median milliseconds of one run over `samples` runs, on the clock `clock`.
    static func milliseconds(samples: Int, clock: BenchClock) -> Double {
        let texture = Texture(width: side, height: side)
        let view = texture.view
        var times: [Double] = []
        times.reserveCapacity(samples)
        for s in 0..<(samples + 3) {
            let start = clock.now()
            for pass in 0..<8 { draw(view, phase: Float(pass &+ s) * 0.01) }
            if s >= 3 { times.append(Double(clock.now() &- start) / 1e6) }
        }
        return times.sorted()[times.count / 2]
    }

    /// Median milliseconds of copying one `width`×`height` RGBA frame into another: the cost of the memory
    /// traffic a frame-sized kernel cannot avoid. The guard's slack for memory-bound kernels is counted in
    /// these copies, because on another machine (or beside a busy neighbour) memory bandwidth and core
    /// speed do not scale together: a copy can cost 3x more reference units there.
    static func copyMilliseconds(width: Int, height: Int, samples: Int, clock: BenchClock) -> Double {
        let source = Texture(width: width, height: height), target = Texture(width: width, height: height)
        let from = source.view, to = target.view
        for y in 0..<height { from.row32(y).update(repeating: UInt32(truncatingIfNeeded: y) | 0xFF00_0000, count: width) }
        var times: [Double] = []
        times.reserveCapacity(samples)
        for s in 0..<(samples + 2) {
            let start = clock.now()
            for y in 0..<height { to.row32(y).update(from: from.row32(y), count: width) }
            if s >= 2 { times.append(Double(clock.now() &- start) / 1e6) }
        }
        return times.sorted()[times.count / 2]
    }

    private static func draw(_ view: TextureView, phase: Float) {
        for y in 0..<view.height {
            let row = view.row32(y)
            let v = Float(y) * (1 / Float(side))
            for x in 0..<view.width {
                let u = Float(x) * (1 / Float(side))
                let t = u * (u * (u * 0.5 + phase) + v) + v * v * 0.25
                let c = UInt32(truncatingIfNeeded: Int32(max(0, min(255, t * 255))))
                row[x] = c | (c << 8) | (255 - c) << 16 | 0xFF00_0000
            }
        }
    }
}

