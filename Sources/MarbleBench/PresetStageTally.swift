import MarbleCore
import MarbleKit
import MarbleMedia
import MarblePipeline

/// The times and allocations of a ``PresetBench`` run, stage by stage: every frame is timed, only the
/// measured ones (after the warm-up) are recorded. Allocates nothing per frame.
struct PresetStageTally {
    var decode = StageTimer(name: "decode"), analysis = StageTimer(name: "analysis")
    var layers: [StageTimer]
    var render = StageTimer(name: "render (all layers)")
    var convert = StageTimer(name: "convert"), encode = StageTimer(name: "encode"), total = StageTimer(name: "frame")
    /// Mallocs counted per stage over the measured frames; rendering and conversion run fused, so their
    /// allocations are counted together, in `render` (the render path, which must make none).
    var mallocs = (decode: 0, analysis: 0, render: 0, encode: 0)
    /// Whether the frame being timed is recorded (false during the warm-up).
    var measured = false
    let clock: BenchClock
    /// The renderer's sums before this frame (its layer and conversion times are summed over frames).
    private var layerSums: [Double], convertSum = 0.0, encodeSum = 0.0
    private var encoded = false

    init(layerNames: [String], clock: BenchClock) {
        layers = layerNames.enumerated().map { StageTimer(name: "layer \($0.offset + 1): \($0.element)") }
        layerSums = [Double](repeating: 0, count: layerNames.count)
        self.clock = clock
    }

    /// The start of a frame.
    func begin() -> UInt64 { clock.now() }

    /// The stages timed by ``time(_:_:)``.
    enum Stage { case decode, analysis }

    /// Runs one stage, recording its time and allocations.
    mutating func time<T>(_ stage: Stage, _ body: () throws(MarbleError) -> T) throws(MarbleError) -> T {
        let mark = AllocationCounter.count, start = clock.now()
        let result = try body()
        let elapsed = clock.now() &- start, allocated = AllocationCounter.count - mark
        guard measured else { return result }
        switch stage {
        case .decode: decode.record(nanoseconds: elapsed); mallocs.decode += allocated
        case .analysis: analysis.record(nanoseconds: elapsed); mallocs.analysis += allocated
        }
        return result
    }

    /// Runs the render stage: the layers, each timed by the compositor, and the conversion fused with them.
    mutating func render(_ renderer: FrameRenderer, _ body: () throws(MarbleError) -> Void) throws(MarbleError) {
        let mark = AllocationCounter.count, start = clock.now()
        try body()
        let elapsed = clock.now() &- start, allocated = AllocationCounter.count - mark
        let convertMs = renderer.convertMilliseconds - convertSum
        convertSum = renderer.convertMilliseconds
        let sums = renderer.layerMilliseconds
        guard measured else { for i in layerSums.indices { layerSums[i] = sums[i] }; return }
        render.record(nanoseconds: elapsed &- min(elapsed, UInt64(max(0, convertMs) * 1e6)))
        convert.record(milliseconds: convertMs)
        for i in layerSums.indices {
            layers[i].record(milliseconds: sums[i] - layerSums[i])
            layerSums[i] = sums[i]
        }
        mallocs.render += allocated
    }

    /// Runs the encoding sink on the frame: x264 and the muxer, as the sink times them.
    mutating func encode(_ sink: EncodingSink, _ body: () throws(MarbleError) -> Void) throws(MarbleError) {
        encoded = true
        let mark = AllocationCounter.count
        try body()
        let allocated = AllocationCounter.count - mark
        let ms = sink.encodeMilliseconds - encodeSum
        encodeSum = sink.encodeMilliseconds
        if measured { encode.record(milliseconds: ms); mallocs.encode += allocated }
    }

    /// The end of a frame that began at `start`.
    mutating func end(frameStartedAt start: UInt64) {
        if measured { total.record(nanoseconds: clock.now() &- start) }
    }

    /// The benchmark's result: every stage's percentiles, and the render path's mallocs per frame.
    func result(name: String, size: BenchConfiguration.Size, threads: Int, configuration c: BenchConfiguration) -> BenchResult {
        var stages = [decode, analysis]
        let counting = AllocationCounter.isCounting
        var render = render, encode = encode
        if counting {
            stages[0].allocations = mallocs.decode
            stages[1].allocations = mallocs.analysis
            render.allocations = mallocs.render
            encode.allocations = mallocs.encode
        }
        // Layers and the conversion have times of their own; their allocations are counted in `render`.
        var stats = stages.map { $0.stats(frames: c.frames) } + layers.map { $0.stats(frames: c.frames) }
        stats += [render.stats(frames: c.frames), convert.stats(frames: c.frames)]
        if encoded { stats.append(encode.stats(frames: c.frames)) }
        var frame = total.stats(frames: c.frames)
        if counting {
            frame.allocationsPerFrame = Double(mallocs.decode + mallocs.analysis + mallocs.render + mallocs.encode) / Double(c.frames)
        }
        return BenchResult(name: name, kind: .preset, width: size.width, height: size.height, threads: threads, frames: c.frames,
                           total: frame, stages: stats, fps: 1000 / max(frame.mean, 1e-6),
                           allocationsPerFrame: counting ? Double(mallocs.render) / Double(c.frames) : nil,
                           peakRSSMegabytes: MachineInfo.peakRSSMegabytes(),
                           note: c.encode ? "x264 \(c.encoderPreset.rawValue)" : nil)
    }
}
