/// What a shader does to the picture.
public enum ShaderKind: String, Sendable, CaseIterable {
    /// Draws from nothing (backgrounds, bars, waveforms); ignores what is under it.
    case generator
    /// Transforms the picture under it (ink, pixellate, blur): reads `source`, writes `target`.
    case filter
}

/// The static description of a shader: its name, a one-line summary and its parameter table.
public struct ShaderDescriptor: Sendable {
    /// What presets and `--effect` call the shader (lowercase, e.g. `magma`).
    public let name: String
    /// One sentence for `marble effects`.
    public let summary: String
    /// Generator (draws from nothing) or filter (transforms the picture under it).
    public let kind: ShaderKind
    /// True when every pixel the generator writes has alpha 255 (lets the compositor skip a blend).
    public let isOpaque: Bool
    /// True for a sparse generator (bars, lines) that blends its own pixels onto the picture under it:
    /// `render` gets that picture as `target` and must combine what it draws with it using
    /// `uniforms.blend` and `uniforms.opacity`, touching only the pixels it covers. This spares the
    /// compositor a full-frame layer, its clearing and its blend pass.
    public let drawsOnCanvas: Bool
    /// The parameter table, in the order `marble effects` lists it.
    public let parameters: [ParameterDescriptor]
    /// The optional features the shader reads (``AudioFeatures/spectrum``, ``AudioFeatures/pitches``):
    /// jobs ask the analyser for them only when a layer's shader needs them. Default: none.
    public let needs: OptionalFeatures

    /// A descriptor; see the properties for what each value means.
    public init(name: String, summary: String, kind: ShaderKind, isOpaque: Bool = false,
                drawsOnCanvas: Bool = false, needs: OptionalFeatures = [], parameters: [ParameterDescriptor]) {
        self.needs = needs
        self.name = name
        self.summary = summary
        self.kind = kind
        self.isOpaque = isOpaque
        self.drawsOnCanvas = drawsOnCanvas
        self.parameters = parameters
    }

    /// The position of `parameter` in ``parameters``, or nil when the shader has no such parameter.
    public func index(of parameter: String) -> Int? {
        parameters.firstIndex { $0.name == parameter }
    }
}

/// Everything a kernel may know about the frame it draws: plain values, no clocks.
public struct FrameUniforms: Sendable {
    /// Media time of the frame in seconds (frame index / fps), never the wall clock.
    public var time: Double
    /// The frame's index from 0.
    public var frameIndex: Int
    /// The output frame rate.
    public var fps: Rational
    /// The output width in pixels (the size `configure` was called with).
    public var width: Int
    /// The output height in pixels.
    public var height: Int
    /// The frame's audio features.
    public var features: AudioFeatures
    /// The media picture for this frame (a video frame or a still background), already scaled to the
    /// output size, or nil when the job has none.
    public var input: TextureView?
    /// How this layer combines with the picture under it (for `drawsOnCanvas` generators).
    public var blend: BlendMode = .normal
    /// This layer's opacity 0…1 (for `drawsOnCanvas` generators).
    public var opacity: Float = 1
    /// The song being drawn (tags, length, cover), or nil when there is none (a live session).
    public var song: SongInfo?
    /// The renderer's threads, for a kernel whose `prepare` has passes of its own to spread across
    /// cores (MilkDrop's warp): nil when the caller has none (then run the work inline).
    package var strips: (any StripRunner)?

    /// Uniforms for one frame; `blend` and `opacity` start as normal and 1 (the compositor sets them per layer); `song` is nil unless given.
    public init(time: Double, frameIndex: Int, fps: Rational, width: Int, height: Int,
                features: AudioFeatures, input: TextureView? = nil, song: SongInfo? = nil) {
        self.time = time
        self.song = song
        self.frameIndex = frameIndex
        self.fps = fps
        self.width = width
        self.height = height
        self.features = features
        self.input = input
    }
}

/// A shader-like kernel: the CPU counterpart of a Metal compute function.
///
/// Life cycle (libavfilter's init / config / filter_frame):
/// 1. `init(parameters:)` receives validated parameters and may throw for what validation cannot see
///    (an image that does not load);
/// 2. `configure(width:height:)` allocates scratch memory for one output size;
/// 3. per frame, `prepare(_:parameters:)` runs once, alone, to derive per-frame values (bar heights,
///    bound parameters); then `render(_:source:rows:uniforms:)` runs concurrently on disjoint strips of
///    rows. `prepare` and `render` never allocate and never throw.
///
/// Concurrency contract (why conforming classes may be `@unchecked Sendable`): `prepare` is the only
/// mutating call during a frame and never overlaps `render`; `render` only reads the shader's stored
/// state and writes rows of `target` inside `rows`.
public protocol Shader: AnyObject, Sendable {
    /// The shader's name, summary, kind and parameter table.
    static var descriptor: ShaderDescriptor { get }
    /// Creates the shader from validated parameters; throws for what validation cannot see (an image that does not load).
    init(parameters: ShaderParameters) throws
    /// Allocates scratch memory for one output size; called before the first frame and again when the size changes.
    func configure(width: Int, height: Int)
    /// Derives this frame's values from `uniforms` and the current `parameters` (after bindings). Runs alone, never allocates.
    func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters)
    /// Writes premultiplied RGBA into `target` for `rows`. Filters read `source` (the picture under the
    /// layer); generators ignore it.
    func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms)
    /// After `prepare`: the rows this frame can draw anything into (everything else is transparent), so
    /// the compositor renders and blends only those. Default: every row.
    func coveredRows(height: Int) -> Range<Int>
    /// After `prepare`: the opaque packed pixel `render` writes over every pixel of row `y`, when it
    /// draws that row as one colour (a solid colour, a vertical gradient), or nil. A compositor sending
    /// frames only to an encoder converts such rows of a first layer, where no other layer draws, to YUV
    /// without drawing them. Default: nil.
    func uniformRow(_ y: Int) -> UInt32?
    /// What went wrong while it drew that the run's summary should name (content it skipped), read
    /// after the last frame. Default: nothing.
    var warnings: [String] { get }
}

extension Shader {
    /// Nothing to allocate (the default).
    public func configure(width: Int, height: Int) {}
    public func coveredRows(height: Int) -> Range<Int> { 0..<height }
    public func uniformRow(_ y: Int) -> UInt32? { nil }
    public var warnings: [String] { [] }
}
