internal import CFFmpeg
import MarbleCore

/// Encodes pictures of one size as baseline JPEG (libavcodec's `mjpeg` encoder, full-range YUV 4:2:0
/// from `sws_scale`), for `marble studio`'s preview frames and thumbnails. The codec context, the
/// scaler and the frame are made once and reused: a picture costs the conversion and the encoding, and
/// the bytes returned.
///
/// The texture is premultiplied RGBA drawn over black, so its colour channels are what it shows; alpha
/// is dropped.
package final class JPEGEncoder {
    package let width: Int, height: Int
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private let scaler: OpaquePointer
    private let frame: Frame
    private let packet: Packet

    /// - Parameters:
    ///   - quality: 1 (smallest) … 100 (best); mapped to the encoder's quantiser (`qscale` 31 … 2).
    /// - Throws: `.option` for a size outside 16…7680 x 16…4320 or odd, `.media` when FFmpeg lacks the encoder.
    package init(width: Int, height: Int, quality: Int = 80) throws(MarbleError) {
        guard (16...7680).contains(width), (16...4320).contains(height), width % 2 == 0, height % 2 == 0 else {
            throw MarbleError(.option, "a JPEG picture must be 16x16 to 7680x4320 with even sides, not \(width)x\(height)")
        }
        guard (1...100).contains(quality) else { throw MarbleError(.option, "JPEG quality must be 1…100, not \(quality)") }
        self.width = width
        self.height = height
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else { throw MarbleError(.media, "this FFmpeg build has no JPEG (mjpeg) encoder") }
        guard let c = avcodec_alloc_context3(codec) else { throw MarbleError(.media, "out of memory") }
        context = c
        c.pointee.width = Int32(width)
        c.pointee.height = Int32(height)
        c.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
        c.pointee.color_range = AVCOL_RANGE_JPEG
        c.pointee.time_base = AVRational(num: 1, den: 30)
        // A fixed quantiser: every picture at the same quality, whatever came before.
        let q = Int32(31 - (quality - 1) * 29 / 99)
        c.pointee.flags |= AV_CODEC_FLAG_QSCALE
        c.pointee.global_quality = q * FF_QP2LAMBDA
        c.pointee.qmin = q
        c.pointee.qmax = q
        do {
            try ffCheck(avcodec_open2(c, codec, nil), .media, "cannot open the JPEG encoder")
        } catch {
            avcodec_free_context(&context)
            throw error
        }
        // Planar 4:2:0 with full-range output (what YUVJ420P means), asked for without the deprecated
        // J format, which swscale warns about.
        guard let sws = sws_getContext(Int32(width), Int32(height), AV_PIX_FMT_RGBA, Int32(width), Int32(height),
                                       AV_PIX_FMT_YUV420P, Int32(SWS_BILINEAR), nil, nil, nil) else {
            avcodec_free_context(&context)
            throw MarbleError(.media, "cannot convert pictures to JPEG's colours")
        }
        let bt601 = sws_getCoefficients(SWS_CS_ITU601)
        _ = sws_setColorspaceDetails(sws, bt601, 1, bt601, 1, 0, 1 << 16, 1 << 16)
        scaler = sws
        frame = try Frame()
        packet = try Packet()
        let f = frame.pointer
        f.pointee.format = AV_PIX_FMT_YUVJ420P.rawValue
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        f.pointee.color_range = AVCOL_RANGE_JPEG
        f.pointee.quality = c.pointee.global_quality   // the quantiser of a QSCALE encoder comes with the frame
        try ffCheck(av_frame_get_buffer(f, 64), .media, "out of memory")
    }

    deinit {
        sws_freeContext(scaler)
        avcodec_free_context(&context)
    }

    /// The JPEG file's bytes of `view`, which must have the encoder's size.
    package func encode(_ view: TextureView) throws(MarbleError) -> [UInt8] {
        precondition(view.width == width && view.height == height, "JPEGEncoder: the picture is not the encoder's size")
        guard let c = context else { throw MarbleError(.media, "the JPEG encoder is closed") }
        let f = frame.pointer
        try ffCheck(av_frame_make_writable(f), .media, "out of memory")
        var source: UnsafePointer<UInt8>? = UnsafePointer(view.pixels.assumingMemoryBound(to: UInt8.self))
        var stride = Int32(view.bytesPerRow)
        withUnsafeMutablePointer(to: &f.pointee.data) { data in
            withUnsafeMutablePointer(to: &f.pointee.linesize) { lines in
                data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { d in
                    lines.withMemoryRebound(to: Int32.self, capacity: 8) { l in
                        _ = sws_scale(scaler, &source, &stride, 0, Int32(height), d, l)
                    }
                }
            }
        }
        f.pointee.pts += 1
        try ffCheck(avcodec_send_frame(c, f), .media, "JPEG encoding failed")
        let p = packet.pointer
        try ffCheck(avcodec_receive_packet(c, p), .media, "JPEG encoding failed")
        defer { av_packet_unref(p) }
        return [UInt8](UnsafeBufferPointer(start: p.pointee.data, count: Int(p.pointee.size)))
    }
}
