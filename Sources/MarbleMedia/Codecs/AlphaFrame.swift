internal import CFFmpeg
import MarbleCore

/// A picture with straight alpha in the pixel format an alpha encoder takes, filled from a premultiplied
/// canvas: un-premultiplied once into straight RGBA (``Unpremultiply``), then converted by libswscale
/// (`sws_scale`) to YUVA (BT.709, limited range) or ARGB. Made once per writer and reused for every
/// frame; the straight picture and the scaler allocate nothing per frame (the encoder's picture is
/// copied only while an encoder still holds the last one: `av_frame_make_writable`).
final class AlphaFrame {
    let width: Int, height: Int
    /// The straight RGBA picture (what a PNG stores, and the scaler's input).
    let straight: Frame
    /// The picture in the encoder's format (the straight one itself for RGBA).
    let encoded: Frame?
    private let scaler: OpaquePointer?

    /// - Parameter format: the encoder's pixel format (RGBA needs no conversion).
    init(width: Int, height: Int, format: AVPixelFormat) throws(MarbleError) {
        self.width = width
        self.height = height
        straight = try AlphaFrame.allocate(width: width, height: height, format: AV_PIX_FMT_RGBA)
        guard format != AV_PIX_FMT_RGBA else {
            encoded = nil
            scaler = nil
            return
        }
        let target = try AlphaFrame.allocate(width: width, height: height, format: format)
        let rgbOut = format == AV_PIX_FMT_ARGB
        if !rgbOut {
            target.pointer.pointee.color_range = AVCOL_RANGE_MPEG
            target.pointer.pointee.colorspace = AVCOL_SPC_BT709
            target.pointer.pointee.color_primaries = AVCOL_PRI_BT709
            target.pointer.pointee.color_trc = AVCOL_TRC_BT709
        }
        encoded = target
        // Same size: only the chroma of 4:2:0 is filtered (bilinear); accurate rounding for the rest.
        let flags = Int32(SWS_BILINEAR) | Int32(SWS_ACCURATE_RND) | Int32(SWS_FULL_CHR_H_INP)
        guard let ctx = sws_getContext(Int32(width), Int32(height), AV_PIX_FMT_RGBA, Int32(width), Int32(height),
                                       format, flags, nil, nil, nil) else {
            throw MarbleError(.media, "cannot convert RGBA pictures for the encoder")
        }
        if !rgbOut {
            let bt709 = sws_getCoefficients(SWS_CS_ITU709)
            _ = sws_setColorspaceDetails(ctx, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16)
        }
        scaler = ctx
    }

    deinit { if let scaler { sws_freeContext(scaler) } }

    private static func allocate(width: Int, height: Int, format: AVPixelFormat) throws(MarbleError) -> Frame {
        let frame = try Frame()
        let f = frame.pointer
        f.pointee.format = format.rawValue
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        try ffCheck(av_frame_get_buffer(f, 64), .media, "out of memory allocating a video frame")
        return frame
    }

    /// The frame to hand the encoder.
    var frame: UnsafeMutablePointer<AVFrame> { (encoded ?? straight).pointer }

    /// Fills the picture from `canvas` (premultiplied, this size).
    func fill(from canvas: TextureView) throws(MarbleError) {
        precondition(canvas.width == width && canvas.height == height, "an alpha frame is filled from a canvas of its size")
        let s = straight.pointer
        if encoded == nil { try ffCheck(av_frame_make_writable(s), .media, "out of memory") }
        Unpremultiply.picture(canvas, into: marble_frame_data(s, 0), stride: Int(marble_frame_linesize(s, 0)))
        guard let encoded, let scaler else { return }
        let e = encoded.pointer
        try ffCheck(av_frame_make_writable(e), .media, "out of memory")
        _ = sws_scale(scaler, UnsafePointer(OpaquePointer(marble_frame_const_data(s))), marble_frame_linesize_array(s),
                      0, Int32(height), marble_frame_data_array(e), marble_frame_linesize_array(e))
    }
}
