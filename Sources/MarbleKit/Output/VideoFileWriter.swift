import CFFmpeg

/// The file sink: encodes YUV pictures and muxes them with the sound into
/// MP4, MKV, MOV or WebM (mpv's vo_lavc idea: encoding is just another output).
///
/// Frames must arrive in order, one per output frame. The file appears at its path only when
/// ``finish()`` succeeds; ``abort()`` leaves nothing behind.
final class VideoFileWriter {
    let path: String
    private let muxer: Muxer
    private let encoder: VideoEncoder
    private let videoStream: Int32
    private let audio: SoundThread?
    private let fps: Rational
    private(set) var framesWritten = 0
    /// Milliseconds the last frame spent in the encoder and muxer (for benchmarks and summaries).
    private(set) var lastEncodeMs = 0.0
    /// The sound's warnings (read them after ``finish(trimAudio:)``: the sound thread has ended then).
    var warnings: [String] { audio?.warnings ?? [] }

    /// `audioBitrate` (kbit/s): see ``RenderOptions/audioBitrate``.
    init(path: String, format: OutputFormat, settings: VideoEncoder.Settings, audioFrom source: String?,
         audioBitrate: Int? = nil) throws(MarbleError) {
        self.path = path
        self.fps = settings.fps
        let muxer = try Muxer(destination: path, format: format)
        self.muxer = muxer
        do throws(MarbleError) {
            var s = settings
            s.globalHeader = muxer.needsGlobalHeader
            encoder = try VideoEncoder(format: format, settings: s)
            videoStream = try muxer.addStream(encoder: encoder.context)
            let track = try source.map { (path: String) throws(MarbleError) -> AudioTrack in
                try AudioTrack(path: path, format: format, muxer: muxer, bitrate: audioBitrate)
            }
            try muxer.writeHeader()
            audio = track.map { SoundThread(track: $0) }
        } catch {
            muxer.abort()
            throw error
        }
    }

    /// Encodes the next frame (already converted to YUV by the render stage).
    func write(_ picture: YUVFrame) throws(MarbleError) {
        let start = MonotonicClock.now()
        let f = picture.frame.pointer
        f.pointee.pts = Int64(framesWritten)
        try encoder.encode(f) { (packet: UnsafeMutablePointer<AVPacket>) throws(MarbleError) in
            try muxer.write(packet, stream: videoStream, timeBase: encoder.timeBase)
        }
        framesWritten += 1
        audio?.advance(to: fps.seconds(ofFrame: framesWritten))
        lastEncodeMs = MonotonicClock.milliseconds(since: start)
    }

    /// Flushes the encoder, writes the remaining sound (up to the end of the video when `trimAudio`,
    /// as after Ctrl-C), and moves the file into place.
    func finish(trimAudio: Bool) throws(MarbleError) {
        do throws(MarbleError) {
            try encoder.encode(nil) { (packet: UnsafeMutablePointer<AVPacket>) throws(MarbleError) in
                try muxer.write(packet, stream: videoStream, timeBase: encoder.timeBase)
            }
            try audio?.finish(upTo: trimAudio ? fps.seconds(ofFrame: framesWritten) : nil)
            try muxer.finish()
        } catch {
            audio?.cancel()
            muxer.abort()
            throw error
        }
    }

    func abort() {
        audio?.cancel()
        muxer.abort()
    }
}
