internal import CFFmpeg
import Foundation
import MarbleCore

/// An opened media file (demuxer): `avformat_open_input` + `avformat_find_stream_info`.
///
/// Errors: a missing or unreadable file, or data no demuxer recognises, throw ``MarbleError`` of kind
/// `.input` naming the path.
package final class MediaInput {
    let path: String
    let context: UnsafeMutablePointer<AVFormatContext>

    package init(path: String) throws(MarbleError) {
        FFmpegLog.configure()
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw MarbleError(.input, "\(path): no such file")
        }
        guard !isDirectory.boolValue else { throw MarbleError(.input, "\(path): is a directory, not a media file") }
        var ctx: UnsafeMutablePointer<AVFormatContext>? = nil
        let opened = avformat_open_input(&ctx, path, nil, nil)
        guard opened >= 0, ctx != nil else {
            throw MarbleError(.input, "\(path): cannot open as media (\(ffErrorString(opened)))")
        }
        let info = avformat_find_stream_info(ctx, nil)
        if info < 0 {
            avformat_close_input(&ctx)
            throw MarbleError(.input, "\(path): cannot read stream information (\(ffErrorString(info)))")
        }
        context = ctx!
    }

    deinit {
        var ctx: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&ctx)
    }

    /// The stream FFmpeg ranks best for a media type (`av_find_best_stream`), or nil.
    /// Attached pictures (cover art) are never the best video stream.
    func bestStream(_ type: AVMediaType) -> Int32? {
        let index = av_find_best_stream(context, type, -1, -1, nil, 0)
        guard index >= 0 else { return nil }
        if type == AVMEDIA_TYPE_VIDEO, stream(index).pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 {
            // Look for a real video stream; cover art is offered separately.
            for i in 0..<Int32(context.pointee.nb_streams) where i != index {
                let s = stream(i)
                if s.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO,
                   s.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 { return i }
            }
            return nil
        }
        return index
    }

    /// The container's tags (`format` metadata: title, artist, … and MP4 `mdta` keys), by name.
    package var tags: [String: String] { Self.entries(of: context.pointee.metadata) }

    /// The song's tags: the container's, then those of stream `index` where the container has none
    /// (Ogg and Opus keep their Vorbis comments on the audio stream), by lower-case name.
    package func songTags(stream index: Int32) -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in Self.entries(of: stream(index).pointee.metadata) { result[name.lowercased()] = value }
        for (name, value) in tags { result[name.lowercased()] = value }
        return result
    }

    private static func entries(of dictionary: OpaquePointer?) -> [String: String] {
        var result: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let e = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            result[String(cString: e.pointee.key)] = String(cString: e.pointee.value)
            entry = e
        }
        return result
    }

    /// True when the file has a real video stream (not just cover art).
    package var hasVideo: Bool { bestStream(AVMEDIA_TYPE_VIDEO) != nil }

    func stream(_ index: Int32) -> UnsafeMutablePointer<AVStream> {
        context.pointee.streams[Int(index)]!
    }

    /// Duration of a stream in seconds, from the stream or else the container; nil when unknown.
    package func duration(ofStream index: Int32) -> Double? {
        let s = stream(index)
        if s.pointee.duration != marble_av_nopts_value(), s.pointee.duration > 0 {
            return Double(s.pointee.duration) * s.pointee.time_base.doubleValue
        }
        if context.pointee.duration != marble_av_nopts_value(), context.pointee.duration > 0 {
            return Double(context.pointee.duration) / Double(AV_TIME_BASE)
        }
        return nil
    }

    enum ReadResult { case packet, endOfFile, damaged(String) }

    /// Reads the next packet (`av_read_frame`). Damaged data ends the read with a message instead of
    /// throwing, so the caller can keep what decoded so far.
    func read(into packet: UnsafeMutablePointer<AVPacket>) -> ReadResult {
        let r = av_read_frame(context, packet)
        if r >= 0 { return .packet }
        if r == marble_averror_eof() { return .endOfFile }
        return .damaged(ffErrorString(r))
    }

    /// Seeks to the keyframe at or before `timestamp` (in the stream's time base).
    func seek(stream index: Int32, to timestamp: Int64) throws(MarbleError) {
        try ffCheck(av_seek_frame(context, index, timestamp, AVSEEK_FLAG_BACKWARD), .input, "\(path): cannot seek")
    }

    /// Seeks back to the start (used to loop background videos).
    func rewind(stream index: Int32) throws(MarbleError) {
        try ffCheck(av_seek_frame(context, index, 0, AVSEEK_FLAG_BACKWARD), .input, "\(path): cannot seek to the start")
    }
}
