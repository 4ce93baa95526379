/// The skeleton every generative background shares, so that each background file holds only its own
/// field: the maths per pixel, its parameter table and its palette stops.
///
/// A background is `Background<Field>`: the shader (descriptor, canvas, palette, the Shader life cycle,
/// the render loop) around a ``BackgroundField`` value that does the field's work. Fields that shade
/// eight pixels at a time into the palette conform to ``LaneField`` and only write `row` (per-row
/// constants) and `shade` (eight palette positions); the others (blends, per-column tables, scalar
/// loops) write `fill` for a whole low-resolution row.
///
/// What keeps it fast: the loop over pixels lives in the field's own (concrete, non-generic) methods,
/// so it is compiled for that field with everything inlined; the generic shader calls the field once
/// per low-resolution row, never per pixel.
///
/// Field coordinates are in frame heights, centred: x ∈ ±aspect/2, y ∈ ±1/2 (y down), divided by
/// `zoom`. Fields are evaluated on a low-resolution grid (``LowResolution``, stretched bilinearly) whose
/// scale each field chooses per output size (``BackgroundResolution``). Colour comes from a 256-entry
/// palette rebuilt per frame (hue, audio gain), so the per-pixel work ends in one table load.
import MarbleCore

/// What a background brings of its own. Fields are value types the shader owns: `prepare` (alone, once
/// per frame, never allocating) updates them, `fill` reads them concurrently.
protocol BackgroundField {
    /// The descriptor (``ShaderDescriptor/background(_:_:speed:_:)``: the common parameters appended).
    static var descriptor: ShaderDescriptor { get }
    /// Palette colour stops, spread evenly over 0…1.
    static var stops: [Color] { get }
    /// How coarse the low-resolution grid may be for an output size.
    static var resolution: BackgroundResolution { get }
    init(parameters: ShaderParameters)
    /// Float arrays of one value per low-resolution column the field fills in `prepare` (for fields
    /// whose shape depends on x only). Default 0.
    var columnTables: Int { get }
    /// Palette brightness this frame (applied to the stops), default 1.
    var paletteGain: Float { get }
    /// This frame's values from the frame (with its column tables) and the bound parameters.
    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters)
    /// Writes the `row.count` pixels of one low-resolution row (opaque, premultiplied).
    func fill(_ row: BackgroundRow, _ out: UnsafeMutablePointer<UInt32>, _ canvas: BackgroundCanvas)
}

extension BackgroundField {
    var columnTables: Int { 0 }
    var paletteGain: Float { 1 }
}

/// A field shaded eight pixels at a time into palette positions 0…1.
protocol LaneField: BackgroundField {
    /// What a row computes once for all its pixels.
    associatedtype Row
    /// The per-row constants of the row at field height `y`.
    func row(_ y: Float) -> Row
    /// Palette positions of the eight pixels at field x `x` on `row`.
    func shade(_ x: Lanes, _ row: Row) -> Lanes
}

extension LaneField {
    @inline(__always)
    func fill(_ row: BackgroundRow, _ out: UnsafeMutablePointer<UInt32>, _ canvas: BackgroundCanvas) {
        let constants = self.row(row.y)
        forEachLaneGroup(count: row.count, { first in
            shade(lanes(row.x0, step: row.step, first: first), constants)
        }, store: { i, v in out[i] = canvas.color(v) })
    }
}

/// One low-resolution row: the field coordinates of its first pixel, the step between pixels (also
/// the size of one low-resolution pixel, for antialiasing) and the number of pixels.
struct BackgroundRow {
    var x0: Float, y: Float, step: Float, count: Int
}

/// The shader of a generative background: `Field` does the drawing, this does the rest.
final class Background<Field: BackgroundField>: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `prepare` alone writes `field` and the canvas's
    // palette and column tables, `render` only reads them.
    static var descriptor: ShaderDescriptor { Field.descriptor }
    private let canvas = BackgroundCanvas(resolution: Field.resolution)
    private var field: Field
    private var zoom: Float = 1

    init(parameters: ShaderParameters) throws { field = Field(parameters: parameters) }

    func configure(width: Int, height: Int) {
        canvas.configure(width: width, height: height, columnTables: field.columnTables)
    }

    func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let frame = BackgroundFrame(uniforms, parameters, canvas: canvas)
        zoom = frame.zoom
        field.prepare(frame, parameters)
        canvas.setPalette(Field.stops, hue: parameters.number("hue"), gain: field.paletteGain)
    }

    func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let field = field, canvas = canvas
        canvas.render(target, rows: rows, zoom: zoom) { row, out in field.fill(row, out, canvas) }
    }
}

extension ShaderDescriptor {
    /// A background's descriptor: an opaque generator with `parameters` followed by the common speed,
    /// zoom, react and hue (`speed` is the default animation speed).
    static func background(_ name: String, _ summary: String, speed: Double,
                           _ parameters: [ParameterDescriptor]) -> ShaderDescriptor {
        ShaderDescriptor(name: name, summary: summary, kind: .generator, isOpaque: true,
                         parameters: parameters + BackgroundParameters.common(speed: speed))
    }
}

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
struct BackgroundFrame {
    /// Animation time: media time × speed, wrapped every hour of animation so Float keeps precision.
    let time: Float
    /// Media time in seconds (for fields that count turns or ticks in Double).
    let mediaTime: Double
    /// The `speed` parameter.
    let speed: Float
    let zoom: Float, react: Float
    let drive: AudioDrive
    /// Size of one low-resolution pixel in field units (for edges a pixel wide).
    let pixel: Float
    /// The column tables (``BackgroundField/columnTables`` arrays; none before `configure`).
    let columns: BackgroundColumns

    init(_ uniforms: FrameUniforms, _ parameters: ShaderParameters, canvas: BackgroundCanvas) {
        mediaTime = uniforms.time
        speed = parameters.number("speed")
        time = wrapped(uniforms.time * Double(speed), period: 3600)
        zoom = parameters.number("zoom")
        react = parameters.number("react")
        drive = AudioDrive(uniforms.features)
        pixel = canvas.pixel(height: uniforms.height, zoom: zoom)
        columns = canvas.columns(width: uniforms.width, height: uniforms.height, zoom: zoom)
    }
}

/// Per-column tables a field fills in `prepare`: `columnTables` arrays of `count` floats, array k at
/// `values + k · count`, and the field x of each column.
struct BackgroundColumns {
    let values: UnsafeMutablePointer<Float>
    let count: Int
    let scale: Int, width: Int, unit: Float

    /// Field x of low-resolution column `i` (the x `render` gives its pixel).
    @inline(__always) func x(_ i: Int) -> Float {
        ((Float(i) + 0.5) * Float(scale) - Float(width) * 0.5) * unit
    }
    /// Array `k`.
    @inline(__always) func table(_ k: Int) -> UnsafeMutablePointer<Float> { values + k * count }
}

/// The low-resolution grid, the palette and the column tables of one background.
final class BackgroundCanvas: @unchecked Sendable {
    // @unchecked Sendable: `grid` and the column tables change only in `configure`, the palette and
    // the tables' values only in `prepare`; during `render` all are read-only apart from the grid's
    // strip-partitioned scratch.
    private(set) var grid: LowResolution?
    let palette: UnsafeMutablePointer<UInt32> = allocateFilled(256, 0xFF00_0000)
    let resolution: BackgroundResolution
    private var tables: UnsafeMutablePointer<Float> = allocateFilled(1, 0)
    private var tableCount = 0

    init(resolution: BackgroundResolution) { self.resolution = resolution }

    deinit { palette.deallocate(); tables.deallocate() }

    func configure(width: Int, height: Int, columnTables: Int = 0) {
        if grid?.width != width || grid?.height != height {
            grid = LowResolution(width: width, height: height, scale: resolution.scale(width: width, height: height))
        }
        let needed = columnTables * (grid?.lowWidth ?? 0)
        if needed > tableCount {
            tables.deallocate()
            tables = allocateFilled(needed, 0)
            tableCount = needed
        }
    }

    /// The column tables for a frame of `width`×`height` (none without a grid of that width).
    func columns(width: Int, height: Int, zoom: Float) -> BackgroundColumns {
        guard let grid, grid.width == width else {
            return BackgroundColumns(values: tables, count: 0, scale: 1, width: width, unit: 0)
        }
        return BackgroundColumns(values: tables, count: grid.lowWidth, scale: grid.scale, width: width,
                                 unit: 1 / (Float(height) * max(zoom, 1e-3)))
    }

    /// Size of one low-resolution pixel in field units.
    func pixel(height: Int, zoom: Float) -> Float {
        Float(grid?.scale ?? 1) / (Float(max(1, height)) * max(zoom, 1e-3))
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

    /// Renders `rows`: `fill(row, out)` writes one low-resolution row. Without a matching `configure`, black.
    @inline(__always)
    func render(_ target: TextureView, rows: Range<Int>, zoom: Float,
                fill: (BackgroundRow, UnsafeMutablePointer<UInt32>) -> Void) {
        guard let grid, grid.width == target.width, grid.height == target.height else {
            for y in rows { fillPixels(target.row32(y), target.width, 0xFF00_0000) }
            return
        }
        let unit = 1 / (Float(target.height) * max(zoom, 1e-3))
        let halfWidth = Float(target.width) * 0.5, halfHeight = Float(target.height) * 0.5
        let step = Float(grid.scale) * unit
        let x0 = (grid.center(0) - halfWidth) * unit
        if grid.scale == 1 {
            // Full resolution: rows straight into the target (what stretching would copy).
            for y in rows.clamped(to: 0..<grid.height) {
                fill(BackgroundRow(x0: x0, y: (grid.center(y) - halfHeight) * unit, step: step, count: grid.lowWidth), target.row32(y))
            }
            return
        }
        grid.render(target, rows: rows) { j, out in
            fill(BackgroundRow(x0: x0, y: (grid.center(j) - halfHeight) * unit, step: step, count: grid.lowWidth), out)
        }
    }
}

/// How coarse a background's low-resolution grid is: `scale` output pixels per grid pixel, each way.
///
/// Smooth fields keep one scale at every size (``init(scale:)``). Fields with thin features (edges,
/// lines, grains, stars) give a budget instead (``init(coarsest:budget:)``): how many grid pixels they
/// can evaluate per frame within the frame-time budget (1080p p99 ≤ 5 ms on 2 threads; about 6.5 ms of
/// one core). The grid is then the finest whole scale that fits it, never coarser than `coarsest`: for
/// a field costing ≈30 ns a pixel, full resolution at 320x180, a third at 1280x720, a quarter at
/// 1920x1080. Stretching back is bilinear (``LowResolution``).
struct BackgroundResolution: Sendable {
    /// The coarsest scale.
    let coarsest: Int
    /// Grid pixels per frame the field may evaluate; 0: always `coarsest`.
    let budget: Int

    init(scale: Int) { coarsest = max(1, scale); budget = 0 }

    init(coarsest: Int, budget: Int) { self.coarsest = max(1, coarsest); self.budget = max(0, budget) }

    /// The scale for a `width`×`height` output.
    func scale(width: Int, height: Int) -> Int {
        guard budget > 0 else { return coarsest }
        var scale = 1
        while scale < coarsest && ((width + scale - 1) / scale) * ((height + scale - 1) / scale) > budget { scale += 1 }
        return scale
    }
}
