internal import CFFmpeg
import Foundation
import MarbleCore

/// Writes encoded streams into a container file, atomically: packets go to a hidden temporary file
/// beside the destination, which is renamed into place by ``finish()`` and deleted by ``abort()``. So a
/// failed job leaves nothing behind, and a stopped one (Ctrl-C) leaves a complete, playable file.
///
/// Wraps `avformat_alloc_output_context2`, `avio_open`, `avformat_write_header`,
/// `av_interleaved_write_frame` and `av_write_trailer`. Output is bit-exact (no dates, no random IDs).
final class Muxer: PacketDestination {
    let destination: String
    let temporaryPath: String
    let context: UnsafeMutablePointer<AVFormatContext>
    private var isOpen = false
    /// Video and sound are written from two threads; libavformat's context is not thread-safe.
    private let lock = NSLock()

    /// Whether MP4/MOV is written as fragments (a short index per fragment, written as it goes) rather
    /// than with one index for the whole file at its start. Fragments keep memory flat however long a
    /// recording runs (the whole-file index grows by every packet until the end), and what was written
    /// stays playable even if the process dies. Matroska and WebM are written in clusters either way;
    /// for them the flag means a recording: clusters of at most a second, each on disk as it closes.
    let fragmented: Bool
    /// Tags written into the container (MP4/MOV: as `mdta` keys, so any name survives).
    private let metadata: [(key: String, value: String)]

    init(destination: String, format: OutputFormat, fragmented: Bool = false,
         metadata: [(key: String, value: String)] = []) throws(MarbleError) {
        // A symbolic link is followed (its target is replaced, the link stays); a folder, a device or a
        // FIFO is refused rather than renamed over (see OutputFile).
        self.destination = try OutputFile.checkReplaceable(destination)
        self.fragmented = fragmented
        self.metadata = metadata
        try OutputFile.checkFolder(of: destination)
        OutputFile.removeStaleTemporaries(for: self.destination)
        temporaryPath = OutputFile.temporaryPath(for: self.destination)
        var ctx: UnsafeMutablePointer<AVFormatContext>? = nil
        try ffCheck(avformat_alloc_output_context2(&ctx, nil, format.muxerName, temporaryPath), .output,
                    "\(destination): cannot set up a \(format.rawValue) file")
        context = ctx!
        context.pointee.flags |= AVFMT_FLAG_BITEXACT
    }

    deinit {
        if isOpen { avio_closep(&context.pointee.pb) }
        avformat_free_context(context)
    }

    var name: String { destination }

    /// Bytes handed to the file so far (`avio_tell`; AVIO may still hold some of them); nil once the
    /// file is finished or abandoned.
    var bytesWritten: Int64? {
        lock.lock()
        defer { lock.unlock() }
        guard isOpen, let pb = context.pointee.pb else { return nil }
        return avio_tell(pb)
    }

    /// True when the container wants codec headers out of band (MP4, MKV).
    var needsGlobalHeader: Bool { context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 }

    func canHold(_ codec: AVCodecID) -> Bool {
        avformat_query_codec(context.pointee.oformat, codec, FF_COMPLIANCE_NORMAL) == 1
    }

    /// Adds a stream described by an opened encoder; returns its index.
    func addStream(encoder: UnsafeMutablePointer<AVCodecContext>) throws(MarbleError) -> Int32 {
        guard let stream = avformat_new_stream(context, nil) else { throw MarbleError(.media, "cannot add a stream") }
        try ffCheck(avcodec_parameters_from_context(stream.pointee.codecpar, encoder), .output, "cannot describe a stream")
        stream.pointee.time_base = encoder.pointee.time_base
        stream.pointee.avg_frame_rate = encoder.pointee.framerate
        return stream.pointee.index
    }

    /// Adds a stream whose packets are copied from an input stream; returns its index.
    func addStream(copying source: UnsafeMutablePointer<AVStream>) throws(MarbleError) -> Int32 {
        guard let stream = avformat_new_stream(context, nil) else { throw MarbleError(.media, "cannot add a stream") }
        try ffCheck(avcodec_parameters_copy(stream.pointee.codecpar, source.pointee.codecpar), .output, "cannot copy a stream")
        // The container picks its own tag, except for ProRes, whose tag is its profile (`ap4h`: 4444
        // with alpha; MOV would otherwise write `apch`, HQ, which has none).
        if source.pointee.codecpar.pointee.codec_id != AV_CODEC_ID_PRORES { stream.pointee.codecpar.pointee.codec_tag = 0 }
        stream.pointee.time_base = source.pointee.time_base
        // VP9's alpha travels in WebM beside each picture (BlockAdditional); the demuxer marks such a
        // stream `alpha_mode`, which the muxer needs to declare the alpha again.
        if let tag = av_dict_get(source.pointee.metadata, "alpha_mode", nil, 0) {
            av_dict_set(&stream.pointee.metadata, "alpha_mode", tag.pointee.value, 0)
        }
        return stream.pointee.index
    }

    func writeHeader() throws(MarbleError) {
        OutputFile.registerTemporary(temporaryPath)
        try ffCheck(avio_open(&context.pointee.pb, temporaryPath, AVIO_FLAG_WRITE), .output, "\(destination): cannot write")
        isOpen = true
        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        let muxer = context.pointee.oformat.pointee.name.map { String(cString: $0) }
        for tag in metadata { av_dict_set(&context.pointee.metadata, tag.key, tag.value, 0) }
        // MP4 and MOV keep only the tags they know unless told to write the others as `mdta` keys.
        let tags = metadata.isEmpty ? "" : "+use_metadata_tags"
        if fragmented {
            // A recording is readable while it runs, and what a killed process wrote stays playable:
            // a fragment (MP4/MOV) or cluster (Matroska/WebM) closes at least once a second, and AVIO
            // hands every packet to the file at once rather than when its 32 KB buffer fills.
            av_dict_set(&options, "flush_packets", "1", 0)
            if muxer == "matroska" || muxer == "webm" { av_dict_set(&options, "cluster_time_limit", "1000", 0) }
        }
        if fragmented && (muxer == "mp4" || muxer == "mov") {
            av_dict_set(&options, "movflags", "+frag_keyframe+delay_moov+default_base_moof" + tags, 0)
            av_dict_set(&options, "frag_duration", "1000000", 0)
        } else if muxer == "mp4" {
            av_dict_set(&options, "movflags", "+faststart" + tags, 0)
        } else if muxer == "mov", !tags.isEmpty {
            av_dict_set(&options, "movflags", tags, 0)
        }
        try ffCheck(avformat_write_header(context, &options), .output, "\(destination): cannot write the header")
    }

    func timeBase(ofStream index: Int32) -> AVRational { context.pointee.streams[Int(index)]!.pointee.time_base }

    /// Writes one packet whose timestamps are in `timeBase`, into output stream `index`.
    /// Safe to call from two threads (one per stream).
    func write(_ packet: UnsafeMutablePointer<AVPacket>, stream index: Int32, timeBase: AVRational) throws(MarbleError) {
        lock.lock()
        defer { lock.unlock() }
        packet.pointee.stream_index = index
        av_packet_rescale_ts(packet, timeBase, self.timeBase(ofStream: index))
        packet.pointee.pos = -1
        try ffCheck(av_interleaved_write_frame(context, packet), .output, "\(destination): cannot write")
        try checkWrites()
    }

    /// AVIO keeps a failed write's error (a full disk: ENOSPC) in the context's `error`, and neither
    /// `av_interleaved_write_frame` nor `av_write_trailer` reliably returns it (FFmpeg 5.1 finished a
    /// file cut short at the disk's end without a word): checked after each.
    private func checkWrites() throws(MarbleError) {
        guard let pb = context.pointee.pb, pb.pointee.error < 0 else { return }
        throw MarbleError(.output, "\(destination): cannot write: \(ffErrorString(pb.pointee.error))")
    }

    /// Writes the trailer and moves the finished file into place.
    func finish() throws(MarbleError) {
        do throws(MarbleError) {
            try ffCheck(av_write_trailer(context), .output, "\(destination): cannot finish the file")
            try checkWrites()
            let closed = avio_closep(&context.pointee.pb)
            isOpen = false
            try ffCheck(closed, .output, "\(destination): cannot write")
            guard rename(temporaryPath, destination) == 0 else {
                throw MarbleError(.output, "\(destination): cannot move the finished file into place (\(String(cString: strerror(errno))))")
            }
            OutputFile.unregisterTemporary(temporaryPath)
        } catch {
            abort()
            throw error
        }
    }

    /// Drops the temporary file: nothing is left behind.
    func abort() {
        if isOpen { avio_closep(&context.pointee.pb); isOpen = false }
        unlink(temporaryPath)
        OutputFile.unregisterTemporary(temporaryPath)
    }
}
