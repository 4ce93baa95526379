import Foundation
import MarbleCore
import MarbleMedia
import MarblePipeline
import MarbleRender

extension RenderJob {
    /// The sink the plan names: a PNG of its one frame, the whole video with the input's sound, or a
    /// labelled segment without sound. `encoding` is the video sink (nil for a PNG), for its timings.
    package func makeSink(for stages: RenderStages) throws(MarbleError) -> (sink: any FrameSink, encoding: EncodingSink?) {
        let o = options
        let source = stages.source
        let writer: MediaWriter
        switch plan.output {
        case .picture(let path, _):
            let sink = PNGSink(path: path) { stopped in
                if stopped { return MarbleError(.cancelled, "stopped before the frame was drawn; no file written") }
                return MarbleError(.option, "--at \(o.at ?? 0)s is past the end of \(o.input) (\(String(format: "%.2f", source.durationSeconds)) s)")
            }
            return (sink, nil)
        case .pictures(let pattern):
            let writer = try PNGSequenceWriter(pattern: pattern, width: o.width, height: o.height)
            let sink = PNGSequenceSink(writer: writer) { stopped in
                stopped ? MarbleError(.cancelled, "stopped before the first frame; no file written")
                        : MarbleError(.input, "\(o.input): no audio could be decoded")
            }
            return (sink, nil)
        case .video(let path, let format):
            writer = try MediaWriter(path: path, format: format, settings: videoSettings, audioFrom: plan.input,
                                     audioBitrate: o.audioBitrate)
        case .segment(let path, let format, let segment):
            let frames = stages.frames ?? 0..<stages.totalFrames
            let label = try segmentLabel(segment: segment, format: format, frames: frames, totalFrames: stages.totalFrames)
            writer = try MediaWriter(segment: path, format: format, settings: videoSettings,
                                     firstFrame: frames.lowerBound, tags: label.tags)
        }
        let piece: String? = if case .segment(_, _, let segment) = plan.output { "segment \(segment)" } else { nil }
        let video = EncodingSink(writer: writer, firstIndex: stages.frames?.lowerBound ?? 0, keepsPartialFile: piece == nil) { stopped in
            if stopped, let piece { return MarbleError(.cancelled, "stopped: \(piece) not written (a piece is whole or absent)") }
            return stopped ? MarbleError(.cancelled, "stopped before the first frame; no file written")
                           : MarbleError(.input, "\(o.input): no audio could be decoded")
        }
        return (video, video)
    }

    /// The encoder's settings: the output's size, rate and quality, on a fixed number of encoder threads
    /// (the same bytes on any machine).
    private var videoSettings: VideoEncoder.Settings {
        let o = options
        var settings = VideoEncoder.Settings(width: o.width, height: o.height, fps: o.fps, crf: o.crf,
                                             preset: o.encoderPreset, threads: max(1, o.threads), globalHeader: false)
        settings.encoderThreads = o.encoderThreads
        settings.codec = plan.codec
        settings.alpha = plan.transparent
        return settings
    }

    /// The label a segment carries: its frames, and what identifies the render it belongs to (the
    /// settings that change pixels, and the input's bytes).
    private func segmentLabel(segment: RenderSegment, format: OutputFormat, frames: Range<Int>, totalFrames: Int) throws(MarbleError) -> SegmentLabel {
        let o = options
        // The codec, and "alpha" for a transparent render (a piece with alpha joins only its like).
        let codec = plan.codec.rawValue + (plan.transparent ? " alpha" : "")
        var settings = "\(o.width)x\(o.height) \(o.fps)fps scene \(scene.name)#\(try Self.fingerprint(of: scene))"
        settings += " crf \(o.crf) \(o.encoderPreset.rawValue) \(codec) encoder-threads \(o.encoderThreads) bands \(o.bandCount.map(String.init) ?? "preset") fit \(o.fit.rawValue)"
        if o.backgroundIsCover {
            settings += " background cover"
        } else if let background = o.background {
            settings += " background \(try Fingerprint.of(file: background).prefix(16))"
        }
        // The input as the command named it, not made absolute: the same command on any machine (or in
        // any folder) writes the same bytes; `join` looks for it from where it runs.
        return SegmentLabel(frames: frames, totalFrames: totalFrames, fps: o.fps, segment: segment.description,
                            render: settings, input: userInput, inputID: try Fingerprint.of(file: o.input))
    }

    /// 8 hex digits naming the scene's layers, parameters and bindings (an edited preset changes it).
    private static func fingerprint(of scene: Preset) throws(MarbleError) -> String {
        let text = scene.layers.map { layer in
            let parameters = layer.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            let bindings = layer.bindings.sorted { $0.key < $1.key }.map { "\($0.key)~\($0.value)" }
            return "\(layer.shader) \(layer.blend) \(layer.opacity) \(parameters) \(bindings)"
        }.joined(separator: "\n") + (scene.analysis.isEmpty ? "" : "\nanalysis \(scene.analysis)")
        return String(try Fingerprint.of(text: text).prefix(8))
    }
}
