/// What MilkDrop 2 shaders cost a frame, estimated from the compiled programs, and the render scale
/// that keeps a preset within a 60 fps frame: the automatic size of a shader preset's feedback buffer.
///
/// The estimate counts each operation a pixel executes (``ShaderProgram/executionBounds``: loops at
/// their bound) at its measured cost on one core of the project's machine (release
/// build, 2 vCPU AMD EPYC, the lane machine's batches of 256 pixels), plus the blur levels. It is a
/// property of the preset, not of the machine it runs on, so a render is the same everywhere.
package enum ShaderCost {
    /// Nanoseconds of one core per pixel: plain arithmetic, a transcendental, a 2-D and a 3-D read.
    static let arithmetic: Float = 0.12, transcendental: Float = 1.5, read2D: Float = 5, read3D: Float = 9
    /// Nanoseconds per buffer pixel of the blur levels (level 1 reads the whole buffer; 2 and 3 are small).
    static let blurLevel1: Float = 4.5, blurLevelMore: Float = 0.6
    /// The shader time a frame may take, in nanoseconds of core time: 2 cores × 7.5 ms, so that with
    /// the rest of a MilkDrop frame (equations, mesh, waves, colour conversion: 4–6 ms at 720p) a frame
    /// stays within 16.7 ms at the 99th percentile (22 ms × 2 gave p50 14–17 ms, p99 17–25 ms at 720p).
    static let frameBudget: Float = 15_000_000
    /// The smallest automatic scale (a quarter of the pixels).
    static let smallestScale: Float = 0.5

    /// One pixel of `program`.
    package static func perPixel(_ program: ShaderProgram) -> Float {
        var cost: Float = 0
        for (op, runs) in zip(program.code, program.executionBounds) {
            cost += Float(runs) * operation(op, program)
        }
        return cost
    }

    /// The blur levels per buffer pixel.
    package static func blur(levels: Int) -> Float {
        levels <= 0 ? 0 : blurLevel1 + Float(levels - 1) * blurLevelMore
    }

    /// The scale (of the output's width and height) at which a preset costing `costPerPixel` stays
    /// within ``frameBudget``: 1 when the whole buffer is affordable, never below ``smallestScale``.
    package static func automaticScale(costPerPixel: Float, width: Int, height: Int) -> Float {
        guard costPerPixel > 0, width > 0, height > 0 else { return 1 }
        let affordable = frameBudget / costPerPixel
        let scale = (affordable / Float(width * height)).squareRoot()
        return max(smallestScale, min(1, scale))
    }

    private static func operation(_ op: ShaderOperation, _ program: ShaderProgram) -> Float {
        switch op {
        case .unary(let f, _, _):
            switch f {
            case .exp, .exp2, .log, .log2, .log10, .sin, .cos, .tan, .asin, .acos, .atan, .sinh, .cosh, .tanh: transcendental
            default: arithmetic
            }
        case .binary(let f, _, _, _): f == .pow || f == .atan2 ? 2 * transcendental : arithmetic
        case .sample(let slot, _, _, _, _, _, _, _):
            Int(slot) < program.samplers.count && program.samplers[Int(slot)].isVolume ? read3D : read2D
        default: arithmetic
        }
    }
}
