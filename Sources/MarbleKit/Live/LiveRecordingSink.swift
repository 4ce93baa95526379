import MarbleCore
import MarbleMedia
import MarblePipeline

/// A live recording: the frames, H.264 (or VP9 for WebM) at a constant rate, with the captured sound
/// (AAC, or Opus for WebM) muxed in step, into a file that appears only when it is finished. MP4 and
/// MOV are written in fragments, so memory stays flat however long the set runs.
///
/// Frame n covers capture samples [n, n + 1) / fps of the live timeline and is drawn only once they
/// have arrived, so after each frame the sound up to the end of the frames written is already in the
/// capture buffer: it is handed to the writer right away, and picture and sound stay in step however
/// late frames are (a dropped frame's slot holds the picture before it, see ``EncodingSink``).
final class LiveRecordingSink: FrameSink {
    let path: String
    private let video: EncodingSink
    private let buffer: CaptureBuffer
    private let startSample: Int
    private let fps: Rational
    /// Samples (per channel, from `startSample`) handed to the writer.
    private var soundWritten = 0

    init(path: String, options: LiveOptions, width: Int, height: Int, buffer: CaptureBuffer,
         startSample: Int) throws(MarbleError) {
        self.path = path
        self.buffer = buffer
        self.startSample = startSample
        fps = options.fps
        let format = OutputFormat(path: path)!
        let settings = VideoEncoder.Settings(width: width, height: height, fps: options.fps, crf: options.crf,
                                             preset: options.encoderPreset, threads: max(1, options.threads),
                                             globalHeader: false)
        let writer = try MediaWriter(path: path, format: format, settings: settings,
                                         sound: .samples(sampleRate: buffer.sampleRate, channels: 2, bitrate: options.audioBitrate),
                                         fragmented: true)
        video = EncodingSink(writer: writer, holdsPictures: true) { stopped in
            stopped ? MarbleError(.cancelled, "stopped before the first frame; no recording written")
                    : MarbleError(.device, "no frame was captured; no recording written")
        }
        video.afterEachFrame = { [unowned self] frames throws(MarbleError) in try self.appendSound(upToFrames: frames) }
    }

    var needs: FrameNeeds { .yuv }

    func consume(_ slot: FrameSlot) throws(MarbleError) {
        try video.consume(slot)   // each frame written, held copies included, is followed by its sound
    }

    /// Hands the writer the captured sound up to the end of the first `frames` frames.
    private func appendSound(upToFrames frames: Int) throws(MarbleError) {
        // The sample at the end of the frames written: ceil(frames · rate / fps), in integers.
        let scaled: Int = frames * buffer.sampleRate * fps.denominator
        let end: Int = (scaled + fps.numerator - 1) / fps.numerator
        guard end > soundWritten else { return }
        var from = startSample + soundWritten
        // Samples the ring no longer holds (a stall of seconds) become silence, so the sound after
        // them stays in step with the picture.
        let oldest = buffer.written - buffer.capacity
        if from < oldest {
            try appendSilence(min(oldest, startSample + end) - from)
            from = oldest
        }
        var failure: MarbleError?
        buffer.read(from: from, upTo: startSample + end) { left, right in
            guard failure == nil else { return }
            do throws(MarbleError) { try video.writer.appendSound(left: left, right: right) } catch { failure = error }
        }
        if let failure { throw failure }
        soundWritten = end
    }

    private func appendSilence(_ count: Int) throws(MarbleError) {
        let zeros = [Float](repeating: 0, count: min(count, 4096))
        var left = count
        while left > 0 {
            let n = min(left, zeros.count)
            try zeros.withUnsafeBufferPointer { z throws(MarbleError) in
                let run = UnsafeBufferPointer(rebasing: z[0..<n])
                try video.writer.appendSound(left: run, right: run)
            }
            left -= n
        }
    }

    func finish(stopped: Bool) throws(MarbleError) { try video.finish(stopped: stopped) }
    func abort() { video.abort() }
}
