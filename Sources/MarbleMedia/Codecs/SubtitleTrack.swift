internal import CFFmpeg
import MarbleCore

/// A media file's text subtitle stream (SubRip, WebVTT, ASS/SSA, MP4's `mov_text`, …) as ``Lyrics``
/// lines, for the `lyrics` layer when the user gives no file of their own.
///
/// FFmpeg decodes every text subtitle codec into ASS events (`avcodec_decode_subtitle2`, rectangles of
/// type `SUBTITLE_ASS`); the text is the event's last field, its `\N` row breaks and `{\…}` overrides
/// handled as captions' markup is. Times are the packets' (plus the event's display offsets), on the
/// output's timeline (`origin` seconds are time 0, as `AudioDecoder.timelineOrigin`). Bitmap
/// subtitles (DVD, PGS) are not text and are passed over. Bounded like a captions file: at most
/// ``LyricsFormat/maximumLines`` cues, each at most ``LyricsFormat/maximumLineBytes`` (longer ones
/// skipped) and ``LyricsFormat/maximumRows`` rows (the first ones kept).
package enum SubtitleTrack {
    /// The cues of the best text subtitle stream of the file at `path`, or nil when it has none.
    /// Reads the whole file's packets once (no audio or video is decoded).
    package static func lyrics(in path: String, origin: Double) throws(MarbleError) -> Lyrics? {
        let input = try MediaInput(path: path)
        guard let index = input.bestStream(AVMEDIA_TYPE_SUBTITLE) else { return nil }
        let stream = input.stream(index)
        let parameters = stream.pointee.codecpar!
        guard let description = avcodec_descriptor_get(parameters.pointee.codec_id),
              description.pointee.props & Int32(AV_CODEC_PROP_TEXT_SUB) != 0,
              let decoder = avcodec_find_decoder(parameters.pointee.codec_id) else { return nil }
        var context = avcodec_alloc_context3(decoder)
        guard let codec = context else { throw MarbleError(.media, "\(path): cannot allocate a subtitle decoder") }
        defer { avcodec_free_context(&context) }
        try ffCheck(avcodec_parameters_to_context(codec, parameters), .input, "\(path): cannot read the subtitle stream's parameters")
        codec.pointee.pkt_timebase = stream.pointee.time_base
        try ffCheck(avcodec_open2(codec, decoder, nil), .input, "\(path): cannot open the subtitle decoder")
        var packet = av_packet_alloc()
        guard let p = packet else { throw MarbleError(.media, "\(path): cannot allocate a packet") }
        defer { av_packet_free(&packet) }
        let timeBase = stream.pointee.time_base.doubleValue
        var lines: [Lyrics.Line] = []
        reading: while true {
            switch input.read(into: p) {
            case .endOfFile, .damaged: break reading   // keep the cues read so far
            case .packet: break
            }
            defer { av_packet_unref(p) }
            guard p.pointee.stream_index == index, p.pointee.pts != marble_av_nopts_value() else { continue }
            var subtitle = AVSubtitle()
            var got: Int32 = 0
            guard avcodec_decode_subtitle2(codec, &subtitle, &got, p) >= 0, got != 0 else { continue }
            defer { avsubtitle_free(&subtitle) }
            let at = Double(p.pointee.pts) * timeBase - origin
            let start = at + Double(subtitle.start_display_time) / 1000
            let end = p.pointee.duration > 0 ? at + Double(p.pointee.duration) * timeBase
                : at + Double(subtitle.end_display_time) / 1000
            guard let text = Self.text(subtitle), end > start else { continue }
            guard lines.count < LyricsFormat.maximumLines else {
                throw MarbleError(.input, "\(path): more than \(LyricsFormat.maximumLines) subtitle cues")
            }
            let ms = { (s: Double) in max(0, min(LyricsFormat.maximumMilliseconds, Int((s * 1000).rounded()))) }
            lines.append(Lyrics.Line(start: ms(start), end: ms(end), text: text, words: []))
        }
        return lines.isEmpty ? nil : Lyrics(lines: lines)
    }

    /// The plain text of a decoded event's rectangles (rows joined), or nil when it has none.
    private static func text(_ subtitle: AVSubtitle) -> String? {
        var rows: [String] = []
        for i in 0..<Int(subtitle.num_rects) {
            guard let rect = subtitle.rects[i], rect.pointee.type == SUBTITLE_ASS, let ass = rect.pointee.ass else { continue }
            let length = strnlen(ass, LyricsFormat.maximumLineBytes + 1)
            guard length <= LyricsFormat.maximumLineBytes else { continue }
            // "ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text": the text follows the 8th comma.
            let event = String(decoding: UnsafeRawBufferPointer(start: ass, count: length), as: UTF8.self)
            let fields = event.split(separator: ",", maxSplits: 8, omittingEmptySubsequences: false)
            guard fields.count == 9 else { continue }
            rows += LyricsFormat.captionRows(ASS: fields[8])
        }
        return rows.isEmpty ? nil : rows.prefix(LyricsFormat.maximumRows).joined(separator: "\n")
    }
}
