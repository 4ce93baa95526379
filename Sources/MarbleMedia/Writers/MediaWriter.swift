internal import CFFmpeg
import MarbleCore

/// Encodes YUV pictures and sound once and muxes them into one or more outputs: files (MP4, MKV, MOV or
/// WebM) and network streams (MPEG-TS over UDP or SRT, FLV over RTMP); mpv's vo_lavc idea: encoding is
/// just another output. Several outputs share the one encoding through a ``PacketFanOut``.
///
/// Frames must arrive in order, one per output frame; frame n is at n / fps seconds. The sound (``Sound``)
/// comes from a file, copied or transcoded on a ``SoundThread`` that follows the video, or from samples
/// handed over with ``appendSound(left:right:)`` (a live recording), encoded inline, sample 0 at time 0.
/// A file appears at its path only when ``finish(trimAudio:)`` succeeds; ``abort()`` leaves nothing behind.
/// A stream (``StreamMuxer``) never blocks the writer: it queues packets for its own thread, drops them
/// while its connection stalls, and reconnects by itself.
///
/// Errors: a folder that cannot be written, an encoder this FFmpeg build lacks or that refuses the
/// settings, a file without sound, or failed writes throw ``MarbleError`` (and leave no file).
package final class MediaWriter {
    /// One output of the encoding.
    package enum Target: Sendable, Equatable {
        /// A file, its container chosen by its extension.
        case file(String)
        /// A network stream.
        case stream(StreamURL)

        package var name: String {
            switch self {
            case .file(let path): path
            case .stream(let url): url.text
            }
        }
    }

    /// Where the output's sound comes from.
    package enum Sound: Sendable, Equatable {
        /// A silent file.
        case none
        /// The sound of the file at `path`: copied when the container holds its codec and `bitrate`
        /// (kbit/s) is nil, else AAC (Opus for WebM) at `bitrate`, or 160 kbit/s (96 for mono).
        case file(path: String, bitrate: Int?)
        /// Planar float samples handed over with ``appendSound(left:right:)``: `channels` (1 or 2) at
        /// `sampleRate`, encoded to AAC (Opus for WebM) at `bitrate` kbit/s (nil: 160, 96 for mono).
        case samples(sampleRate: Int, channels: Int, bitrate: Int?)
    }

    /// How far (seconds) appended samples may run ahead of or fall behind the video before the writer
    /// acts, so neither the PCM buffer nor the muxer's queue grows without bound: sound further ahead is
    /// encoded early (the muxer queues its packets), and sound further behind is caught up with silence
    /// up to the video's time (with a warning). That is a safety net, not a clock: the samples that come
    /// after it continue from there, so a capture that loses samples should fill its own gaps.
    static let soundDriftLimit = 2.0

    /// The outputs' names (paths, URLs), comma-separated.
    package let path: String
    private let muxer: any PacketDestination
    /// The network streams among the outputs (for their status: drops, reconnects).
    package let streams: [StreamStatus]
    private let encoder: VideoEncoder
    /// For an encoding with alpha (``VideoEncoder/Settings/alpha``): the straight-alpha picture each
    /// canvas is converted into (see ``write(straightFrom:)``).
    private let alphaFrame: AlphaFrame?
    private let videoStream: Int32
    private let sound: SoundOutput
    private let fps: Rational
    /// The index (and timestamp, in frames) of the first frame written: 0, or where a segment of a
    /// longer render starts, so its timestamps continue the whole render's.
    private let firstFrame: Int
    package private(set) var framesWritten = 0
    /// Milliseconds the last frame spent in the encoder and muxer (for benchmarks and summaries).
    package private(set) var lastEncodeMs = 0.0
    /// Silence added because appended sound fell behind: how often, how much, and first when.
    private var fills = (count: 0, seconds: 0.0, first: 0.0)
    /// The sound's warnings (read them after ``finish(trimAudio:)``: the sound thread has ended then).
    package var warnings: [String] {
        switch sound {
        case .none: return []
        case .thread(let thread): return thread.warnings
        case .inline:
            guard fills.count > 0 else { return [] }
            let total = String(format: "%.2f", fills.seconds), first = String(format: "%.2f", fills.first)
            return ["\(path): the sound fell more than \(Int(MediaWriter.soundDriftLimit)) s behind the video "
                    + "\(fills.count) time(s), first at \(first) s; \(total) s filled with silence"]
        }
    }

    /// The outputs dropped during the run after a failed write (a full disk), one error each, while the
    /// others went on (see ``PacketFanOut``); their files were removed.
    package var lostOutputs: [MarbleError] { (muxer as? PacketFanOut)?.lost ?? [] }

    /// Bytes the muxer has handed to the file so far (`avio_tell`; AVIO may still hold some of them),
    /// for a live recording's status line. Nil while a ``SoundThread`` writes into the muxer too, and
    /// once the file is finished or abandoned.
    var muxedBytes: Int64? {
        if case .thread = sound { return nil }
        return muxer.bytesWritten
    }

    private enum SoundOutput {
        case none
        case thread(SoundThread)
        case inline(AudioTrack)
    }

    /// `fragmented`: a recording of any length, readable while it is written (see ``Muxer/fragmented``).
    package convenience init(path: String, format: OutputFormat, settings: VideoEncoder.Settings, sound: Sound,
         fragmented: Bool = false) throws(MarbleError) {
        try self.init(targets: [.file(path)], format: format, settings: settings, sound: sound, fragmented: fragmented)
    }

    /// One piece of a longer render, video only (the sound is muxed once, when the pieces are joined):
    /// the first frame written is frame `firstFrame` of the whole render and carries its timestamp, and
    /// `tags` go into the container (MP4/MOV as `mdta` keys) for ``SegmentJoiner`` to check.
    package convenience init(segment path: String, format: OutputFormat, settings: VideoEncoder.Settings,
                             firstFrame: Int, tags: [(key: String, value: String)]) throws(MarbleError) {
        try self.init(targets: [.file(path)], format: format, settings: settings, sound: .none,
                      firstFrame: firstFrame, tags: tags)
    }

    /// One encoding into every target. `format` names the codecs (WebM: VP9 + Opus; the others: H.264
    /// + AAC), so every file target must hold them (``OutputFormat/sharesEncoding(with:)``); streams
    /// carry H.264 + AAC.
    package init(targets: [Target], format: OutputFormat, settings: VideoEncoder.Settings, sound: Sound,
         fragmented: Bool = false, firstFrame: Int = 0, tags: [(key: String, value: String)] = []) throws(MarbleError) {
        FFmpegLog.configure()
        precondition(!targets.isEmpty, "a writer needs an output")
        precondition(firstFrame == 0 || sound == .none, "the sound starts at time 0: a segment has none")
        self.path = targets.map(\.name).joined(separator: ", ")
        self.fps = settings.fps
        self.firstFrame = firstFrame
        var destinations: [any PacketDestination] = []
        var streams: [StreamMuxer] = []
        do throws(MarbleError) {
            for target in targets {
                switch target {
                case .file(let path):
                    let container = OutputFormat(path: path) ?? format
                    destinations.append(try Muxer(destination: path, format: container, fragmented: fragmented,
                                                  metadata: tags))
                case .stream(let url):
                    let stream = try StreamMuxer(url: url, fps: settings.fps)
                    streams.append(stream)
                    destinations.append(stream)
                }
            }
            self.muxer = destinations.count == 1 ? destinations[0] : try PacketFanOut(destinations)
        } catch {
            for d in destinations { d.abort() }
            throw error
        }
        let muxer = self.muxer
        self.streams = streams.map(\.status)
        do throws(MarbleError) {
            var s = settings
            s.globalHeader = muxer.needsGlobalHeader
            encoder = try VideoEncoder(format: format, settings: s)
            alphaFrame = s.alpha || s.codec?.alwaysHasAlpha == true
                ? try AlphaFrame(width: s.width, height: s.height, format: encoder.context.pointee.pix_fmt) : nil
            videoStream = try muxer.addStream(encoder: encoder.context)
            let track: AudioTrack? = switch sound {
            case .none: nil
            case .file(let source, let bitrate):
                try AudioTrack(path: source, format: format, muxer: muxer, bitrate: bitrate)
            case .samples(let rate, let channels, let bitrate):
                try AudioTrack(sampleRate: rate, channels: channels, format: format, muxer: muxer, bitrate: bitrate)
            }
            try muxer.writeHeader()
            self.sound = switch (sound, track) {
            case (.samples, let track?): .inline(track)
            case (_, let track?): .thread(SoundThread(track: track))
            default: .none
            }
        } catch {
            muxer.abort()
            throw error
        }
    }

    /// The sound of `source` (nil: none); `audioBitrate` (kbit/s): see ``RenderOptions/audioBitrate``.
    package convenience init(path: String, format: OutputFormat, settings: VideoEncoder.Settings, audioFrom source: String?,
                     audioBitrate: Int? = nil) throws(MarbleError) {
        try self.init(path: path, format: format, settings: settings,
                      sound: source.map { .file(path: $0, bitrate: audioBitrate) } ?? .none)
    }

    /// Encodes the next frame (already converted to YUV by the render stage), then writes the sound up
    /// to the end of that frame.
    package func write(_ picture: YUVFrame) throws(MarbleError) {
        try encode(picture.frame.pointer, since: MonotonicClock.now())
    }

    /// Whether frames go in as premultiplied canvases (``write(straightFrom:)``) rather than YUV: an
    /// encoding with alpha.
    package var takesCanvas: Bool { alphaFrame != nil }

    /// For an encoding with alpha: converts the next frame's premultiplied `canvas` to straight alpha in
    /// the encoder's format, encodes it, then writes the sound up to the end of that frame.
    package func write(straightFrom canvas: Texture) throws(MarbleError) {
        guard let alphaFrame else { throw MarbleError(.output, "\(path): this encoding has no alpha") }
        let start = MonotonicClock.now()
        try alphaFrame.fill(from: canvas.view)
        try encode(alphaFrame.frame, since: start)
    }

    private func encode(_ f: UnsafeMutablePointer<AVFrame>, since start: UInt64) throws(MarbleError) {
        f.pointee.pts = Int64(firstFrame + framesWritten)
        // A stream that reconnected (or skipped to the next keyframe) gets one now, not a GOP later.
        f.pointee.pict_type = muxer.wantsKeyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        defer { f.pointee.pict_type = AV_PICTURE_TYPE_NONE }
        let span = FrameTrace.begin()
        try encoder.encode(f) { (packet: UnsafeMutablePointer<AVPacket>) throws(MarbleError) in
            try muxer.write(packet, stream: videoStream, timeBase: encoder.timeBase)
        }
        FrameTrace.end(.encode, span, frame: firstFrame + framesWritten)
        framesWritten += 1
        let videoEnd = fps.seconds(ofFrame: framesWritten)
        switch sound {
        case .none: break
        case .thread(let thread):
            let wait = FrameTrace.begin()
            thread.advance(to: videoEnd)
            FrameTrace.end(.soundWait, wait, frame: firstFrame + framesWritten - 1)
        case .inline(let track): try follow(videoEnd, with: track)
        }
        lastEncodeMs = MonotonicClock.milliseconds(since: start)
    }

    /// For ``Sound/samples(sampleRate:channels:bitrate:)``: the next block of sound (`right` nil for mono),
    /// continuing the blocks before it. Call it from the thread that calls ``write(_:)``.
    package func appendSound(left: UnsafeBufferPointer<Float>, right: UnsafeBufferPointer<Float>?) throws(MarbleError) {
        guard case .inline(let track) = sound else {
            throw MarbleError(.output, "\(path): this writer takes no sound samples")
        }
        try track.append(left: left, right: right)
    }

    /// Writes appended sound up to the video's end (`videoEnd`), filling a gap of more than
    /// ``soundDriftLimit`` with silence and encoding early what runs further ahead than that.
    private func follow(_ videoEnd: Double, with track: AudioTrack) throws(MarbleError) {
        let appended = track.appendedSeconds ?? 0
        if videoEnd - appended > MediaWriter.soundDriftLimit {
            if fills.count == 0 { fills.first = videoEnd }
            fills.count += 1
            fills.seconds += videoEnd - appended
            try track.appendSilence(upTo: videoEnd)
        }
        try track.write(upTo: max(videoEnd, appended - MediaWriter.soundDriftLimit))
    }

    /// Flushes the encoder, writes the remaining sound, and moves the file into place. A file's sound is
    /// written to its end, or only up to the end of the video when `trimAudio` (as after Ctrl-C);
    /// appended samples always end with the video: cut there, or padded with silence up to there.
    package func finish(trimAudio: Bool) throws(MarbleError) {
        let span = FrameTrace.begin()
        defer { FrameTrace.end(.finish, span) }
        do throws(MarbleError) {
            try encoder.encode(nil) { (packet: UnsafeMutablePointer<AVPacket>) throws(MarbleError) in
                try muxer.write(packet, stream: videoStream, timeBase: encoder.timeBase)
            }
            let videoEnd = fps.seconds(ofFrame: framesWritten)
            switch sound {
            case .none: break
            case .thread(let thread): try thread.finish(upTo: trimAudio ? videoEnd : nil)
            case .inline(let track): try track.finish(at: videoEnd)
            }
            try muxer.finish()
        } catch {
            abort()
            throw error
        }
    }

    /// Drops the file: nothing is left behind (not even the temporary file).
    package func abort() {
        if case .thread(let thread) = sound { thread.cancel() }
        muxer.abort()
    }
}
