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
    /// Core nanoseconds per output pixel past 1280x720's of the frame's work that follows the output's
    /// size, not the buffer's: the buffer scaled up to the output and the colour conversion. The
    /// budget above holds it for 720p; a bigger output leaves the shaders that much less (measured:
    /// the 1.x path of the same presets costs 6.7 ns more core time per added output pixel from 720p
    /// to 1080p, one thread; 1080p leaves the shaders 8 ms of the 15).
    static let perOutputPixel: Float = 6
    /// The fewest pixels of an automatic buffer: a ninth of 1280x720's (427x240), at any output size.
    static let smallestPixels: Float = 102_400

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
    /// within ``budget(width:height:)``: 1 when the whole buffer is affordable, never below
    /// ``smallestScale(width:height:)``.
    package static func automaticScale(costPerPixel: Float, width: Int, height: Int) -> Float {
        guard costPerPixel > 0, width > 0, height > 0 else { return 1 }
        let affordable = budget(width: width, height: height) / costPerPixel
        let scale = (affordable / Float(width * height)).squareRoot()
        return max(smallestScale(width: width, height: height), min(1, scale))
    }

    /// The shaders' share of a frame of `width × height`, in core nanoseconds: ``frameBudget`` up to
    /// 1280x720, less ``perOutputPixel`` for every pixel past it (never under a third of it).
    static func budget(width: Int, height: Int) -> Float {
        let extra = max(0, Float(width * height) - 1280 * 720)
        return max(frameBudget / 3, frameBudget - perOutputPixel * extra)
    }

    /// The smallest automatic scale at a size: ``smallestPixels`` of buffer (half the width and height
    /// at 720p was the old floor: a quarter of its pixels), or 1 for outputs smaller than that.
    static func smallestScale(width: Int, height: Int) -> Float {
        min(1, (smallestPixels / Float(max(1, width * height))).squareRoot())
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
