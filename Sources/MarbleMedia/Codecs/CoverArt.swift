internal import CFFmpeg
import MarbleCore

/// A song's embedded cover picture: the packet of its attached-picture stream
/// (`AV_DISPOSITION_ATTACHED_PIC`), decoded once to premultiplied RGBA.
///
/// Where FFmpeg finds it: ID3v2 `APIC` frames (mp3), the MP4 `covr` atom (m4a), FLAC's PICTURE block,
/// and the `METADATA_BLOCK_PICTURE` comment of Ogg Vorbis and Opus files (FFmpeg 5.1 turns each into an
/// attached-picture stream; the older, non-standard `COVERART` comment is not read). When a file holds
/// several pictures, the one marked as the front cover wins (its stream's `comment` tag is
/// "Cover (front)"), else the first.
///
/// Pictures wider or taller than ``maximumSide`` are refused with a warning (a corrupt or hostile size
/// must not allocate gigabytes); a picture that does not decode also gives a warning. Neither stops a
/// render: the song simply has no cover.
package enum CoverArt {
    /// The largest width or height accepted, in pixels (a 8192×8192 picture is 256 MB of RGBA).
    package static let maximumSide = 8192

    /// What looking for a cover found: the picture (nil when the file has none, or it could not be
    /// used) and, when one was there but could not be used, why (one sentence).
    package struct Found {
        /// The picture, premultiplied RGBA.
        package var picture: Texture?
        /// Why a picture the file has was not used, or nil.
        package var warning: String?
    }

    /// The cover of the file at `path` at the picture's own size.
    package static func picture(in path: String) throws(MarbleError) -> Found {
        try picture(in: MediaInput(path: path), size: nil, fit: .contain)
    }

    /// The cover of the file at `path`, scaled to `width`×`height` by `fit` (for a still background:
    /// scaled once from the decoded picture, not from a copy at its own size).
    package static func picture(in path: String, width: Int, height: Int, fit: Fit) throws(MarbleError) -> Found {
        try picture(in: MediaInput(path: path), size: (width, height), fit: fit)
    }

    /// Whether the file at `path` has an attached picture (not decoded: it may still be unusable).
    package static func hasPicture(in path: String) throws(MarbleError) -> Bool {
        stream(in: try MediaInput(path: path)) != nil
    }

    /// The index of the attached-picture stream to use, or nil.
    static func stream(in input: MediaInput) -> Int32? {
        var first: Int32?
        for i in 0..<Int32(input.context.pointee.nb_streams) {
            let s = input.stream(i)
            guard s.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0,
                  s.pointee.attached_pic.size > 0 else { continue }
            if let comment = av_dict_get(s.pointee.metadata, "comment", nil, 0),
               String(cString: comment.pointee.value).lowercased() == "cover (front)" { return i }
            if first == nil { first = i }
        }
        return first
    }

    private static func picture(in input: MediaInput, size: (width: Int, height: Int)?, fit: Fit) throws(MarbleError) -> Found {
        guard let index = stream(in: input) else { return Found(picture: nil, warning: nil) }
        let stream = input.stream(index)
        let parameters = stream.pointee.codecpar!
        let name = "\(input.path): cover picture"
        func tooLarge(_ w: Int32, _ h: Int32) -> Bool { w > maximumSide || h > maximumSide }
        if tooLarge(parameters.pointee.width, parameters.pointee.height) {
            return Found(picture: nil, warning: "\(name) is \(parameters.pointee.width)x\(parameters.pointee.height), larger than \(maximumSide)x\(maximumSide): ignored")
        }
        guard let decoder = avcodec_find_decoder(parameters.pointee.codec_id) else {
            return Found(picture: nil, warning: "\(name): no decoder for its format: ignored")
        }
        var context = avcodec_alloc_context3(decoder)
        guard context != nil else { throw MarbleError(.media, "out of memory allocating a picture decoder") }
        defer { avcodec_free_context(&context) }
        let frame = try Frame()
        guard avcodec_parameters_to_context(context, parameters) >= 0, avcodec_open2(context, decoder, nil) >= 0 else {
            return Found(picture: nil, warning: "\(name): cannot open its decoder: ignored")
        }
        let sent = withUnsafeMutablePointer(to: &stream.pointee.attached_pic) { avcodec_send_packet(context, $0) }
        avcodec_send_packet(context, nil)
        guard sent >= 0, avcodec_receive_frame(context, frame.pointer) >= 0 else {
            return Found(picture: nil, warning: "\(name) is damaged: ignored")
        }
        let w = frame.pointer.pointee.width, h = frame.pointer.pointee.height
        guard w > 0, h > 0, !tooLarge(w, h) else {
            return Found(picture: nil, warning: "\(name) is \(w)x\(h), outside 1x1…\(maximumSide)x\(maximumSide): ignored")
        }
        let out = size ?? (Int(w), Int(h))
        let scaler = try PictureScaler(sourceWidth: w, sourceHeight: h, format: AVPixelFormat(frame.pointer.pointee.format),
                                       outputWidth: out.width, outputHeight: out.height, fit: fit)
        let texture = Texture(width: out.width, height: out.height)
        scaler.scale(frame.pointer, into: texture)
        return Found(picture: texture, warning: nil)
    }
}
