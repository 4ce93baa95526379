internal import CFFmpeg
import MarbleCore

/// One audio encoder, `aac` (MP4, MOV, MKV) or `libopus` (WebM), fed with planar float samples at any
/// rate, mono or stereo: the one place the engine encodes sound.
///
/// ``append(left:right:)`` converts what it is given to the encoder's sample format and rate
/// (`swr_convert`) and buffers it (`av_audio_fifo_write`); ``encode(upTo:_:)`` cuts the buffer into
/// whole encoder frames and hands every packet to a sink (`avcodec_send_frame` /
/// `avcodec_receive_packet`); ``finish(totalSamples:_:)`` encodes what is left, a short last frame
/// included, and drains the encoder. Timestamps count samples at the encoder's rate, in ``timeBase``,
/// from 0 for the first appended sample. The encoder is bit-exact (`AV_CODEC_FLAG_BITEXACT`): the same
/// samples always give the same packets. In steady state ``append(left:right:)`` allocates nothing: the
/// conversion buffer and the FIFO grow only when a larger block than any before arrives (or more is
/// left waiting), and one `AVFrame` is reused; FFmpeg still allocates each packet's payload.
///
/// Errors: an encoder this FFmpeg build lacks, settings the encoder refuses, a channel count other than
/// 1 or 2, or running out of memory throw ``MarbleError`` (`.output` for the encoder, `.media` else).
final class AudioEncoder {
    /// The opened encoder, for `Muxer.addStream(encoder:)`.
    let context: UnsafeMutablePointer<AVCodecContext>
    /// The rate and channel count of the samples ``append(left:right:)`` takes.
    let inputSampleRate: Int
    let channels: Int
    /// The encoder's rate: 48 kHz for Opus; for AAC the input's rate when AAC has it (up to 96 kHz), else 48 kHz.
    let sampleRate: Int
    /// 1 / ``sampleRate``: the time base of every packet handed to a sink.
    var timeBase: AVRational { context.pointee.time_base }
    /// Samples per encoder frame (1024 for AAC, 960 for Opus at 48 kHz).
    let frameSize: Int32

    private var resampler: OpaquePointer?
    private let fifo: OpaquePointer
    private let frame: Frame
    private let packet: Packet
    private var nextPts: Int64 = 0
    private var frameCapacity: Int32 = 0
    private var convertBuffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>
    private var convertCapacity: Int32 = 0
    /// Samples (per channel, at ``inputSampleRate``) appended so far, silence included.
    private(set) var samplesAppended = 0
    /// Zeros for ``appendSilence(samples:)``, made on first use.
    private var silence: UnsafeMutableBufferPointer<Float>?
    /// True once the resampler has been drained: nothing more can be appended.
    private(set) var inputEnded = false
    /// True once ``finish(totalSamples:_:)`` has drained the encoder.
    private(set) var isFinished = false

    /// Seconds of sound handed to the encoder so far (the start of the next frame).
    var encodedSeconds: Double { Double(nextPts) / Double(sampleRate) }

    /// `codecName`: `aac` or `libopus`. `bitrate` in kbit/s; nil: 160 (96 for mono). `globalHeader`:
    /// the muxer wants the codec's headers out of band (`Muxer.needsGlobalHeader`).
    init(codecName: String, inputSampleRate: Int, channels: Int, bitrate: Int? = nil,
         globalHeader: Bool) throws(MarbleError) {
        FFmpegLog.configure()
        guard channels == 1 || channels == 2 else {
            throw MarbleError(.media, "cannot encode \(channels) channels of sound (1 or 2)")
        }
        guard (1_000...768_000).contains(inputSampleRate) else {
            throw MarbleError(.media, "cannot encode sound at \(inputSampleRate) Hz")
        }
        self.inputSampleRate = inputSampleRate
        self.channels = channels
        // Objects first: if a later step throws, they free themselves; the C contexts below are freed
        // by hand on every failure path (deinit does not run for a half-made object).
        frame = try Frame()
        packet = try Packet()
        guard let codec = avcodec_find_encoder_by_name(codecName) else {
            throw MarbleError(.output, "this FFmpeg build has no \(codecName) encoder")
        }
        guard let ctx = avcodec_alloc_context3(codec) else { throw MarbleError(.media, "out of memory") }
        let rate = AudioEncoder.rate(for: codec, named: codecName, input: inputSampleRate)
        ctx.pointee.sample_rate = rate
        ctx.pointee.sample_fmt = codecName == "libopus" ? AV_SAMPLE_FMT_FLT : AV_SAMPLE_FMT_FLTP
        setChannelLayout(&ctx.pointee.ch_layout, channels: channels)
        ctx.pointee.bit_rate = Int64(bitrate.map { $0 * 1000 } ?? (channels == 1 ? 96_000 : 160_000))
        ctx.pointee.time_base = AVRational(num: 1, den: rate)
        ctx.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        if globalHeader { ctx.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        let opened = avcodec_open2(ctx, codec, nil)
        guard opened >= 0 else {
            var c: UnsafeMutablePointer<AVCodecContext>? = ctx
            avcodec_free_context(&c)
            throw MarbleError(.output, "cannot open the \(codecName) encoder: \(ffErrorString(opened))")
        }
        var inLayout = AVChannelLayout()
        setChannelLayout(&inLayout, channels: channels)
        var swr: OpaquePointer? = nil
        let converts = swr_alloc_set_opts2(&swr, &ctx.pointee.ch_layout, ctx.pointee.sample_fmt, rate, &inLayout,
                                           AV_SAMPLE_FMT_FLTP, Int32(inputSampleRate), 0, nil) >= 0 && swr_init(swr) >= 0
        guard converts, let f = av_audio_fifo_alloc(ctx.pointee.sample_fmt, ctx.pointee.ch_layout.nb_channels, 4096) else {
            swr_free(&swr)
            var c: UnsafeMutablePointer<AVCodecContext>? = ctx
            avcodec_free_context(&c)
            throw MarbleError(.media, converts ? "out of memory" : "cannot set up audio conversion")
        }
        context = ctx
        sampleRate = Int(rate)
        frameSize = ctx.pointee.frame_size > 0 ? ctx.pointee.frame_size : 1024
        fifo = f
        resampler = swr
        convertBuffer = .allocate(capacity: 8)
        convertBuffer.initialize(repeating: nil, count: 8)
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&c)
        swr_free(&resampler)
        av_audio_fifo_free(fifo)
        if convertCapacity > 0 { av_freep(convertBuffer) }
        convertBuffer.deallocate()
        silence?.deallocate()
    }

    /// Opus always runs at 48 kHz. AAC keeps the input's rate when it is one AAC has (its
    /// `supported_samplerates`) and at most 96 kHz, else 48 kHz.
    private static func rate(for codec: UnsafePointer<AVCodec>, named name: String, input: Int) -> Int32 {
        if name == "libopus" || input > 96_000 { return 48_000 }
        guard var listed = codec.pointee.supported_samplerates else { return Int32(input) }
        while listed.pointee != 0 {
            if listed.pointee == Int32(input) { return Int32(input) }
            listed += 1
        }
        return 48_000
    }

    /// Converts one block of planar samples into the buffer. `right` is nil for mono; a stereo encoder
    /// given no `right` uses `left` twice, a mono one ignores `right`. With both, the shorter count counts.
    func append(left: UnsafeBufferPointer<Float>, right: UnsafeBufferPointer<Float>?) throws(MarbleError) {
        guard !inputEnded else { throw MarbleError(.media, "sound appended after the encoder's input ended") }
        let count = min(left.count, right?.count ?? left.count)
        guard count > 0 else { return }
        try convert(left.baseAddress!, (right ?? left).baseAddress!, count: count)
        samplesAppended += count
    }

    /// Appends `samples` samples of silence (at ``inputSampleRate``), in blocks of 4096.
    func appendSilence(samples: Int) throws(MarbleError) {
        guard samples > 0 else { return }
        let zeros = silence ?? UnsafeMutableBufferPointer<Float>.allocate(capacity: 4096)
        if silence == nil {
            zeros.initialize(repeating: 0)
            silence = zeros
        }
        var left = samples
        while left > 0 {
            let n = min(left, zeros.count)
            let block = UnsafeBufferPointer(rebasing: zeros[0..<n])
            try append(left: block, right: nil)
            left -= n
        }
    }

    /// Drains the resampler into the buffer: the input has ended (``finish(totalSamples:_:)`` does it too).
    func endInput() throws(MarbleError) {
        guard !inputEnded else { return }
        inputEnded = true
        try convert(nil, nil, count: 0)
    }

    /// Encodes the buffered whole frames that end at or before `seconds` (every whole frame when it is
    /// `.infinity`). A partial frame stays buffered until more samples, or ``finish(totalSamples:_:)``.
    func encode(upTo seconds: Double, _ sink: (UnsafeMutablePointer<AVPacket>) throws(MarbleError) -> Void) throws(MarbleError) {
        let limit = seconds * Double(sampleRate) + 1e-6
        while !isFinished && Double(nextPts + Int64(frameSize)) <= limit {
            guard try encodeFrame(sink) else { return }
        }
    }

    /// Encodes one whole frame if the buffer holds one; returns whether it did.
    func encodeFrame(_ sink: (UnsafeMutablePointer<AVPacket>) throws(MarbleError) -> Void) throws(MarbleError) -> Bool {
        guard !isFinished, av_audio_fifo_size(fifo) >= frameSize else { return false }
        try sendFrame(samples: frameSize, sink)
        return true
    }

    /// Ends the input, encodes everything still buffered (the last frame short), drains the encoder.
    /// With `totalSamples` (at the encoder's rate) the stream ends exactly there: buffered sound past it
    /// is dropped, and missing sound is silence. Sound already encoded stays (the end is then where it is).
    func finish(totalSamples: Int64? = nil, _ sink: (UnsafeMutablePointer<AVPacket>) throws(MarbleError) -> Void) throws(MarbleError) {
        guard !isFinished else { return }
        try endInput()
        if let total = totalSamples {
            while nextPts < total {
                try sendFrame(samples: Int32(min(Int64(frameSize), total - nextPts)), sink)
            }
            av_audio_fifo_reset(fifo)
        } else {
            while try encodeFrame(sink) {}
            let rest = av_audio_fifo_size(fifo)
            if rest > 0 { try sendFrame(samples: rest, sink) }
        }
        try drain(nil, sink)
        isFinished = true
    }

    /// Converts `count` planar samples (nil: drain the resampler) into the buffer.
    private func convert(_ left: UnsafePointer<Float>?, _ right: UnsafePointer<Float>?, count: Int) throws(MarbleError) {
        let inCount = Int32(count)
        let outCapacity = swr_get_out_samples(resampler, inCount) + 64
        if outCapacity > convertCapacity {
            if convertCapacity > 0 { av_freep(convertBuffer) }
            try ffCheck(av_samples_alloc(convertBuffer, nil, context.pointee.ch_layout.nb_channels, outCapacity,
                                         context.pointee.sample_fmt, 0), .media, "out of memory")
            convertCapacity = outCapacity
        }
        var inputs: (UnsafePointer<UInt8>?, UnsafePointer<UInt8>?) = (
            left.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) },
            right.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) })
        let produced = withUnsafeMutablePointer(to: &inputs) { ins in
            ins.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 2) { inPtr in
                swr_convert(resampler, convertBuffer, convertCapacity, left == nil ? nil : inPtr, inCount)
            }
        }
        try ffCheck(produced, .media, "audio conversion failed")
        if produced > 0 {
            clip(samples: Int(produced))
            let written = convertBuffer.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) {
                av_audio_fifo_write(fifo, $0, produced)
            }
            try ffCheck(written, .media, "out of memory buffering audio")
        }
    }

    /// Samples of the input that were beyond ±1 (or not numbers) and were clipped, and the largest
    /// magnitude among them: a WAV of floats like 1e30 would make the AAC encoder fail ("Invalid
    /// argument"), and louder than full scale is never what a file means to hold.
    private(set) var clipped = (count: 0, peak: Float(0))

    /// One line about ``clipped`` for the input `name`, or nil when nothing was clipped.
    func clipWarning(for name: String) -> String? {
        guard clipped.count > 0 else { return nil }
        let peak = clipped.peak.isFinite ? String(format: "%.3g", Double(clipped.peak)) : "not a number"
        return "\(name): \(clipped.count) sound samples beyond ±1 (peak \(peak)) were clipped to ±1 before encoding"
    }

    /// Clips the `samples` just converted into the buffer to ±1 (a non-number becomes 0), when the
    /// encoder takes floats; integer formats are saturated by the converter already.
    private func clip(samples: Int) {
        let format = context.pointee.sample_fmt
        let planes: Int, perPlane: Int
        switch format {
        case AV_SAMPLE_FMT_FLTP: (planes, perPlane) = (Int(context.pointee.ch_layout.nb_channels), samples)
        case AV_SAMPLE_FMT_FLT: (planes, perPlane) = (1, samples * Int(context.pointee.ch_layout.nb_channels))
        default: return
        }
        for plane in 0..<planes {
            guard let raw = convertBuffer[plane] else { continue }
            raw.withMemoryRebound(to: Float.self, capacity: perPlane) { values in
                for i in 0..<perPlane {
                    let v = values[i]
                    guard !(abs(v) <= 1) else { continue }  // the common case; NaN falls through
                    clipped.count += 1
                    clipped.peak = v.isNaN ? .nan : (clipped.peak.isNaN ? clipped.peak : max(clipped.peak, abs(v)))
                    values[i] = v.isNaN ? 0 : (v > 0 ? 1 : -1)
                }
            }
        }
    }

    /// Sends a frame of `samples` from the buffer; what the buffer lacks is silence.
    private func sendFrame(samples: Int32, _ sink: (UnsafeMutablePointer<AVPacket>) throws(MarbleError) -> Void) throws(MarbleError) {
        let f = frame.pointer
        if frameCapacity == 0 {
            // Allocated once, for a whole encoder frame; later frames reuse it (copied only if the
            // encoder still holds a reference).
            f.pointee.nb_samples = max(samples, frameSize)
            f.pointee.format = context.pointee.sample_fmt.rawValue
            f.pointee.sample_rate = context.pointee.sample_rate
            try ffCheck(av_channel_layout_copy(&f.pointee.ch_layout, &context.pointee.ch_layout), .media, "out of memory")
            try ffCheck(av_frame_get_buffer(f, 0), .media, "out of memory")
            frameCapacity = f.pointee.nb_samples
        }
        try ffCheck(av_frame_make_writable(f), .media, "out of memory")
        f.pointee.nb_samples = min(samples, frameCapacity)
        let wanted = f.pointee.nb_samples
        let available = min(wanted, av_audio_fifo_size(fifo))
        let data = marble_frame_data_array(f)!
        if available > 0 {
            let read = data.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) {
                av_audio_fifo_read(fifo, $0, available)
            }
            try ffCheck(read, .media, "audio buffering failed")
        }
        if available < wanted {
            av_samples_set_silence(data, available, wanted - available, context.pointee.ch_layout.nb_channels,
                                   context.pointee.sample_fmt)
        }
        f.pointee.pts = nextPts
        nextPts += Int64(wanted)
        try drain(f, sink)
    }

    /// Sends a frame (nil: flush) and hands every finished packet to `sink`.
    private func drain(_ f: UnsafeMutablePointer<AVFrame>?, _ sink: (UnsafeMutablePointer<AVPacket>) throws(MarbleError) -> Void) throws(MarbleError) {
        try ffCheck(avcodec_send_frame(context, f), .output, "audio encoding failed")
        while true {
            let r = avcodec_receive_packet(context, packet.pointer)
            if r == marble_averror_eagain() || r == marble_averror_eof() { return }
            try ffCheck(r, .output, "audio encoding failed")
            try sink(packet.pointer)
            av_packet_unref(packet.pointer)
        }
    }
}
