import Foundation
import MarbleAnalysis
import MarbleCore
import MarbleMedia
import MarbleRender
import Shaders

/// Times a preset frame by frame through every stage of the pipeline, one stage after the other on the
/// calling thread (the real job overlaps them): decode, analysis, each layer, colour conversion (fused
/// with the layers band by band when the scene allows, as in a render), and with `encode` the x264
/// encoder and the MP4 muxer.
struct PresetBench {
    let preset: Preset
    let size: BenchConfiguration.Size
    let threads: Int

    /// `song` is a WAV of the benchmark signal, long enough for warm-up + measured frames.
    func run(song: String, configuration c: BenchConfiguration) throws(MarbleError) -> BenchResult {
        let w = size.width, h = size.height
        let decoder = try AudioDecoder(path: song)
        let extractor = try MediaAnalysis.extractor(sampleRate: decoder.sampleRate, fps: c.fps,
                                                    configuration: AnalysisConfiguration(), report: nil)
        try extractor.request(preset.featureNeeds)
        let compositor = try Compositor(preset: preset, width: w, height: h, threads: threads)
        let canvas = Texture(width: w, height: h)
        var features = extractor.makeFeatures()
        let yuv = YUVBuffer(width: w, height: h)
        defer { yuv.deallocate() }
        var writer: MediaWriter?
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("marble-bench-\(getpid())-\(preset.name)-\(w)x\(h).mp4").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        if c.encode {
            let settings = VideoEncoder.Settings(width: w, height: h, fps: c.fps, crf: c.crf, preset: c.encoderPreset,
                                                 threads: threads, globalHeader: false)
            writer = try MediaWriter(path: output, format: .mp4, settings: settings, audioFrom: nil)
        }
        let encoderFrame = c.encode ? try YUVFrame(width: w, height: h) : nil
        defer { writer?.abort() }

        var decode = StageTimer(name: "decode"), analysis = StageTimer(name: "analysis")
        var layers = compositor.layerNames.enumerated().map { StageTimer(name: "layer \($0.offset + 1): \($0.element)") }
        var render = StageTimer(name: "render (all layers)")
        var convert = StageTimer(name: "convert"), encode = StageTimer(name: "encode"), total = StageTimer(name: "frame")
        var mallocs = (decode: 0, analysis: 0, render: 0, encode: 0)
        var ended = false
        for n in 0..<(c.warmup + c.frames) {
            let measured = n >= c.warmup
            if n == c.warmup { AllocationCounter.start() }
            let frameStart = c.clock.now()
            var mark = AllocationCounter.count

            func close(_ timer: inout StageTimer, _ tally: inout Int, _ start: UInt64) {
                let now = c.clock.now()
                let allocated = AllocationCounter.count
                if measured { timer.record(nanoseconds: now &- start); tally += allocated - mark }
                mark = allocated
            }
            var start = c.clock.now()
            let needed = extractor.samplesNeeded(forFrame: n)
            while !ended && decoder.samplesDelivered < needed {
                if try !decoder.decodeNext({ l, r in extractor.append(left: l, right: r) }) {
                    ended = true
                    extractor.finish()
                }
            }
            close(&decode, &mallocs.decode, start)
            start = c.clock.now()
            extractor.computeFeatures(forFrame: n, into: &features)
            close(&analysis, &mallocs.analysis, start)
            let uniforms = FrameUniforms(time: c.fps.seconds(ofFrame: n), frameIndex: n, fps: c.fps, width: w,
                                         height: h, features: features)
            start = c.clock.now()
            try encoderFrame?.prepareForWriting()
            compositor.render(uniforms, into: canvas, convertingInto: encoderFrame?.planes ?? yuv.planes)
            let renderEnd = c.clock.now()
            if measured {
                let finishNanoseconds = UInt64(compositor.lastConvertTime * 1e6)
                let elapsed = renderEnd &- start
                render.record(nanoseconds: elapsed &- min(elapsed, finishNanoseconds))
                convert.record(milliseconds: compositor.lastConvertTime)
                for (i, ms) in compositor.lastLayerTimes.enumerated() { layers[i].record(milliseconds: ms) }
            }
            // Rendering and conversion run fused; their allocations are counted together, in `render`.
            let allocated = AllocationCounter.count
            if measured { mallocs.render += allocated - mark }
            mark = allocated
            if let writer, let encoderFrame {
                try writer.write(encoderFrame)
                let after = AllocationCounter.count
                if measured {
                    encode.record(milliseconds: writer.lastEncodeMs)
                    mallocs.encode += after - mark
                }
                mark = after
            }
            if measured { total.record(nanoseconds: c.clock.now() &- frameStart) }
        }
        AllocationCounter.stop()
        let counting = AllocationCounter.isCounting
        if counting {
            decode.allocations = mallocs.decode
            analysis.allocations = mallocs.analysis
            encode.allocations = mallocs.encode
        }
        var stages = [decode.stats(frames: c.frames), analysis.stats(frames: c.frames)]
        if counting { render.allocations = mallocs.render }
        // Layers and the conversion have times of their own; their allocations are counted together, in `render`.
        stages += layers.map { $0.stats(frames: c.frames) }
        stages.append(render.stats(frames: c.frames))
        stages.append(convert.stats(frames: c.frames))
        if c.encode { stages.append(encode.stats(frames: c.frames)) }
        var frame = total.stats(frames: c.frames)
        let renderPath = counting ? Double(mallocs.render) / Double(c.frames) : nil
        if counting {
            frame.allocationsPerFrame = Double(mallocs.decode + mallocs.analysis + mallocs.render + mallocs.encode) / Double(c.frames)
        }
        return BenchResult(name: preset.name, kind: .preset, width: w, height: h, threads: threads, frames: c.frames,
                           total: frame, stages: stages, fps: 1000 / max(frame.mean, 1e-6),
                           allocationsPerFrame: renderPath, peakRSSMegabytes: MachineInfo.peakRSSMegabytes(),
                           note: c.encode ? "x264 \(c.encoderPreset.rawValue)" : nil)
    }
}

/// YUV 4:2:0 planes for the colour conversion when nothing is encoded.
struct YUVBuffer {
    let storage: UnsafeMutablePointer<UInt8>
    let planes: YUVConverter.Planes

    init(width: Int, height: Int) {
        let luma = width * height, chroma = (width / 2) * (height / 2)
        storage = .allocate(capacity: luma + 2 * chroma)
        storage.initialize(repeating: 0, count: luma + 2 * chroma)
        planes = YUVConverter.Planes(y: storage, yStride: width, u: storage + luma, uStride: width / 2,
                                     v: storage + luma + chroma, vStride: width / 2)
    }

    func deallocate() { storage.deallocate() }
}
