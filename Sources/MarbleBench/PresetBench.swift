import Foundation
import MarbleCore
import MarbleKit
import MarbleMedia
import MarblePipeline
import MarbleRender

/// Times a preset frame by frame through the pipeline `marble render` runs: the same ``RenderJob``
/// opens the song (the first pass over it, the beat grid, the song's tags for the uniforms), the same
/// source steps through it (``OfflineStepper``), the same renderer draws and converts, and with
/// `encode` the same encoding sink writes an MP4 (x264 and the muxer). Here the stages run one after
/// the other on the calling thread, so each one's time and allocations are its own (the job overlaps
/// them on their threads): decode, analysis, each layer, colour conversion (fused with the layers band
/// by band when the scene allows), encode.
struct PresetBench {
    let preset: Preset
    let size: BenchConfiguration.Size
    let threads: Int

    /// `song` is a WAV of the benchmark signal, long enough for warm-up + measured frames.
    func run(song: String, configuration c: BenchConfiguration) throws(MarbleError) -> BenchResult {
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("marble-bench-\(getpid())-\(preset.name)-\(size.width)x\(size.height).mp4").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let job = try RenderJob(options: options(song: song, output: output, configuration: c))
        let stages = try job.open()
        let encoding = c.encode ? try job.makeSink(for: stages).encoding : nil
        defer { encoding?.abort() }
        let source = stages.frameSource
        let slot = try FrameSlot(width: size.width, height: size.height, features: source.makeFeatures(),
                                 hasPicture: source.hasPictures, needs: .yuv)
        let cancel = CancellationFlag()
        var tally = PresetStageTally(layerNames: stages.renderer.layerNames, clock: c.clock)
        for n in 0..<(c.warmup + c.frames) {
            if n == c.warmup { AllocationCounter.start() }
            tally.measured = n >= c.warmup
            let start = tally.begin()
            guard let due = try tally.time(.decode, { () throws(MarbleError) in try source.nextDueFrame(cancel: cancel) }) else {
                throw MarbleError(.input, "\(song): the benchmark song ended after \(n) frames")
            }
            try tally.time(.analysis) { () throws(MarbleError) in try source.produce(due, into: slot) }
            try tally.render(stages.renderer) { () throws(MarbleError) in try stages.renderer.render(slot) }
            if let encoding { try tally.encode(encoding) { () throws(MarbleError) in try encoding.consume(slot) } }
            tally.end(frameStartedAt: start)
        }
        AllocationCounter.stop()
        return tally.result(name: preset.name, size: size, threads: threads, configuration: c)
    }

    /// The render's options: the preset at the bench's size, rate, threads and encoder settings.
    private func options(song: String, output: String, configuration c: BenchConfiguration) -> RenderOptions {
        var options = RenderOptions(input: song, output: output)
        options.width = size.width
        options.height = size.height
        options.fps = c.fps
        options.scene = preset
        options.threads = threads
        options.encoderPreset = c.encoderPreset
        options.crf = c.crf
        return options
    }
}
