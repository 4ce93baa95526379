internal import CFFmpeg
import MarbleCore

/// Decodes the best audio stream of a file to planar 32-bit float, mono or stereo (more channels are
/// downmixed by libswresample), at the file's own sample rate.
///
/// Wraps `avcodec_send_packet` / `avcodec_receive_frame` and `swr_convert`. Damaged data is skipped with
/// a warning (collected in ``warnings``) so a file that breaks off renders what is decodable. Encoder
/// padding at the end (AAC in MP4) is trimmed to the end the container states.
///
/// Samples are delivered on the output's timeline (see MediaTimeline.swift): sample 0 is at
/// ``timelineOrigin`` (the earliest start of the file's sound and video), a late start and gaps in the
/// timestamps come out as silence, overlaps are dropped. A file whose sound starts with its video and
/// has no gaps is decoded exactly as its frames come.
package final class AudioDecoder {
    package let input: MediaInput
    package let streamIndex: Int32
    package let sampleRate: Int
    /// 1 (mono) or 2 (stereo) output channels.
    package let channels: Int
    /// Seconds from the output's time 0 to the end of the sound, as the container states it, when it is
    /// exact (not estimated from bitrate).
    package private(set) var statedDuration: Double?
    /// The file time (seconds) that is the output's time 0: the earliest of the sound's first decoded
    /// sample and the video's first timestamp (0 when neither is known).
    package private(set) var timelineOrigin = 0.0
    /// Codec name, e.g. "aac", "mp3", "flac".
    let codecName: String
    package private(set) var warnings: [String] = []

    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var resampler: OpaquePointer?
    private let packet: Packet
    private let frame: Frame
    private var left: UnsafeMutablePointer<Float>
    private var right: UnsafeMutablePointer<Float>
    private var capacity: Int
    private var inputEnded = false
    private var finished = false
    private var delivered = 0
    private var sampleLimit: Int?
    /// Places each decoded frame on the timeline by its timestamp.
    private var placement: SamplePlacement
    /// Silence to deliver before ``held`` (a late start or a gap).
    private var silenceDue = 0
    /// Samples converted into `left`/`right` and not yet delivered, and how many of them to drop first.
    private var held: (count: Int, drop: Int)?
    /// `frame` holds a decoded frame not yet converted (the first one, decoded by `init` for its timestamp).
    private var primed = false
    private var silence: UnsafeMutablePointer<Float>
    private static let silenceBlock = 4096
    /// Index (from the output's time 0) of the first sample of the last delivered block.
    package private(set) var chunkStart = 0
    /// Samples replaced by silence because they were NaN or infinite.
    package private(set) var nonFiniteSamples = 0

    package init(path: String) throws(MarbleError) {
        input = try MediaInput(path: path)
        guard let index = input.bestStream(AVMEDIA_TYPE_AUDIO) else {
            throw MarbleError(.input, "\(path): has no audio stream")
        }
        streamIndex = index
        let stream = input.stream(index)
        let parameters = stream.pointee.codecpar!
        guard let decoder = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw MarbleError(.input, "\(path): no decoder for its audio codec \(String(cString: avcodec_get_name(parameters.pointee.codec_id)))")
        }
        codecName = String(cString: avcodec_get_name(parameters.pointee.codec_id))
        // Objects first: they free themselves if a later step throws; the codec context is freed by hand.
        packet = try Packet()
        frame = try Frame()
        var ctx = avcodec_alloc_context3(decoder)
        guard ctx != nil else { throw MarbleError(.media, "out of memory allocating an audio decoder") }
        do throws(MarbleError) {
            try ffCheck(avcodec_parameters_to_context(ctx, parameters), .input, "\(path): bad audio parameters")
            ctx!.pointee.pkt_timebase = stream.pointee.time_base
            try ffCheck(avcodec_open2(ctx, decoder, nil), .input, "\(path): cannot open the \(codecName) decoder")
        } catch {
            avcodec_free_context(&ctx)
            throw error
        }
        codec = ctx
        let rate = Int(ctx!.pointee.sample_rate)
        // The analysis reads 8–192 kHz (`FeatureExtractor`): a file outside it is a bad input (exit 1),
        // said here, where the file is named, rather than as an option error later.
        guard (8_000...192_000).contains(rate) else {
            avcodec_free_context(&ctx)
            throw MarbleError(.input, "\(path): its sound is at \(rate) Hz; marble reads 8–192 kHz (convert it, e.g. ffmpeg -i IN -ar 48000 OUT)")
        }
        sampleRate = rate
        channels = ctx!.pointee.ch_layout.nb_channels == 1 ? 1 : 2

        placement = SamplePlacement(sampleRate: rate)
        capacity = 8192
        left = .allocate(capacity: capacity)
        right = .allocate(capacity: capacity)
        silence = .allocate(capacity: AudioDecoder.silenceBlock)
        silence.initialize(repeating: 0, count: AudioDecoder.silenceBlock)

        // The first frame is decoded now: its timestamp is where the sound starts.
        var firstSample: Double?
        if receive() {
            primed = true
            let pts = frame.pointer.pointee.best_effort_timestamp
            if pts != marble_av_nopts_value() { firstSample = Double(pts) * stream.pointee.time_base.doubleValue }
        } else {
            finished = true  // no sound at all: nothing to deliver
        }
        timelineOrigin = [firstSample, input.videoStartSeconds].compactMap { $0 }.min() ?? 0
        let exact = input.context.pointee.duration_estimation_method != AVFMT_DURATION_FROM_BITRATE
        statedDuration = exact ? input.statedEndSeconds(ofStream: index).map { $0 - timelineOrigin } : nil
        sampleLimit = statedDuration.map { Int(($0 * Double(rate)).rounded()) }
    }

    deinit {
        avcodec_free_context(&codec)
        swr_free(&resampler)
        left.deallocate()
        right.deallocate()
        silence.deallocate()
    }

    /// Decodes the next block of audio and hands it to `body` as (left, right-or-nil for mono).
    /// Returns false once the stream has ended and everything was delivered.
    package func decodeNext(_ body: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>?) -> Void) throws(MarbleError) -> Bool {
        while true {
            if silenceDue > 0 {
                deliverSilence(body)
                return true
            }
            if let block = held {
                held = nil
                deliver(block.count, skipping: block.drop, body)
                return true
            }
            if finished { return false }
            if primed || receive() {
                primed = false
                let start = timelinePosition(frame.pointer)
                let count = try convert(frame.pointer)
                av_frame_unref(frame.pointer)
                let (gap, drop) = placement.place(start: start, count: count, position: delivered)
                if count > drop {
                    silenceDue = gap
                    held = (count, drop)
                }
            } else {
                finished = true
                let count = try convert(nil)  // drain the resampler
                if count > 0 { held = (count, 0) }
            }
        }
    }

    /// Receives the next decoded frame into `frame`, feeding packets as the decoder asks; false at the end.
    private func receive() -> Bool {
        while true {
            let received = avcodec_receive_frame(codec, frame.pointer)
            if received >= 0 { return true }
            if received == marble_averror_eof() { return false }
            if received != marble_averror_eagain() {
                warnings.append("audio decoding error (\(ffErrorString(received))), skipped")
                continue
            }
            feedDecoder()
        }
    }

    /// Reads packets until one for our stream is sent to the decoder, or the input ends.
    private func feedDecoder() {
        guard !inputEnded else { return }
        while true {
            switch input.read(into: packet.pointer) {
            case .packet:
                defer { av_packet_unref(packet.pointer) }
                guard packet.pointer.pointee.stream_index == streamIndex else { continue }
                let sent = avcodec_send_packet(codec, packet.pointer)
                if sent < 0 && sent != marble_averror_eagain() {
                    warnings.append("damaged audio packet (\(ffErrorString(sent))), skipped")
                    continue
                }
                return
            case .endOfFile:
                inputEnded = true
                avcodec_send_packet(codec, nil)
                return
            case .damaged(let why):
                warnings.append("the file breaks off (\(why)); rendering what decoded")
                inputEnded = true
                avcodec_send_packet(codec, nil)
                return
            }
        }
    }

    /// Resamples one decoded frame (or drains with nil) into `left`/`right`; returns the sample count.
    private func convert(_ decoded: UnsafeMutablePointer<AVFrame>?) throws(MarbleError) -> Int {
        if let decoded, resampler == nil { try makeResampler(for: decoded) }
        guard let resampler else { return 0 }
        let inCount = decoded.map { Int($0.pointee.nb_samples) } ?? 0
        let needed = Int(swr_get_out_samples(resampler, Int32(inCount)))
        if needed > capacity { grow(to: needed) }
        var outputs: (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?) = (
            UnsafeMutableRawPointer(left).assumingMemoryBound(to: UInt8.self),
            UnsafeMutableRawPointer(right).assumingMemoryBound(to: UInt8.self))
        let produced = withUnsafeMutablePointer(to: &outputs) { outs in
            outs.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 2) { out in
                swr_convert(resampler, out, Int32(capacity),
                            decoded.map { marble_frame_const_data($0) } ?? nil, Int32(inCount))
            }
        }
        try ffCheck(produced, .input, "\(input.path): cannot convert audio samples")
        sanitize(Int(produced))
        return Int(produced)
    }

    /// Samples that are not finite numbers (NaN, ±infinity: a broken float file) become silence, so
    /// they poison neither the analysis (one NaN spreads through every smoother) nor the encoders
    /// (AAC refuses them). Reported once, with the count so far, in ``warnings``.
    private func sanitize(_ count: Int) {
        func clean(_ channel: UnsafeMutablePointer<Float>) -> Int {
            var n = 0
            for i in 0..<count where !channel[i].isFinite {
                channel[i] = 0
                n += 1
            }
            return n
        }
        let replaced = clean(left) + (channels == 2 ? clean(right) : 0)
        guard replaced > 0 else { return }
        if nonFiniteSamples == 0 {
            warnings.append("\(input.path): the audio has samples that are not numbers (NaN or infinity); they play as silence")
        }
        nonFiniteSamples += replaced
    }

    private func makeResampler(for decoded: UnsafeMutablePointer<AVFrame>) throws(MarbleError) {
        var inLayout = AVChannelLayout()
        if decoded.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || decoded.pointee.ch_layout.nb_channels == 0 {
            av_channel_layout_default(&inLayout, max(1, decoded.pointee.ch_layout.nb_channels))
        } else {
            av_channel_layout_copy(&inLayout, &decoded.pointee.ch_layout)
        }
        defer { av_channel_layout_uninit(&inLayout) }
        var outLayout = AVChannelLayout()
        setChannelLayout(&outLayout, channels: channels)
        var swr: OpaquePointer? = nil
        try ffCheck(swr_alloc_set_opts2(&swr, &outLayout, AV_SAMPLE_FMT_FLTP, Int32(sampleRate),
                                        &inLayout, AVSampleFormat(decoded.pointee.format), decoded.pointee.sample_rate,
                                        0, nil), .media, "cannot set up the audio resampler")
        if swr_init(swr) < 0 {
            swr_free(&swr)
            throw MarbleError(.input, "\(input.path): cannot convert this audio layout")
        }
        resampler = swr
    }

    private func grow(to count: Int) {
        left.deallocate()
        right.deallocate()
        capacity = count
        left = .allocate(capacity: count)
        right = .allocate(capacity: count)
    }

    private func deliver(_ count: Int, skipping skip: Int = 0,
                         _ body: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>?) -> Void) {
        let n = limited(count - skip)
        chunkStart = delivered
        delivered += n
        guard n > 0 else { return }
        body(UnsafeBufferPointer(start: left + skip, count: n),
             channels == 2 ? UnsafeBufferPointer(start: right + skip, count: n) : nil)
    }

    /// Delivers the next block of the silence due before the held samples (none past the stated end).
    private func deliverSilence(_ body: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>?) -> Void) {
        let n = limited(min(silenceDue, AudioDecoder.silenceBlock))
        silenceDue = n > 0 ? silenceDue - n : 0
        chunkStart = delivered
        delivered += n
        guard n > 0 else { return }
        let zeros = UnsafeBufferPointer(start: UnsafePointer(silence), count: n)
        body(zeros, channels == 2 ? zeros : nil)
    }

    /// `count`, cut to what is left before the stated end (encoder padding past it is dropped).
    private func limited(_ count: Int) -> Int {
        guard let limit = sampleLimit else { return count }
        return max(0, min(count, limit - delivered))
    }

    /// Moves to `seconds` on the output's timeline (`av_seek_frame` to the packet at or before it, then
    /// `avcodec_flush_buffers`). Decoding then resumes exactly at that sample: the samples decoded
    /// before it are dropped using the frames' timestamps, and silence fills the time up to a frame that
    /// starts after it (the sound starts later, or the demuxer landed late); ``samplesDelivered``
    /// becomes the target. Seeking past the end leaves the decoder at its end.
    package func seek(to seconds: Double) throws(MarbleError) {
        let stream = input.stream(streamIndex)
        let timeBase = stream.pointee.time_base.doubleValue
        guard timeBase > 0 else { throw MarbleError(.input, "\(input.path): cannot seek (no time base)") }
        let target = max(0, Int((seconds * Double(sampleRate)).rounded()))
        let timestamp = Int64(((timelineOrigin + Double(target) / Double(sampleRate)) / timeBase).rounded(.down))
        try ffCheck(av_seek_frame(input.context, streamIndex, timestamp, AVSEEK_FLAG_BACKWARD), .input,
                    "\(input.path): cannot seek")
        avcodec_flush_buffers(codec)
        swr_free(&resampler)  // made again for the next frame; drops anything it held back
        if primed { av_frame_unref(frame.pointer) }
        primed = false
        held = nil
        silenceDue = 0
        inputEnded = false
        finished = false
        delivered = target
        chunkStart = target
        placement.restart()  // the next frame lands exactly: earlier samples dropped, a later start padded
    }

    /// Where a just-decoded frame starts on the output's timeline, in samples; nil without a timestamp.
    private func timelinePosition(_ decoded: UnsafeMutablePointer<AVFrame>) -> Int? {
        let pts = decoded.pointee.best_effort_timestamp
        guard pts != marble_av_nopts_value() else { return nil }
        let seconds = Double(pts) * input.stream(streamIndex).pointee.time_base.doubleValue - timelineOrigin
        return Int((seconds * Double(sampleRate)).rounded())
    }

    /// Samples delivered so far.
    package var samplesDelivered: Int { delivered }
}
