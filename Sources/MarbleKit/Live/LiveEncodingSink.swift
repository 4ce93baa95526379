import MarbleCore
import MarbleMedia
import MarblePipeline

/// One live encoding: the frames, H.264 (or VP9 for WebM) at a constant rate, with the captured sound
/// (AAC, or Opus for WebM) muxed in step, into every output that shares it: recordings, each of which
/// appears only when it is finished (MP4 and MOV in fragments, so memory stays flat however long the
/// set runs), and streams, which send as they go (see ``MediaWriter``).
///
/// Frame n covers capture samples [n, n + 1) / fps of the live timeline and is drawn only once they
/// have arrived, so after each frame the sound up to the end of the frames written is already in the
/// capture buffer: it is handed to the writer right away, and picture and sound stay in step however
/// late frames are (a dropped frame's slot holds the picture before it, see ``EncodingSink``).
final class LiveEncodingSink: FrameSink {
    /// The files among the outputs (for the summary's sizes).
    let files: [String]
    /// The streams among the outputs.
    var streams: [StreamStatus] { video.writer.streams }
    /// The outputs of this encoding dropped after a failed write while the others went on (a
    /// recording on a full disk beside one on a good disk): one error each, their files removed.
    var lostOutputs: [MarbleError] { video.writer.lostOutputs }
    private let video: EncodingSink
    private let buffer: CaptureBuffer
    /// The sample of the buffer that is the recording's time 0 (the source's, see ``start(at:)``).
    private var startSample: Int
    private let fps: Rational
    /// Samples (per channel, from `startSample`) handed to the writer.
    private var soundWritten = 0

    /// - Parameters:
    ///   - targets: the outputs of this encoding: files of one codec family (``OutputFormat/webm``: VP9,
    ///     or H.264) and streams (H.264).
    ///   - settings: the encoder's (a stream's bitrate and keyframe interval, or a file's CRF).
    init(targets: [MediaWriter.Target], format: OutputFormat, settings: VideoEncoder.Settings, audioBitrate: Int?,
         buffer: CaptureBuffer, startSample: Int) throws(MarbleError) {
        files = targets.compactMap { if case .file(let path) = $0 { path } else { nil } }
        self.buffer = buffer
        self.startSample = startSample
        fps = settings.fps
        let writer = try MediaWriter(targets: targets, format: format, settings: settings,
                                     sound: .samples(sampleRate: buffer.sampleRate, channels: 2, bitrate: audioBitrate),
                                     fragmented: true)
        video = EncodingSink(writer: writer, holdsPictures: true) { stopped in
            stopped ? MarbleError(.cancelled, "stopped before the first frame; nothing recorded")
                    : MarbleError(.device, "no frame was made; nothing recorded")
        }
        video.afterEachFrame = { [unowned self] frames throws(MarbleError) in try self.appendSound(upToFrames: frames) }
    }

    var label: String { video.writer.path }

    var needs: FrameNeeds { .yuv }

    /// Moves time 0 to `sample` (the source's timeline, started again just before the run). Before the
    /// first frame only.
    func start(at sample: Int) {
        if soundWritten == 0 { startSample = sample }
    }

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
