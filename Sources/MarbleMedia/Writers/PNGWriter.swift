internal import CFFmpeg
import Foundation
import MarbleCore

/// Writes one frame as a PNG (libavcodec's `png` encoder, RGBA), atomically (temp file + rename).
package enum PNGWriter {
    package static func write(_ texture: Texture, to path: String) throws(MarbleError) {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG) else { throw MarbleError(.output, "this FFmpeg build has no PNG encoder") }
        var ctx = avcodec_alloc_context3(codec)
        guard let c = ctx else { throw MarbleError(.media, "out of memory") }
        defer { avcodec_free_context(&ctx) }
        c.pointee.width = Int32(texture.width)
        c.pointee.height = Int32(texture.height)
        c.pointee.pix_fmt = AV_PIX_FMT_RGBA
        c.pointee.time_base = AVRational(num: 1, den: 1)
        c.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        try ffCheck(avcodec_open2(c, codec, nil), .output, "cannot open the PNG encoder")
        let frame = try Frame()
        let f = frame.pointer
        f.pointee.format = AV_PIX_FMT_RGBA.rawValue
        f.pointee.width = Int32(texture.width)
        f.pointee.height = Int32(texture.height)
        try ffCheck(av_frame_get_buffer(f, 64), .media, "out of memory")
        let view = texture.view
        let dst = marble_frame_data(f, 0)!
        let stride = Int(marble_frame_linesize(f, 0))
        for y in 0..<texture.height {
            let s = view.row(y), d = dst + y * stride
            for x in 0..<texture.width {
                // Premultiplied to straight alpha, as PNG stores it.
                let a = Int(s[x * 4 + 3])
                for ch in 0..<3 {
                    let v = Int(s[x * 4 + ch])
                    d[x * 4 + ch] = a == 255 || a == 0 ? UInt8(v) : UInt8(min(255, (v * 255 + a / 2) / a))
                }
                d[x * 4 + 3] = UInt8(a)
            }
        }
        let packet = try Packet()
        try ffCheck(avcodec_send_frame(c, f), .output, "PNG encoding failed")
        try ffCheck(avcodec_receive_packet(c, packet.pointer), .output, "PNG encoding failed")
        let data = Data(bytes: packet.pointer.pointee.data, count: Int(packet.pointer.pointee.size))
        // Temporary file + rename over nothing or a regular file; a symbolic link's target is replaced;
        // a folder, a device or a FIFO is refused (see OutputFile).
        _ = try OutputFile.checkReplaceable(path)
        try OutputFile.write(data, to: path)
    }
}
