import CFFmpeg

/// The output's sound: the input's audio stream, copied packet for packet where the container can hold
/// its codec (and no bitrate was asked for), or else decoded again and encoded (AAC for MP4/MOV/MKV, Opus
/// for WebM) at the bitrate asked for, or 160 kbit/s (96 for mono).
///
/// It reads its own copy of the input file, so the sound never waits on the render stages; the writer
/// pulls it up to the time of the last video frame written (``write(upTo:)``), which keeps the file
/// interleaved and memory flat.
final class AudioTrack {
    private let path: String
    private let muxer: Muxer
    private(set) var outputStream: Int32 = 0
    private var strategy: Strategy
    private(set) var warnings: [String] = []
    /// Seconds of sound written so far.
    private(set) var writtenSeconds = 0.0

    private enum Strategy {
        case copy(MediaInput, Int32, Packet)
        case encode(AudioTranscoder)
    }

    init(path: String, format: OutputFormat, muxer: Muxer, bitrate: Int? = nil) throws(MarbleError) {
        self.path = path
        self.muxer = muxer
        let probe = try MediaInput(path: path)
        guard let index = probe.bestStream(AVMEDIA_TYPE_AUDIO) else { throw MarbleError(.input, "\(path): has no audio stream") }
        let codec = probe.stream(index).pointee.codecpar.pointee.codec_id
        let copyable: Bool = switch format {
        case .mp4, .mov: codec == AV_CODEC_ID_AAC
        case .webm: codec == AV_CODEC_ID_OPUS || codec == AV_CODEC_ID_VORBIS
        case .mkv: muxer.canHold(codec) && codec != AV_CODEC_ID_NONE
        case .png: false
        }
        if copyable && bitrate == nil {
            outputStream = try muxer.addStream(copying: probe.stream(index))
            strategy = .copy(probe, index, try Packet())
        } else {
            let transcoder = try AudioTranscoder(path: path, codecName: format == .webm ? "libopus" : "aac",
                                                 globalHeader: muxer.needsGlobalHeader, bitrate: bitrate)
            outputStream = try muxer.addStream(encoder: transcoder.encoder)
            strategy = .encode(transcoder)
        }
    }

    /// Writes sound up to `seconds` (all of it when nil).
    func write(upTo seconds: Double?) throws(MarbleError) {
        let limit = seconds ?? .infinity
        switch strategy {
        case .copy(let input, let index, let packet):
            let stream = input.stream(index)
            let tb = stream.pointee.time_base
            while writtenSeconds < limit {
                switch input.read(into: packet.pointer) {
                case .packet:
                    defer { av_packet_unref(packet.pointer) }
                    guard packet.pointer.pointee.stream_index == index else { continue }
                    let p = packet.pointer.pointee
                    let end = p.pts == marble_av_nopts_value() ? writtenSeconds : Double(p.pts + p.duration) * tb.doubleValue
                    writtenSeconds = max(writtenSeconds, end)
                    try muxer.write(packet.pointer, stream: outputStream, timeBase: tb)
                case .endOfFile:
                    writtenSeconds = .infinity
                case .damaged(let why):
                    warnings.append("\(path): audio copy stopped early (\(why))")
                    writtenSeconds = .infinity
                }
            }
        case .encode(let transcoder):
            try transcoder.encode(upTo: limit) { (packet: UnsafeMutablePointer<AVPacket>) throws(MarbleError) in
                try muxer.write(packet, stream: outputStream, timeBase: transcoder.encoder.pointee.time_base)
            }
            writtenSeconds = transcoder.encodedSeconds
            warnings = transcoder.warnings
        }
    }
}

/// Decodes the input's audio again and encodes it with `aac` or `libopus`
/// (`swr_convert` to the encoder's format and rate, `av_audio_fifo` to whole encoder frames).
final class AudioTranscoder {
    let encoder: UnsafeMutablePointer<AVCodecContext>
    private let decoder: AudioDecoder
    private var resampler: OpaquePointer?
    private let fifo: OpaquePointer
    private let frame: Frame
    private let packet: Packet
    private var nextPts: Int64 = 0
    private var decoderDone = false
    private var flushed = false
    private var convertBuffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>
    private var convertCapacity: Int32 = 0
    private var frameCapacity: Int32 = 0
    var warnings: [String] { decoder.warnings }

    var encodedSeconds: Double { flushed ? .infinity : Double(nextPts) / Double(encoder.pointee.sample_rate) }

    /// `bitrate` in kbit/s; nil: 160 (96 for mono).
    init(path: String, codecName: String, globalHeader: Bool, bitrate: Int? = nil) throws(MarbleError) {
        decoder = try AudioDecoder(path: path)
        // Objects first: if a later step throws, they free themselves; the C contexts below are freed
        // by hand on every failure path (deinit does not run for a half-made object).
        frame = try Frame()
        packet = try Packet()
        guard let codec = avcodec_find_encoder_by_name(codecName) else {
            throw MarbleError(.output, "this FFmpeg build has no \(codecName) encoder")
        }
        guard let ctx = avcodec_alloc_context3(codec) else { throw MarbleError(.media, "out of memory") }
        encoder = ctx
        let rate: Int32
        if codecName == "libopus" {
            rate = 48_000
        } else {
            rate = decoder.sampleRate <= 96_000 ? Int32(decoder.sampleRate) : 48_000
        }
        ctx.pointee.sample_rate = rate
        ctx.pointee.sample_fmt = codecName == "libopus" ? AV_SAMPLE_FMT_FLT : AV_SAMPLE_FMT_FLTP
        setChannelLayout(&ctx.pointee.ch_layout, channels: decoder.channels)
        ctx.pointee.bit_rate = Int64(bitrate.map { $0 * 1000 } ?? (decoder.channels == 1 ? 96_000 : 160_000))
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
        setChannelLayout(&inLayout, channels: decoder.channels)
        var swr: OpaquePointer? = nil
        let converts = swr_alloc_set_opts2(&swr, &ctx.pointee.ch_layout, ctx.pointee.sample_fmt, rate, &inLayout,
                                           AV_SAMPLE_FMT_FLTP, Int32(decoder.sampleRate), 0, nil) >= 0 && swr_init(swr) >= 0
        guard converts, let f = av_audio_fifo_alloc(ctx.pointee.sample_fmt, ctx.pointee.ch_layout.nb_channels, 4096) else {
            swr_free(&swr)
            var c: UnsafeMutablePointer<AVCodecContext>? = ctx
            avcodec_free_context(&c)
            throw MarbleError(.media, converts ? "out of memory" : "cannot set up audio conversion")
        }
        fifo = f
        resampler = swr
        convertBuffer = .allocate(capacity: 8)
        convertBuffer.initialize(repeating: nil, count: 8)
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = encoder
        avcodec_free_context(&c)
        swr_free(&resampler)
        av_audio_fifo_free(fifo)
        if convertCapacity > 0 { av_freep(convertBuffer) }
        convertBuffer.deallocate()
    }

    func encode(upTo seconds: Double, _ sink: (UnsafeMutablePointer<AVPacket>) throws(MarbleError) -> Void) throws(MarbleError) {
        let frameSize = encoder.pointee.frame_size > 0 ? encoder.pointee.frame_size : 1024
        while !flushed && encodedSeconds < seconds {
            if av_audio_fifo_size(fifo) >= frameSize {
                try sendFrame(samples: frameSize, sink)
            } else if !decoderDone {
                var failure: MarbleError?
                let more = try decoder.decodeNext { left, right in
                    do throws(MarbleError) { try push(left, right) } catch { failure = error }
                }
                if let failure { throw failure }
                if !more {
                    decoderDone = true
                    try push(nil, nil)
                }
            } else {
                let rest = av_audio_fifo_size(fifo)
                if rest > 0 { try sendFrame(samples: rest, sink) }
                try drain(nil, sink)
                flushed = true
            }
        }
    }

    /// Converts decoded planar float (nil: flush the resampler) into the FIFO.
    private func push(_ left: UnsafeBufferPointer<Float>?, _ right: UnsafeBufferPointer<Float>?) throws(MarbleError) {
        let inCount = Int32(left?.count ?? 0)
        let outCapacity = swr_get_out_samples(resampler, inCount) + 64
        if outCapacity > convertCapacity {
            if convertCapacity > 0 { av_freep(convertBuffer) }
            try ffCheck(av_samples_alloc(convertBuffer, nil, encoder.pointee.ch_layout.nb_channels, outCapacity,
                                         encoder.pointee.sample_fmt, 0), .media, "out of memory")
            convertCapacity = outCapacity
        }
        var inputs: (UnsafePointer<UInt8>?, UnsafePointer<UInt8>?) = (
            left.map { UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: UInt8.self) },
            (right ?? left).map { UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: UInt8.self) })
        let produced = withUnsafeMutablePointer(to: &inputs) { ins in
            ins.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 2) { inPtr in
                swr_convert(resampler, convertBuffer, convertCapacity, left == nil ? nil : inPtr, inCount)
            }
        }
        try ffCheck(produced, .media, "audio conversion failed")
        if produced > 0 {
            let written = convertBuffer.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) {
                av_audio_fifo_write(fifo, $0, produced)
            }
            try ffCheck(written, .media, "out of memory buffering audio")
        }
    }

    private func sendFrame(samples: Int32, _ sink: (UnsafeMutablePointer<AVPacket>) throws(MarbleError) -> Void) throws(MarbleError) {
        let f = frame.pointer
        if f.pointee.nb_samples == 0 {
            // Allocated once, for a whole encoder frame; later frames reuse it (copied only if the
            // encoder still holds a reference).
            f.pointee.nb_samples = max(samples, encoder.pointee.frame_size)
            f.pointee.format = encoder.pointee.sample_fmt.rawValue
            f.pointee.sample_rate = encoder.pointee.sample_rate
            try ffCheck(av_channel_layout_copy(&f.pointee.ch_layout, &encoder.pointee.ch_layout), .media, "out of memory")
            try ffCheck(av_frame_get_buffer(f, 0), .media, "out of memory")
            frameCapacity = f.pointee.nb_samples
        }
        try ffCheck(av_frame_make_writable(f), .media, "out of memory")
        f.pointee.nb_samples = min(samples, frameCapacity)
        let read = marble_frame_data_array(f).withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) {
            av_audio_fifo_read(fifo, $0, f.pointee.nb_samples)
        }
        try ffCheck(read, .media, "audio buffering failed")
        f.pointee.pts = nextPts
        nextPts += Int64(f.pointee.nb_samples)
        try drain(f, sink)
    }

    private func drain(_ f: UnsafeMutablePointer<AVFrame>?, _ sink: (UnsafeMutablePointer<AVPacket>) throws(MarbleError) -> Void) throws(MarbleError) {
        try ffCheck(avcodec_send_frame(encoder, f), .output, "audio encoding failed")
        while true {
            let r = avcodec_receive_packet(encoder, packet.pointer)
            if r == marble_averror_eagain() || r == marble_averror_eof() { return }
            try ffCheck(r, .output, "audio encoding failed")
            try sink(packet.pointer)
            av_packet_unref(packet.pointer)
        }
    }
}
