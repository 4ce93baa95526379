/// What every generative background shares: four common parameters (declared once here and appended
/// to each background's table), a low-resolution canvas and a 256-colour palette.
///
/// Backgrounds are smooth fields, so they are evaluated at quarter resolution (``LowResolution``) and
/// stretched: each field function runs on 1/16 of the pixels. Field coordinates are in frame heights,
/// centred: x ∈ ±aspect/2, y ∈ ±1/2 (y down), divided by `zoom`. Colour comes from the palette, rebuilt
/// per frame (hue, audio) in `prepare`, so the per-pixel work ends in one table load.
import MarbleCore

enum BackgroundParameters {
    /// speed, zoom, react, hue, in that order, after the background's own parameters.
    static func common(speed: Double = 1) -> [ParameterDescriptor] {
        [
            ParameterDescriptor("speed", "Animation speed (media time × speed).", .number(default: speed, range: 0...8)),
            ParameterDescriptor("zoom", "Feature size: higher zooms in.", .number(default: 1, range: 0.1...10)),
            ParameterDescriptor("react", "How strongly the audio drives the picture.", .number(default: 1, range: 0...4)),
            ParameterDescriptor("hue", "Palette hue rotation in degrees.", .number(default: 0, range: -180...180)),
        ]
    }
}

/// Per-frame values every background derives the same way.
struct BackgroundFrame: Sendable {
    /// Animation time: media time × speed, wrapped every hour of animation so Float keeps precision.
    var time: Float = 0
    var zoom: Float = 1, react: Float = 1
    var drive = AudioDrive()

    init() {}

    init(_ uniforms: FrameUniforms, _ parameters: ShaderParameters) {
        time = wrapped(uniforms.time * Double(parameters.number("speed")), period: 3600)
        zoom = parameters.number("zoom")
        react = parameters.number("react")
        drive = AudioDrive(uniforms.features)
    }
}

final class BackgroundCanvas: @unchecked Sendable {
    // @unchecked Sendable: `grid` changes only in `configure`, the palette only in `prepare`; during
    // `render` both are read-only apart from the grid's strip-partitioned scratch.
    private(set) var grid: LowResolution?
    let palette: UnsafeMutablePointer<UInt32> = allocateFilled(256, 0xFF00_0000)
    let scale: Int

    init(scale: Int = 4) { self.scale = scale }

    deinit { palette.deallocate() }

    func configure(width: Int, height: Int) {
        if grid?.width != width || grid?.height != height {
            grid = LowResolution(width: width, height: height, scale: scale)
        }
    }

    /// Builds the palette from colour stops spread evenly over 0…1, rotated by `hue` degrees and
    /// multiplied by `gain`.
    func setPalette(_ stops: [Color], hue: Float, gain: Float = 1) {
        let rotation = HueRotation(degrees: hue)
        let segments = Float(max(1, stops.count - 1))
        for i in 0..<256 {
            let t = Float(i) / 255 * segments
            let k = min(stops.count - 2, Int(t))
            let c = stops.count == 1 ? stops[0] : stops[k].mixed(with: stops[k + 1], t - Float(k))
            let (r, g, b) = hue == 0 ? (c.red, c.green, c.blue) : rotation.apply(c.red, c.green, c.blue)
            palette[i] = packOpaque(r * gain, g * gain, b * gain)
        }
    }

    /// Palette colour for t in 0…1 (clamped, NaN → first entry).
    @inline(__always) func color(_ t: Float) -> UInt32 {
        palette[Int(roundToInt32(clamp01(t) * 255))]
    }

    /// Field x of low-resolution column `i` for an output of `width`×`height` (what `render` passes as
    /// x0 + i·step), for kernels that precompute per-column values in `prepare`.
    func columnX(_ i: Int, width: Int, height: Int, zoom: Float) -> Float {
        let unit = 1 / (Float(height) * max(zoom, 1e-3))
        return ((Float(i) + 0.5) * Float(scale) - Float(width) * 0.5) * unit
    }

    /// Renders `rows`: `field(x, y, out)` fills one low-resolution row, given the field coordinates of
    /// its first pixel (`x`, `y`) and the step between pixels. Without a matching `configure`, black.
    @inline(__always)
    func render(_ target: TextureView, rows: Range<Int>, zoom: Float,
                row field: (_ x0: Float, _ y: Float, _ step: Float, _ count: Int, _ out: UnsafeMutablePointer<UInt32>) -> Void) {
        guard let grid, grid.width == target.width, grid.height == target.height else {
            for y in rows { fillPixels(target.row32(y), target.width, 0xFF00_0000) }
            return
        }
        let unit = 1 / (Float(target.height) * max(zoom, 1e-3))
        let halfWidth = Float(target.width) * 0.5, halfHeight = Float(target.height) * 0.5
        let step = Float(grid.scale) * unit
        let x0 = (grid.center(0) - halfWidth) * unit
        grid.render(target, rows: rows) { j, out in
            field(x0, (grid.center(j) - halfHeight) * unit, step, grid.lowWidth, out)
        }
    }
}
