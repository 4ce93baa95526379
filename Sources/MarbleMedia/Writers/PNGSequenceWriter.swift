internal import CFFmpeg
import Foundation
import MarbleCore

/// Writes frames as a numbered sequence of PNGs with straight alpha (`-o frames/%06d.png`), the format
/// every editor imports: libavcodec's `png` encoder (RGBA), one file per frame, each written under a
/// temporary name and renamed into place (``OutputFile``), so a stopped render leaves whole files only.
/// The encoder and the straight picture are made once; a PNG sequence holds no sound.
package final class PNGSequenceWriter {
    /// The path pattern, e.g. `frames/%06d.png`.
    package let pattern: PNGSequencePattern
    private let context: UnsafeMutablePointer<AVCodecContext>
    private let picture: AlphaFrame
    private let packet: Packet
    package private(set) var framesWritten = 0
    package private(set) var bytesWritten = 0

    /// Opens the encoder for pictures of `width`×`height`. The pattern's folder must exist.
    package init(pattern: PNGSequencePattern, width: Int, height: Int) throws(MarbleError) {
        FFmpegLog.configure()
        self.pattern = pattern
        try OutputFile.checkFolder(of: pattern.path(frame: 0))
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG) else { throw MarbleError(.output, "this FFmpeg build has no PNG encoder") }
        guard let c = avcodec_alloc_context3(codec) else { throw MarbleError(.media, "out of memory") }
        context = c
        c.pointee.width = Int32(width)
        c.pointee.height = Int32(height)
        c.pointee.pix_fmt = AV_PIX_FMT_RGBA
        c.pointee.time_base = AVRational(num: 1, den: 1)
        c.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        do throws(MarbleError) {
            try ffCheck(avcodec_open2(c, codec, nil), .output, "cannot open the PNG encoder")
            picture = try AlphaFrame(width: width, height: height, format: AV_PIX_FMT_RGBA)
            packet = try Packet()
        } catch {
            var ctx: UnsafeMutablePointer<AVCodecContext>? = c
            avcodec_free_context(&ctx)
            throw error
        }
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&c)
    }

    /// Writes `canvas` (premultiplied) as the PNG of frame `index`, replacing a file of that name.
    package func write(_ canvas: Texture, frame index: Int) throws(MarbleError) {
        let path = pattern.path(frame: index)
        _ = try OutputFile.checkReplaceable(path)
        try picture.fill(from: canvas.view)
        try ffCheck(avcodec_send_frame(context, picture.frame), .output, "\(path): PNG encoding failed")
        try ffCheck(avcodec_receive_packet(context, packet.pointer), .output, "\(path): PNG encoding failed")
        defer { av_packet_unref(packet.pointer) }
        let size = Int(packet.pointer.pointee.size)
        try OutputFile.write(Data(bytes: packet.pointer.pointee.data, count: size), to: path)
        framesWritten += 1
        bytesWritten += size
    }
}

/// A PNG sequence's path: one `%d` (or `%0Nd`, N ≤ 12) in its file name, replaced by the frame's index
/// (from 0), as FFmpeg's image2 muxer and editors read them.
package struct PNGSequencePattern: Sendable, Equatable {
    package let text: String
    private let prefix: String, suffix: String, width: Int

    /// Whether `path` asks for a sequence: its file name holds a `%`.
    package static func isPattern(_ path: String) -> Bool {
        path.split(separator: "/", omittingEmptySubsequences: false).last?.contains("%") ?? false
    }

    /// Parses `path`; `.option` error when its `%` is not exactly one `%d` or `%0Nd` in the file name.
    package init(_ path: String) throws(MarbleError) {
        text = path
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[slash...]
        let bad = MarbleError(.option, "\(path): a PNG sequence needs one %d or %06d in its file name (frames/%06d.png)")
        guard !path[..<slash].contains("%"), let percent = name.firstIndex(of: "%") else { throw bad }
        var i = name.index(after: percent)
        var digits = ""
        while i < name.endIndex, name[i].isASCII, name[i].isNumber { digits.append(name[i]); i = name.index(after: i) }
        guard i < name.endIndex, name[i] == "d", digits.isEmpty || (digits.hasPrefix("0") && digits.count >= 2) else { throw bad }
        let after = name[name.index(after: i)...]
        guard !after.contains("%") else { throw bad }
        let w = Int(digits) ?? 0
        guard w <= 12 else { throw bad }
        prefix = String(path[..<percent])
        suffix = String(after)
        width = w
    }

    /// The file of frame `index`.
    package func path(frame index: Int) -> String {
        let number = String(index)
        return prefix + String(repeating: "0", count: max(0, width - number.count)) + number + suffix
    }
}
