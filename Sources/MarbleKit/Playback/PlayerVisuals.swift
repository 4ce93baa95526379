import MarbleCore

/// The frame loop's picture side: the causal analyser fed from the audio thread's samples, the
/// compositor for the current preset at the terminal's resolution (columns × 2·rows pixels), and the
/// half-block encoder. The compositor, canvas and encoder are rebuilt only when the preset or the
/// window size changes; the analyser only after a seek. A steady-state frame allocates nothing.
///
/// Used from the frame loop's thread only.
final class PlayerVisuals {
    let sampleRate: Int
    let fps: Rational
    let threads: Int
    private var extractor: FeatureExtractor
    private var features: AudioFeatures
    private var generation = -1
    private var baseSample = 0
    private var appended = 0
    private var lastFrame = -1

    private var compositor: Compositor?
    private var presetName: String?
    private var canvas: Texture?
    private var renderer: HalfBlockRenderer?
    /// Milliseconds the last `draw` spent in the compositor and in the half-block encoder.
    private(set) var lastRenderMilliseconds = 0.0
    private(set) var lastEncodeMilliseconds = 0.0

    init(sampleRate: Int, fps: Rational, threads: Int) throws(MarbleError) {
        self.sampleRate = sampleRate
        self.fps = fps
        self.threads = threads
        extractor = try FeatureExtractor(sampleRate: sampleRate, fps: fps)
        features = extractor.makeFeatures()
    }

    /// Moves the samples the audio thread decoded into the analyser; after a seek, starts a new one.
    func takeSamples(from handoff: SampleHandoff) throws(MarbleError) {
        var resetError: MarbleError?
        handoff.drain(generation: &generation, reset: { base in
            baseSample = base
            appended = 0
            lastFrame = -1
            do throws(MarbleError) {
                extractor = try FeatureExtractor(sampleRate: sampleRate, fps: fps)
            } catch { resetError = error }
        }, append: { left, right in
            extractor.append(left: left, right: right)
            appended += left.count
        })
        if let e = resetError { throw e }
    }

    /// Analyses the frame being heard at `position` seconds (or the newest one whose audio has been
    /// decoded, if that is earlier), with `sensitivity` applied. Does nothing if that frame is done.
    func analyse(at position: Double, sensitivity: Float) {
        let relative = position - Double(baseSample) / Double(sampleRate)
        var frame = fps.frame(at: max(0, relative))
        while frame >= 0 && extractor.samplesNeeded(forFrame: frame) > appended { frame -= 1 }
        guard frame > lastFrame else { return }
        extractor.computeFeatures(forFrame: frame, into: &features)
        features.time += Double(baseSample) / Double(sampleRate)
        features.applySensitivity(sensitivity)
        lastFrame = frame
    }

    /// Renders the current features with `preset` into a `columns × rows` cell picture and encodes
    /// it, with `status` on the row below. Returns the terminal bytes (valid until the next call).
    func draw(preset: String, columns: Int, rows: Int, status: [UInt8]) throws(MarbleError) -> UnsafeRawBufferPointer {
        let width = max(1, columns), height = 2 * max(1, rows)
        if presetName != preset || canvas?.width != width || canvas?.height != height {
            let scene = try PresetLibrary.load(preset)
            try scene.validate()
            compositor = try Compositor(preset: scene, width: width, height: height, threads: threads)
            canvas = Texture(width: width, height: height)
            renderer = HalfBlockRenderer(columns: width, rows: height / 2)
            presetName = preset
        }
        let time = features.time
        let uniforms = FrameUniforms(time: time, frameIndex: fps.frame(at: time), fps: fps, width: width,
                                     height: height, features: features)
        let start = MonotonicClock.now()
        compositor!.render(uniforms, into: canvas!)
        let rendered = MonotonicClock.now()
        let renderer = renderer!, canvas = canvas!
        let bytes = status.withUnsafeBytes { renderer.encode(canvas, status: $0) }
        lastRenderMilliseconds = Double(rendered &- start) / 1e6
        lastEncodeMilliseconds = MonotonicClock.milliseconds(since: rendered)
        return bytes
    }
}
