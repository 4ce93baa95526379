internal import CFFmpeg
import MarbleCore

/// The one choke point for FFmpeg return codes: negative codes become a ``MarbleError`` whose message
/// ends with FFmpeg's own words (from `av_strerror`).
@discardableResult
func ffCheck(_ code: Int32, _ kind: MarbleError.Kind = .media, _ what: @autoclosure () -> String) throws(MarbleError) -> Int32 {
    if code < 0 { throw MarbleError(kind, "\(what()): \(ffErrorString(code))") }
    return code
}

/// `av_strerror` as a Swift string.
func ffErrorString(_ code: Int32) -> String {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
        guard av_strerror(code, buffer.baseAddress, 256) == 0 else { return "error \(code)" }
        return String(cString: buffer.baseAddress!)
    }
}

/// Sets FFmpeg's log level once per process: FFmpeg's own messages stay quiet (ours carry av_strerror)
/// unless `MARBLE_FFMPEG_LOG` is set.
enum FFmpegLog {
    static func configure() { _ = once }
    private static let once: Void = {
        let verbose = getenvString("MARBLE_FFMPEG_LOG") != nil
        av_log_set_level(verbose ? AV_LOG_INFO : AV_LOG_QUIET)
    }()
}

/// Sets `layout` to mono for one channel, else stereo: the two layouts the engine works in.
func setChannelLayout(_ layout: inout AVChannelLayout, channels: Int) {
    if channels == 1 { marble_channel_layout_mono(&layout) } else { marble_channel_layout_stereo(&layout) }
}

package func getenvString(_ name: String) -> String? {
    guard let v = getenv(name) else { return nil }
    return String(cString: v)
}

extension AVRational {
    var doubleValue: Double { den == 0 ? 0 : Double(num) / Double(den) }
}

/// Frees an AVPacket allocated with av_packet_alloc.
final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>
    init() throws(MarbleError) {
        guard let p = av_packet_alloc() else { throw MarbleError(.media, "out of memory allocating a packet") }
        pointer = p
    }
    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&p)
    }
}

/// Owns an AVFrame allocated with av_frame_alloc.
final class Frame {
    let pointer: UnsafeMutablePointer<AVFrame>
    init() throws(MarbleError) {
        guard let f = av_frame_alloc() else { throw MarbleError(.media, "out of memory allocating a frame") }
        pointer = f
    }
    deinit {
        var f: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&f)
    }
}
