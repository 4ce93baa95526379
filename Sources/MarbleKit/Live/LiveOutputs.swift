import MarbleCore
import MarbleMedia
import MarblePipeline

/// The encodings a live session's outputs need: one for every H.264 output (streams, and MP4, MKV or
/// MOV recordings: a recording of a stream is what was streamed, encoded once), and one per WebM
/// recording (VP9).
///
/// With a stream among them, the shared encoding is a stream's: a steady bitrate (``LiveOptions/bitrate``)
/// with a one-second VBV buffer, a keyframe every ``LiveOptions/keyframeSeconds``, x264's zero-latency
/// tuning. Without one, recordings keep constant quality (``LiveOptions/crf``).
enum LiveOutputs {
    static func encodings(options: LiveOptions, width: Int, height: Int, buffer: CaptureBuffer,
                          startSample: Int) throws(MarbleError) -> [LiveEncodingSink] {
        let targets = try options.targets()
        var h264: [MediaWriter.Target] = []
        var vp9: [MediaWriter.Target] = []
        for target in targets {
            if case .file(let path) = target, OutputFormat(path: path) == .webm { vp9.append(target) } else { h264.append(target) }
        }
        let streaming = h264.contains { if case .stream = $0 { true } else { false } }
        var base = VideoEncoder.Settings(width: width, height: height, fps: options.fps, crf: options.crf,
                                         preset: options.encoderPreset, threads: max(1, options.threads),
                                         globalHeader: false)
        var sinks: [LiveEncodingSink] = []
        do throws(MarbleError) {
            if !h264.isEmpty {
                var settings = base
                if streaming {
                    settings.bitrate = options.streamBitrate(pixels: width * height)
                    settings.keyframeSeconds = options.keyframeSeconds
                    settings.zeroLatency = true
                }
                sinks.append(try LiveEncodingSink(targets: h264, format: .mp4, settings: settings,
                                                  audioBitrate: options.audioBitrate, buffer: buffer, startSample: startSample))
            }
            base.keyframeSeconds = nil
            for target in vp9 {
                sinks.append(try LiveEncodingSink(targets: [target], format: .webm, settings: base,
                                                  audioBitrate: options.audioBitrate, buffer: buffer, startSample: startSample))
            }
        } catch {
            for sink in sinks { sink.abort() }
            throw error
        }
        return sinks
    }
}
