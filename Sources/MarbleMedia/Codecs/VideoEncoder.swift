internal import CFFmpeg
import MarbleCore

/// Encodes YUV 4:2:0 frames with libx264 (MP4, MKV, MOV) or libvpx-vp9 (WebM) at a constant rate, or
/// frames with alpha (``Settings/alpha``): ProRes 4444 or QuickTime Animation (MOV), VP9 YUVA 4:2:0 (WebM).
///
/// Wraps `avcodec_send_frame` / `avcodec_receive_packet`. Timestamps are frame numbers in a time base of
/// 1/fps, so the rate is exact (30000/1001 included) and every packet carries a duration of one frame.
package final class VideoEncoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    let timeBase: AVRational
    private let packet: Packet

    package struct Settings {
        package var width: Int
        package var height: Int
        package var fps: Rational
        package var crf: Int
        package var preset: EncoderPreset
        package var threads: Int
        package var globalHeader: Bool
        /// A target bitrate in kbit/s, held by a one-second VBV buffer so a stream's rate stays steady
        /// (x264: `b` = `maxrate`, `bufsize` = one second); nil: constant quality (`crf`).
        package var bitrate: Int?
        /// Seconds between keyframes (nil: 4 s). A stream's viewers can start at each one.
        package var keyframeSeconds: Double?
        /// x264 `tune=zerolatency`: no lookahead, no B-frames, sliced threads: a frame's packet comes out
        /// of the encoder with that frame, for live streams (about 10 % more bits for the same quality).
        package var zeroLatency = false
        /// The encoder's own thread count, fixed, so its output does not depend on the machine: x264's
        /// bitstream changes with its thread count (1, 2 and 4 threads give three different files)
        /// but is the same for one count whatever the cores. nil: follow `threads` (live outputs, where
        /// bytes need not repeat).
        package var encoderThreads: Int?
        /// The codec (nil: the container's default, ``VideoCodec/default(for:transparent:)`` opaque).
        package var codec: VideoCodec?
        /// Frames carry straight alpha (``AlphaFrame``): ProRes and QuickTime Animation always do; VP9
        /// then encodes YUVA 4:2:0.
        package var alpha = false

        package init(width: Int, height: Int, fps: Rational, crf: Int, preset: EncoderPreset, threads: Int,
                     globalHeader: Bool) {
            self.width = width; self.height = height; self.fps = fps; self.crf = crf; self.preset = preset
            self.threads = threads; self.globalHeader = globalHeader
        }
    }

    init(format: OutputFormat, settings s: Settings) throws(MarbleError) {
        let chosen = s.codec ?? VideoCodec.default(for: format, transparent: false)
        let name = chosen.encoderName
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw MarbleError(.output, "this FFmpeg build has no \(name) encoder")
        }
        guard let ctx = avcodec_alloc_context3(codec) else { throw MarbleError(.media, "out of memory allocating an encoder") }
        context = ctx
        timeBase = AVRational(num: Int32(s.fps.denominator), den: Int32(s.fps.numerator))
        ctx.pointee.width = Int32(s.width)
        ctx.pointee.height = Int32(s.height)
        ctx.pointee.time_base = timeBase
        ctx.pointee.framerate = AVRational(num: Int32(s.fps.numerator), den: Int32(s.fps.denominator))
        ctx.pointee.pix_fmt = chosen.pixelFormat(alpha: s.alpha)
        ctx.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        // x264's frame threads wait on each other (a frame's motion search needs its reference's rows),
        // and here they share the cores with the render stage: twice as many frame threads as cores
        // keeps the cores busy. Song → 1080p60 on 2 cores: 4.6 s with 2 threads, 3.9 s with 4. Capped at
        // 16: each frame thread holds frames of its own, and more stop paying off long before that.
        let followingCores = format == .webm ? s.threads : min(2 * s.threads, 16)
        ctx.pointee.thread_count = Int32(s.encoderThreads ?? followingCores)
        // QuickTime Animation stores RGB itself; the others YUV in BT.709's limited range.
        ctx.pointee.color_range = chosen == .qtrle ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        ctx.pointee.colorspace = chosen == .qtrle ? AVCOL_SPC_RGB : AVCOL_SPC_BT709
        ctx.pointee.color_primaries = AVCOL_PRI_BT709
        ctx.pointee.color_trc = AVCOL_TRC_BT709
        let keyframeFrames = (s.keyframeSeconds ?? 4) * s.fps.doubleValue
        ctx.pointee.gop_size = Int32(max(1, min(100_000, keyframeFrames.rounded())))
        if let kbps = s.bitrate {
            let bits = Int64(kbps) * 1000
            ctx.pointee.bit_rate = bits
            ctx.pointee.rc_max_rate = bits
            ctx.pointee.rc_buffer_size = Int32(clamping: bits)
        }
        ctx.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        if s.globalHeader { ctx.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }

        var options = Self.options(chosen, s)
        defer { av_dict_free(&options) }
        let opened = avcodec_open2(ctx, codec, &options)
        if opened < 0 {
            var c: UnsafeMutablePointer<AVCodecContext>? = ctx
            avcodec_free_context(&c)
            throw MarbleError(.output, "cannot open the \(name) encoder: \(ffErrorString(opened))")
        }
        packet = try Packet()
    }

    /// The encoder's private options (an `AVDictionary` the caller frees) for `codec` with settings `s`.
    private static func options(_ codec: VideoCodec, _ s: Settings) -> OpaquePointer? {
        var options: OpaquePointer? = nil
        switch codec {
        case .prores:
            // prores_ks: the 4444 profile keeps alpha (16 bits of it by default); quality is the profile's.
            av_dict_set(&options, "profile", "4444", 0)
            av_dict_set(&options, "vendor", "apl0", 0)
        case .qtrle:
            break   // lossless run-length coding: no quality settings
        case .vp9:
            if s.bitrate == nil {
                av_dict_set(&options, "crf", "\(s.crf)", 0)
                av_dict_set(&options, "b", "0", 0)
            }
            av_dict_set(&options, "deadline", s.preset.vp9CpuUsed >= 5 ? "realtime" : "good", 0)
            av_dict_set(&options, "cpu-used", "\(s.preset.vp9CpuUsed)", 0)
            av_dict_set(&options, "row-mt", "1", 0)
        case .h264:
            av_dict_set(&options, "preset", s.preset.rawValue, 0)
            if s.bitrate == nil { av_dict_set(&options, "crf", "\(s.crf)", 0) }
            if s.zeroLatency { av_dict_set(&options, "tune", "zerolatency", 0) }
            // A keyframe asked for (a stream that reconnected) is an IDR frame a decoder can start at.
            av_dict_set(&options, "forced-idr", "1", 0)
        }
        return options
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&c)
    }

    /// Sends one frame (or nil to flush) and hands every finished packet to `sink`.
    func encode(_ frame: UnsafeMutablePointer<AVFrame>?, _ sink: (UnsafeMutablePointer<AVPacket>) throws(MarbleError) -> Void) throws(MarbleError) {
        try ffCheck(avcodec_send_frame(context, frame), .output, "video encoding failed")
        while true {
            let r = avcodec_receive_packet(context, packet.pointer)
            if r == marble_averror_eagain() || r == marble_averror_eof() { return }
            try ffCheck(r, .output, "video encoding failed")
            packet.pointer.pointee.duration = 1
            try sink(packet.pointer)
            av_packet_unref(packet.pointer)
        }
    }
}
