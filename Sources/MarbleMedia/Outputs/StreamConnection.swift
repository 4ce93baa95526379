internal import CFFmpeg
import Foundation
import MarbleCore
import Synchronization

/// Ends blocked network I/O: libavformat polls `callback` (every 100 ms or so) while it waits to
/// connect, read or write, and gives up (AVERROR_EXIT) once it returns 1. It does when the current
/// operation passed its `deadline` (a connection that does not answer, a write stuck on a stalled
/// network) or when the stream is being stopped (`stopAt`: an abort, or the end of a finish's grace).
///
/// Thread safety: atomics only; the callback runs on whichever thread does the I/O.
final class StreamInterrupt: Sendable {
    /// MonotonicClock time after which the current operation gives up; 0: none.
    let deadline = Atomic<UInt64>(0)
    /// MonotonicClock time after which every operation gives up (stopping); 0: not stopping.
    let stopAt = Atomic<UInt64>(0)
    /// Set when the callback ended an operation because its deadline passed (cleared by `arm`).
    let expired = Atomic<Bool>(false)

    /// Gives the next operation `seconds`.
    func arm(_ seconds: Double) {
        expired.store(false, ordering: .relaxed)
        deadline.store(MonotonicClock.now() + UInt64(seconds * 1e9), ordering: .releasing)
    }

    func disarm() { deadline.store(0, ordering: .releasing) }

    /// Whether blocked I/O should give up now.
    func shouldStop() -> Bool {
        let now = MonotonicClock.now()
        let stop = stopAt.load(ordering: .acquiring)
        if stop != 0 && now >= stop { return true }
        let d = deadline.load(ordering: .acquiring)
        if d != 0 && now >= d { expired.store(true, ordering: .relaxed); return true }
        return false
    }

    /// The callback for `avio_open2` and `AVFormatContext.interrupt_callback`. `self` must outlive
    /// every context that holds it (the owner keeps it).
    var callback: AVIOInterruptCB {
        AVIOInterruptCB(callback: streamInterruptCallback, opaque: Unmanaged.passUnretained(self).toOpaque())
    }
}

/// A C callback: no captures; the interrupt object comes through the opaque pointer.
private func streamInterruptCallback(_ opaque: UnsafeMutableRawPointer?) -> Int32 {
    guard let opaque else { return 0 }
    return Unmanaged<StreamInterrupt>.fromOpaque(opaque).takeUnretainedValue().shouldStop() ? 1 : 0
}

/// One stream of a network output, as added: its codec parameters (a copy, kept for every
/// connection), the time base of the packets queued for it, and whether it is the video.
/// Immutable after init; freed with its owner.
final class StreamTrack: @unchecked Sendable {
    // Safety of @unchecked Sendable: `parameters` is written in init only and read after.
    let parameters: UnsafeMutablePointer<AVCodecParameters>
    let timeBase: AVRational
    let frameRate: AVRational
    var isVideo: Bool { parameters.pointee.codec_type == AVMEDIA_TYPE_VIDEO }

    init(encoder: UnsafeMutablePointer<AVCodecContext>) throws(MarbleError) {
        guard let p = avcodec_parameters_alloc() else { throw MarbleError(.media, "out of memory describing a stream") }
        parameters = p
        timeBase = encoder.pointee.time_base
        frameRate = encoder.pointee.framerate
        try ffCheck(avcodec_parameters_from_context(p, encoder), .output, "cannot describe a stream")
    }

    init(copying source: UnsafeMutablePointer<AVStream>) throws(MarbleError) {
        guard let p = avcodec_parameters_alloc() else { throw MarbleError(.media, "out of memory describing a stream") }
        parameters = p
        timeBase = source.pointee.time_base
        frameRate = source.pointee.avg_frame_rate
        try ffCheck(avcodec_parameters_copy(p, source.pointee.codecpar), .output, "cannot copy a stream")
        p.pointee.codec_tag = 0
    }

    deinit {
        var p: UnsafeMutablePointer<AVCodecParameters>? = parameters
        avcodec_parameters_free(&p)
    }
}

/// One connection of a network stream: an output context opened on the URL, its header written.
/// A failed connection is thrown away and a fresh one opened (a context cannot be reused).
///
/// Threading: used by one thread at a time (opened by the caller of `writeHeader`, then handed to the
/// stream's thread). Errors: `open` throws one `.output` line naming the URL; `write` returns
/// FFmpeg's code (the caller reconnects).
final class StreamConnection {
    /// Seconds to connect and write the header before giving up.
    static let connectTimeout = 5.0
    /// Seconds a single write may block before the connection counts as stalled.
    static let stallTimeout = 3.0
    /// Seconds the interleaver may hold packets waiting for the other stream.
    static let interleaveDelta = 0.3

    let context: UnsafeMutablePointer<AVFormatContext>
    private let tracks: [StreamTrack]
    private let interrupt: StreamInterrupt

    /// Connects to `url` within ``connectTimeout`` and writes the header for `tracks`.
    init(url: StreamURL, tracks: [StreamTrack], interrupt: StreamInterrupt) throws(MarbleError) {
        var ctx: UnsafeMutablePointer<AVFormatContext>? = nil
        try ffCheck(avformat_alloc_output_context2(&ctx, nil, url.muxerName, url.address), .output,
                    "\(url.text): cannot set up a \(url.muxerName) stream")
        context = ctx!
        self.tracks = tracks
        self.interrupt = interrupt
        context.pointee.interrupt_callback = interrupt.callback
        context.pointee.max_interleave_delta = Int64(Self.interleaveDelta * 1e6)
        do throws(MarbleError) {
            for track in tracks {
                guard let stream = avformat_new_stream(context, nil) else { throw MarbleError(.media, "cannot add a stream") }
                try ffCheck(avcodec_parameters_copy(stream.pointee.codecpar, track.parameters), .output, "cannot describe a stream")
                stream.pointee.time_base = track.timeBase
                stream.pointee.avg_frame_rate = track.frameRate
            }
            try connect(url)
        } catch {
            if context.pointee.pb != nil { interrupt.arm(0.5); avio_closep(&context.pointee.pb); interrupt.disarm() }
            avformat_free_context(context)
            throw error
        }
    }

    private func connect(_ url: StreamURL) throws(MarbleError) {
        var io: OpaquePointer? = nil, muxer: OpaquePointer? = nil
        defer { av_dict_free(&io); av_dict_free(&muxer) }
        switch url.kind {
        case .udp, .srt:
            av_dict_set(&io, "pkt_size", "1316", 0)   // 7 TS packets: one datagram under any MTU
        case .rtmp, .rtmps:
            av_dict_set(&muxer, "flvflags", "no_duration_filesize", 0)  // no seek back to patch the header
            av_dict_set(&io, "send_buffer_size", "\(sendBuffer)", 0)
        }
        av_dict_set(&muxer, "flush_packets", "1", 0)   // each packet leaves at once (latency)
        var callback = interrupt.callback
        interrupt.arm(Self.connectTimeout)
        defer { interrupt.disarm() }
        let opened = avio_open2(&context.pointee.pb, url.address, AVIO_FLAG_WRITE, &callback, &io)
        if opened < 0 {
            let why = Self.resolves(url.host) ? reason(opened, timeout: Self.connectTimeout) : "unknown host \(url.host)"
            throw MarbleError(.output, "\(url.text): cannot connect (\(why))")
        }
        let header = avformat_write_header(context, &muxer)
        if header < 0 { throw MarbleError(.output, "\(url.text): cannot start the stream (\(reason(header, timeout: Self.connectTimeout)))") }
    }

    /// The socket's send buffer (bytes; Linux doubles it): about half a second of the streams' bitrate
    /// (256 kB when unknown). Loopback and LAN sockets otherwise buffer megabytes, seconds of stream
    /// the queue cannot see or drop: latency that grows while the network is slow.
    private var sendBuffer: Int {
        let bits = tracks.reduce(Int64(0)) { $0 + max(0, $1.parameters.pointee.bit_rate) }
        return bits > 0 ? max(16_384, Int(bits / 16)) : 262_144
    }

    /// Whether `host` resolves (FFmpeg reports a host it cannot resolve as a mere I/O error).
    static func resolves(_ host: String) -> Bool {
        var result: UnsafeMutablePointer<addrinfo>? = nil
        defer { if let result { freeaddrinfo(result) } }
        return getaddrinfo(host, nil, nil, &result) == 0
    }

    /// An FFmpeg error in words, or the timeout that ended the operation.
    func reason(_ code: Int32, timeout: Double) -> String {
        interrupt.expired.load(ordering: .relaxed) ? "stalled: no answer within \(Int(timeout)) s" : ffErrorString(code)
    }

    /// Writes a queued packet of stream `index` (timestamps in that track's time base) within
    /// ``stallTimeout``. Takes the packet's reference. Returns FFmpeg's code.
    func write(_ packet: UnsafeMutablePointer<AVPacket>, stream index: Int32) -> Int32 {
        let stream = context.pointee.streams[Int(index)]!
        packet.pointee.stream_index = index
        av_packet_rescale_ts(packet, tracks[Int(index)].timeBase, stream.pointee.time_base)
        interrupt.arm(Self.stallTimeout)
        defer { interrupt.disarm() }
        return av_interleaved_write_frame(context, packet)
    }

    /// Bytes handed to the network on this connection.
    var bytes: Int64 { context.pointee.pb.map { avio_tell($0) } ?? 0 }

    /// Sends the trailer (when `trailer`), closes the connection and frees the context; a blocked
    /// close gives up after a short grace.
    func close(trailer: Bool) -> Int64 {
        if trailer {
            interrupt.arm(1)
            _ = av_write_trailer(context)
        }
        interrupt.arm(0.5)
        let sent = bytes
        avio_closep(&context.pointee.pb)
        interrupt.disarm()
        avformat_free_context(context)
        return sent
    }
}
