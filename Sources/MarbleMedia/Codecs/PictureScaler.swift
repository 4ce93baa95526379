internal import CFFmpeg
import MarbleCore

/// How a picture of another aspect ratio fills the output.
public enum Fit: String, Sendable, CaseIterable {
    /// The whole picture is visible; bars fill the rest (letterbox / pillarbox).
    case contain
    /// The picture covers the whole output; what overflows is cropped.
    case cover
}

/// Scales decoded frames of one size and pixel format into premultiplied RGBA textures of the output
/// size (`sws_getContext` + `sws_scale`), keeping the aspect ratio by ``Fit``.
final class PictureScaler {
    private let context: OpaquePointer
    private let output: (width: Int, height: Int)
    /// Where the scaled picture lands in (or, for cover, is cropped from) the intermediate picture.
    private let scaled: (width: Int, height: Int)
    private let offset: (x: Int, y: Int)
    private let fit: Fit
    private let hasAlpha: Bool
    private let scratch: Texture?

    init(sourceWidth: Int32, sourceHeight: Int32, format: AVPixelFormat,
         outputWidth: Int, outputHeight: Int, fit: Fit) throws(MarbleError) {
        self.output = (outputWidth, outputHeight)
        self.fit = fit
        let sx = Double(outputWidth) / Double(sourceWidth)
        let sy = Double(outputHeight) / Double(sourceHeight)
        let scale = fit == .contain ? min(sx, sy) : max(sx, sy)
        let w = max(1, Int((Double(sourceWidth) * scale).rounded()))
        let h = max(1, Int((Double(sourceHeight) * scale).rounded()))
        scaled = (fit == .contain ? min(w, outputWidth) : max(w, outputWidth),
                  fit == .contain ? min(h, outputHeight) : max(h, outputHeight))
        offset = (abs(outputWidth - scaled.width) / 2, abs(outputHeight - scaled.height) / 2)
        guard let ctx = sws_getContext(sourceWidth, sourceHeight, format, Int32(scaled.width), Int32(scaled.height),
                                       AV_PIX_FMT_RGBA, Int32(SWS_BILINEAR), nil, nil, nil) else {
            let name = av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "unknown"
            throw MarbleError(.input, "cannot scale pictures of pixel format \(name)")
        }
        context = ctx
        if let desc = av_pix_fmt_desc_get(format) {
            hasAlpha = desc.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
        } else {
            hasAlpha = false
        }
        scratch = fit == .cover ? Texture(width: scaled.width, height: scaled.height) : nil
    }

    deinit { sws_freeContext(context) }

    /// Scales `frame` into `texture` (which must have the output size). Letterbox bars are black.
    func scale(_ frame: UnsafeMutablePointer<AVFrame>, into texture: Texture) {
        let view = texture.view
        switch fit {
        case .contain:
            fillBars(view)
            let dst = view.row(offset.y) + offset.x * 4
            run(frame, dst: dst, stride: view.bytesPerRow)
            if hasAlpha { premultiply(view, x: offset.x, y: offset.y, width: scaled.width, height: scaled.height) }
        case .cover:
            let scratch = scratch!
            run(frame, dst: scratch.view.row(0), stride: scratch.bytesPerRow)
            for y in 0..<output.height {
                (view.row(y)).update(from: scratch.view.row(y + offset.y) + offset.x * 4, count: output.width * 4)
            }
            if hasAlpha { premultiply(view, x: 0, y: 0, width: output.width, height: output.height) }
        }
    }

    /// Paints the letterbox / pillarbox bars black (only them: the picture covers the rest).
    private func fillBars(_ view: TextureView) {
        let black = RGBA8(r: 0, g: 0, b: 0).packed
        let right = offset.x + scaled.width
        for y in 0..<output.height {
            let row = view.row32(y)
            if y < offset.y || y >= offset.y + scaled.height {
                row.update(repeating: black, count: output.width)
            } else {
                row.update(repeating: black, count: offset.x)
                (row + right).update(repeating: black, count: output.width - right)
            }
        }
    }

    private func run(_ frame: UnsafeMutablePointer<AVFrame>, dst: UnsafeMutablePointer<UInt8>, stride: Int) {
        var dstData: (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?) = (dst, nil, nil, nil)
        var dstStride: (Int32, Int32, Int32, Int32) = (Int32(stride), 0, 0, 0)
        withUnsafeMutablePointer(to: &dstData) { data in
            withUnsafeMutablePointer(to: &dstStride) { strides in
                data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 4) { d in
                    strides.withMemoryRebound(to: Int32.self, capacity: 4) { s in
                        _ = sws_scale(context, UnsafePointer(OpaquePointer(marble_frame_const_data(frame))),
                                      marble_frame_linesize_array(frame), 0, frame.pointee.height, d, s)
                    }
                }
            }
        }
    }

    /// Straight alpha (as decoded) to premultiplied, over black.
    private func premultiply(_ view: TextureView, x: Int, y: Int, width: Int, height: Int) {
        for row in y..<(y + height) {
            let p = view.row(row) + x * 4
            for i in 0..<width {
                let a = UInt32(p[i &* 4 &+ 3])
                for c in 0..<3 {
                    let v = UInt32(p[i &* 4 &+ c]) &* a &+ 127
                    p[i &* 4 &+ c] = UInt8(truncatingIfNeeded: (v &+ (v >> 8)) >> 8)
                }
            }
        }
    }
}
