import CFFmpeg

/// The file sink: converts rendered canvases to YUV, encodes them, and muxes them with the sound into
/// MP4, MKV, MOV or WebM (mpv's vo_lavc idea: encoding is just another output).
///
/// Frames must arrive in order, one per output frame. The file appears at its path only when
/// ``finish()`` succeeds; ``abort()`` leaves nothing behind.
final class VideoFileWriter {
    let path: String
    private let muxer: Muxer
    private let encoder: VideoEncoder
    private let videoStream: Int32
    private let audio: AudioTrack?
    private let fps: Rational
    private let frame: Frame
    private let scheduler: StripScheduler
    private(set) var framesWritten = 0
    /// Milliseconds of the last frame's colour conversion and encoding (for benchmarks and summaries).
    private(set) var lastConvertMs = 0.0
    private(set) var lastEncodeMs = 0.0
    var warnings: [String] { audio?.warnings ?? [] }
    var audioIsCopied: Bool { audio?.isCopy ?? false }

    init(path: String, format: OutputFormat, settings: VideoEncoder.Settings, audioFrom source: String?,
         scheduler: StripScheduler) throws(MarbleError) {
        self.path = path
        self.fps = settings.fps
        self.scheduler = scheduler
        let muxer = try Muxer(destination: path, format: format)
        self.muxer = muxer
        do throws(MarbleError) {
            var s = settings
            s.globalHeader = muxer.needsGlobalHeader
            encoder = try VideoEncoder(format: format, settings: s)
            videoStream = try muxer.addStream(encoder: encoder.context)
            if let source { audio = try AudioTrack(path: source, format: format, muxer: muxer) } else { audio = nil }
            try muxer.writeHeader()
            frame = try Frame()
            let f = frame.pointer
            f.pointee.format = AV_PIX_FMT_YUV420P.rawValue
            f.pointee.width = Int32(settings.width)
            f.pointee.height = Int32(settings.height)
            f.pointee.color_range = AVCOL_RANGE_MPEG
            f.pointee.colorspace = AVCOL_SPC_BT709
            f.pointee.color_primaries = AVCOL_PRI_BT709
            f.pointee.color_trc = AVCOL_TRC_BT709
            try ffCheck(av_frame_get_buffer(f, 64), .media, "out of memory allocating a video frame")
        } catch {
            muxer.abort()
            throw error
        }
    }

    /// Encodes the next frame.
    func write(_ canvas: Texture) throws(MarbleError) {
        let start = MonotonicClock.now()
        let f = frame.pointer
        // The encoder may still hold a reference to the last picture; this copies only in that case.
        try ffCheck(av_frame_make_writable(f), .media, "out of memory")
        let planes = YUVConverter.Planes(
            y: marble_frame_data(f, 0), yStride: Int(marble_frame_linesize(f, 0)),
            u: marble_frame_data(f, 1), uStride: Int(marble_frame_linesize(f, 1)),
            v: marble_frame_data(f, 2), vStride: Int(marble_frame_linesize(f, 2)))
        let view = canvas.view
        scheduler.run(count: canvas.height / 2) { pairs in
            YUVConverter.convert(view, into: planes, pairs: pairs)
        }
        f.pointee.pts = Int64(framesWritten)
        let converted = MonotonicClock.now()
        lastConvertMs = Double(converted - start) / 1e6
        try encoder.encode(f) { (packet: UnsafeMutablePointer<AVPacket>) throws(MarbleError) in
            try muxer.write(packet, stream: videoStream, timeBase: encoder.timeBase)
        }
        framesWritten += 1
        try audio?.write(upTo: fps.seconds(ofFrame: framesWritten))
        lastEncodeMs = MonotonicClock.milliseconds(since: converted)
    }

    /// Flushes the encoder, writes the remaining sound (up to the end of the video when `trimAudio`,
    /// as after Ctrl-C), and moves the file into place.
    func finish(trimAudio: Bool) throws(MarbleError) {
        do throws(MarbleError) {
            try encoder.encode(nil) { (packet: UnsafeMutablePointer<AVPacket>) throws(MarbleError) in
                try muxer.write(packet, stream: videoStream, timeBase: encoder.timeBase)
            }
            try audio?.write(upTo: trimAudio ? fps.seconds(ofFrame: framesWritten) : nil)
            try muxer.finish()
        } catch {
            muxer.abort()
            throw error
        }
    }

    func abort() { muxer.abort() }
}
