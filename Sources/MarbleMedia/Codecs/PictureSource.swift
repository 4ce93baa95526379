internal import CFFmpeg
import MarbleCore

/// Pictures for the output frames, from a video stream or a still image, scaled to the output size.
///
/// A video is sampled at each output frame's time (the newest decoded frame whose timestamp is not
/// after it), so any input frame rate maps onto the output rate. A background video shorter than the
/// song loops (`loop`); the input's own video holds its last frame instead. A file with one picture
/// (PNG, JPEG, cover art) is decoded and scaled once. Times are seconds from `origin` in the file's
/// time: the input's own video passes its file's timeline origin (``AudioDecoder/timelineOrigin``) so
/// that it stays with its sound (see MediaTimeline.swift); a background starts at its own first frame.
package final class PictureSource {
    let path: String
    private let input: MediaInput
    private let streamIndex: Int32
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private let loop: Bool
    private let width: Int, height: Int, fit: Fit
    private var scaler: PictureScaler?
    private let packet: Packet
    private var current: Frame
    private var upcoming: Frame
    private var currentTime = -Double.infinity
    private var upcomingTime: Double?
    private var loopOffset = 0.0
    /// A looping video's period (the first pass's last picture time plus one frame), known once it has
    /// looped once.
    private var period: Double?
    private var lastFrameTime = 0.0
    private var frameDuration = 0.0
    private var inputEnded = false
    private let startTime: Double
    /// Set when the source holds one picture: it is scaled once into this texture.
    package private(set) var still: Texture?
    private var detectingStill = true
    package private(set) var warnings: [String] = []

    /// Opens the best video stream of `path` (cover art does not count: see `MediaInput.bestStream`).
    /// `origin`: the file time shown at time 0 (nil: the video stream's first timestamp).
    package init(path: String, width: Int, height: Int, fit: Fit, loop: Bool, origin: Double? = nil) throws(MarbleError) {
        self.path = path
        self.width = width
        self.height = height
        self.fit = fit
        self.loop = loop
        input = try MediaInput(path: path)
        guard let index = input.bestStream(AVMEDIA_TYPE_VIDEO) else {
            throw MarbleError(.input, "\(path): has no picture or video stream")
        }
        streamIndex = index
        let stream = input.stream(index)
        let start = stream.pointee.start_time
        startTime = origin ?? (start == marble_av_nopts_value() ? 0 : Double(start) * stream.pointee.time_base.doubleValue)
        let parameters = stream.pointee.codecpar!
        if parameters.pointee.width > 0 && parameters.pointee.height > 0 {
            try FileBounds.checkPicture(width: Int(parameters.pointee.width), height: Int(parameters.pointee.height), path)
        }
        guard let decoder = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw MarbleError(.input, "\(path): no decoder for its video codec")
        }
        var ctx = avcodec_alloc_context3(decoder)
        guard ctx != nil else { throw MarbleError(.media, "out of memory allocating a video decoder") }
        do throws(MarbleError) {
            try ffCheck(avcodec_parameters_to_context(ctx, parameters), .input, "\(path): bad video parameters")
            ctx!.pointee.pkt_timebase = stream.pointee.time_base
            ctx!.pointee.thread_count = 0
            ctx!.pointee.max_pixels = Int64(FileBounds.picturePixels)  // a header that lies is refused by the decoder too
            try ffCheck(avcodec_open2(ctx, decoder, nil), .input, "\(path): cannot open its video decoder")
        } catch {
            avcodec_free_context(&ctx)
            throw error
        }
        codec = ctx
        let rate = av_guess_frame_rate(input.context, stream, nil)
        frameDuration = rate.num > 0 ? Double(rate.den) / Double(rate.num) : 1.0 / 25
        packet = try Packet()
        current = try Frame()
        upcoming = try Frame()

        // Decode the first picture; if there is no second one, this is a still.
        guard try decode(into: current) else { throw MarbleError(.input, "\(path): no picture could be decoded") }
        if try !decodeUpcoming() {
            let texture = Texture(width: width, height: height)
            try scaler(for: current.pointer).scale(current.pointer, into: texture)
            still = texture
        }
        detectingStill = false
    }

    deinit { avcodec_free_context(&codec) }

    /// Puts the picture for media time `time` into `texture` (unless this is a still: use ``still``).
    /// Times must not decrease between calls.
    package func picture(at time: Double, into texture: Texture) throws(MarbleError) {
        try advance(to: time)
        try scaler(for: current.pointer).scale(current.pointer, into: texture)
    }

    /// Decodes forward until `current` is the newest picture not after `time` (nothing is scaled).
    private func advance(to time: Double) throws(MarbleError) {
        while let next = upcomingTime, next <= time + 1e-9 {
            swap(&current, &upcoming)
            currentTime = next
            if try decode(into: upcoming) {
                upcomingTime = frameTime(upcoming)
                lastFrameTime = upcomingTime!
            } else {
                upcomingTime = nil
            }
        }
    }

    /// Moves to media time `time` without scaling the pictures in between, for a render that starts
    /// later than 0 (a segment), so that the next ``picture(at:)`` shows what a render from the start
    /// shows there:
    /// - within the video's first pass, it seeks to a keyframe at least ``seekMargin`` before `time` and
    ///   decodes forward from there (falling back to decoding from the start if the seek lands after
    ///   `time`); a jump of less than the margin just decodes forward;
    /// - a looping video beyond its first pass plays that pass once (to learn its period, as playback
    ///   from the start does), then starts over at the pass before the one holding `time`, and decodes
    ///   on through the loop point as playback from the start would (at most two passes of decoding).
    package func skip(to time: Double) throws(MarbleError) {
        guard still == nil else { return }
        if loop, !(input.duration(ofStream: streamIndex).map { time < $0 } ?? false) {
            try skipLooping(to: time)
        } else {
            try seek(to: time)
        }
        try advance(to: time)
    }

    /// A looping video, `time` beyond its first pass: see ``skip(to:)``.
    private func skipLooping(to time: Double) throws(MarbleError) {
        while period == nil, let next = upcomingTime, next <= time + 1e-9 { try advance(to: next) }
        guard let period, period > 0 else { return }
        let pass = (time / period).rounded(.down) - 1
        guard pass * period > loopOffset else { return }
        loopOffset = pass * period
        try input.rewind(stream: streamIndex)
        avcodec_flush_buffers(codec)
        inputEnded = false
        guard try decode(into: current) else { throw MarbleError(.input, "\(path): no picture after looping") }
        if try !decodeUpcoming() { upcomingTime = nil }
    }

    /// Within the first pass: see ``skip(to:)``.
    private func seek(to time: Double) throws(MarbleError) {
        guard loopOffset == 0, let next = upcomingTime, time - next > PictureSource.seekMargin else { return }
        let stream = input.stream(streamIndex)
        let fileTime = time - PictureSource.seekMargin + startTime
        guard input.duration(ofStream: streamIndex).map({ time < $0 }) ?? false else { return }
        let target = Int64((fileTime / stream.pointee.time_base.doubleValue).rounded(.down))
        guard (try? input.seek(stream: streamIndex, to: target)) != nil else { return }
        avcodec_flush_buffers(codec)
        inputEnded = false
        guard try decode(into: current) else { throw MarbleError(.input, "\(path): no picture after seeking to \(time) s") }
        if frameTime(current) > time {
            // The seek went too far (a file without a usable index): start again from the beginning.
            try input.rewind(stream: streamIndex)
            avcodec_flush_buffers(codec)
            _ = try decode(into: current)
        }
        if try !decodeUpcoming() { upcomingTime = nil }
    }

    /// With `current` just decoded: takes its time, decodes the picture after it into `upcoming` and
    /// takes that one's; false when there is none.
    private func decodeUpcoming() throws(MarbleError) -> Bool {
        currentTime = frameTime(current)
        lastFrameTime = currentTime
        guard try decode(into: upcoming) else { return false }
        upcomingTime = frameTime(upcoming)
        lastFrameTime = upcomingTime!
        return true
    }

    /// How far before the wanted time ``skip(to:)`` seeks: frames decoded before a keyframe's own time
    /// (an open GOP's leading pictures) are then never the one shown.
    static let seekMargin = 1.0

    private func frameTime(_ frame: Frame) -> Double {
        let tb = input.stream(streamIndex).pointee.time_base.doubleValue
        let ts = frame.pointer.pointee.best_effort_timestamp
        let t = ts == marble_av_nopts_value() ? lastFrameTime + frameDuration : Double(ts) * tb - startTime
        return t + loopOffset
    }

    private func scaler(for frame: UnsafeMutablePointer<AVFrame>) throws(MarbleError) -> PictureScaler {
        if let scaler { return scaler }
        let s = try PictureScaler(sourceWidth: frame.pointee.width, sourceHeight: frame.pointee.height,
                                  format: AVPixelFormat(frame.pointee.format),
                                  outputWidth: width, outputHeight: height, fit: fit)
        scaler = s
        return s
    }

    /// Decodes the next picture into `frame`; at the end, loops (if asked) or returns false.
    private func decode(into frame: Frame) throws(MarbleError) -> Bool {
        var looped = false
        while true {
            av_frame_unref(frame.pointer)
            let r = avcodec_receive_frame(codec, frame.pointer)
            if r >= 0 { return true }
            if r == marble_averror_eof() {
                // While `init` looks for a second picture, the end is the answer (a still), not a loop.
                guard loop, !looped, !detectingStill else { return false }
                // Loop: start again from the beginning, later by the length played so far.
                looped = true
                loopOffset = lastFrameTime + frameDuration
                if period == nil { period = loopOffset }
                try input.rewind(stream: streamIndex)
                avcodec_flush_buffers(codec)
                inputEnded = false
                continue
            }
            if r != marble_averror_eagain() {
                warnings.append("\(path): damaged video frame skipped")
                continue
            }
            if inputEnded { avcodec_send_packet(codec, nil); continue }
            feed()
        }
    }

    private func feed() {
        while true {
            switch input.read(into: packet.pointer) {
            case .packet:
                defer { av_packet_unref(packet.pointer) }
                guard packet.pointer.pointee.stream_index == streamIndex else { continue }
                if avcodec_send_packet(codec, packet.pointer) < 0 {
                    warnings.append("\(path): damaged video packet skipped")
                    continue
                }
                return
            case .endOfFile, .damaged:
                inputEnded = true
                avcodec_send_packet(codec, nil)
                return
            }
        }
    }
}
