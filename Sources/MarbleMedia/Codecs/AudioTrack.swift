internal import CFFmpeg
import MarbleCore

/// The output's sound, in one of three ways:
/// - from a file, copied packet for packet where the container can hold its codec (and no bitrate was
///   asked for): `av_read_frame` straight into the muxer, each packet's timestamps shifted by the
///   file's timeline origin (``AudioDecoder/timelineOrigin``), so a late start or a gap keeps its place
///   on the output's timeline (see MediaTimeline.swift), as it does in the decoded sound;
/// - from a file, decoded again and encoded (AAC for MP4/MOV/MKV, Opus for WebM) at the bitrate asked
///   for, or 160 kbit/s (96 for mono): an ``AudioTranscoder``;
/// - from samples handed over at run time (``append(left:right:)``, a live recording), encoded the same way.
///
/// A file is read through its own copy of the input, so the sound never waits on the render stages.
/// Whoever owns the track pulls it up to the time of the last video frame written (``write(upTo:)``),
/// which keeps the file interleaved and memory flat. Packets go through `Muxer.write`
/// (`av_interleaved_write_frame`).
///
/// Errors: a file without an audio stream or that cannot be opened (`.input`), an encoder that is
/// missing or refuses the settings (`.output`), samples given to a file's track, or failed writes
/// throw ``MarbleError``. A copy that breaks off ends the sound early with a warning (``warnings``).
final class AudioTrack {
    private let name: String
    private let muxer: any PacketDestination
    private(set) var outputStream: Int32 = 0
    private var strategy: Strategy
    private(set) var warnings: [String] = []
    /// Seconds of sound written so far (infinity once a file's sound has all been written).
    private(set) var writtenSeconds = 0.0

    private enum Strategy {
        /// The input, its audio stream, a packet, and the timeline origin in the stream's time base.
        case copy(MediaInput, Int32, Packet, origin: Int64)
        case encode(AudioTranscoder)
        case samples(AudioEncoder)
    }

    /// The sound of the file at `path`. `bitrate` in kbit/s (nil: copy when possible).
    init(path: String, format: OutputFormat, muxer: any PacketDestination, bitrate: Int? = nil) throws(MarbleError) {
        self.name = path
        self.muxer = muxer
        let probe = try MediaInput(path: path)
        guard let index = probe.bestStream(AVMEDIA_TYPE_AUDIO) else { throw MarbleError(.input, "\(path): has no audio stream") }
        let codec = probe.stream(index).pointee.codecpar.pointee.codec_id
        let copyable: Bool = switch format {
        case .mp4, .mov: codec == AV_CODEC_ID_AAC
        case .webm: codec == AV_CODEC_ID_OPUS || codec == AV_CODEC_ID_VORBIS
        case .mkv: muxer.canHold(codec) && codec != AV_CODEC_ID_NONE
        case .png: false
        }
        if copyable && bitrate == nil {
            outputStream = try muxer.addStream(copying: probe.stream(index))
            // The origin comes from a decoder: the first decoded sample (after any priming the container
            // says to skip) is what the timeline, and so the visuals, start from.
            let origin = try AudioDecoder(path: path).timelineOrigin
            let timeBase = probe.stream(index).pointee.time_base.doubleValue
            strategy = .copy(probe, index, try Packet(), origin: Int64((origin / timeBase).rounded()))
        } else {
            let transcoder = try AudioTranscoder(path: path, codecName: AudioTrack.codecName(for: format),
                                                 globalHeader: muxer.needsGlobalHeader, bitrate: bitrate)
            outputStream = try muxer.addStream(encoder: transcoder.encoder.context)
            strategy = .encode(transcoder)
        }
    }

    /// Sound handed over later with ``append(left:right:)``: `channels` (1 or 2) planar float channels
    /// at `sampleRate`, encoded at `bitrate` kbit/s (nil: 160, 96 for mono).
    init(sampleRate: Int, channels: Int, format: OutputFormat, muxer: any PacketDestination, bitrate: Int? = nil) throws(MarbleError) {
        self.name = "the recorded sound"
        self.muxer = muxer
        let encoder = try AudioEncoder(codecName: AudioTrack.codecName(for: format), inputSampleRate: sampleRate,
                                       channels: channels, bitrate: bitrate, globalHeader: muxer.needsGlobalHeader)
        outputStream = try muxer.addStream(encoder: encoder.context)
        strategy = .samples(encoder)
    }

    private static func codecName(for format: OutputFormat) -> String { format == .webm ? "libopus" : "aac" }

    /// Moves a packet's timestamps (those it has) by `ticks` of its stream's time base.
    private static func shift(_ packet: UnsafeMutablePointer<AVPacket>, by ticks: Int64) {
        if packet.pointee.pts != marble_av_nopts_value() { packet.pointee.pts += ticks }
        if packet.pointee.dts != marble_av_nopts_value() { packet.pointee.dts += ticks }
    }

    /// For a track made from samples: buffers one block of them (`right` nil for mono).
    func append(left: UnsafeBufferPointer<Float>, right: UnsafeBufferPointer<Float>?) throws(MarbleError) {
        guard case .samples(let encoder) = strategy else { throw MarbleError(.media, "\(name): takes no samples") }
        try encoder.append(left: left, right: right)
    }

    /// For a track made from samples: seconds of sound appended so far (nil for a file's sound).
    var appendedSeconds: Double? {
        guard case .samples(let encoder) = strategy else { return nil }
        return Double(encoder.samplesAppended) / Double(encoder.inputSampleRate)
    }

    /// For a track made from samples: appends silence until ``appendedSeconds`` reaches `seconds`.
    func appendSilence(upTo seconds: Double) throws(MarbleError) {
        guard case .samples(let encoder) = strategy else { return }
        let target = Int((seconds * Double(encoder.inputSampleRate)).rounded())
        try encoder.appendSilence(samples: target - encoder.samplesAppended)
    }

    /// Writes sound up to `seconds` (all of it when nil). A file's sound is written up to the first
    /// packet or frame that starts at or after `seconds`; samples in whole frames that end by then.
    func write(upTo seconds: Double?) throws(MarbleError) {
        let limit = seconds ?? .infinity
        switch strategy {
        case .copy(let input, let index, let packet, let origin):
            let stream = input.stream(index)
            let tb = stream.pointee.time_base
            while writtenSeconds < limit {
                switch input.read(into: packet.pointer) {
                case .packet:
                    defer { av_packet_unref(packet.pointer) }
                    guard packet.pointer.pointee.stream_index == index else { continue }
                    if origin != 0 { AudioTrack.shift(packet.pointer, by: -origin) }
                    let p = packet.pointer.pointee
                    let end = p.pts == marble_av_nopts_value() ? writtenSeconds : Double(p.pts + p.duration) * tb.doubleValue
                    writtenSeconds = max(writtenSeconds, end)
                    try muxer.write(packet.pointer, stream: outputStream, timeBase: tb)
                case .endOfFile:
                    writtenSeconds = .infinity
                case .damaged(let why):
                    warnings.append("\(name): audio copy stopped early (\(why))")
                    writtenSeconds = .infinity
                }
            }
        case .encode(let transcoder):
            try transcoder.encode(upTo: limit, into: muxer, stream: outputStream)
            writtenSeconds = transcoder.encodedSeconds
            warnings = transcoder.warnings
        case .samples(let encoder):
            try encoder.encode(upTo: limit) { (packet: UnsafeMutablePointer<AVPacket>) throws(MarbleError) in
                try muxer.write(packet, stream: outputStream, timeBase: encoder.timeBase)
            }
            writtenSeconds = encoder.encodedSeconds
        }
    }

    /// For a track made from samples: ends the sound at exactly `seconds` (what was appended past it is
    /// dropped, what is missing is silence) and drains the encoder.
    func finish(at seconds: Double) throws(MarbleError) {
        guard case .samples(let encoder) = strategy else { return try write(upTo: nil) }
        let total = Int64((seconds * Double(encoder.sampleRate)).rounded())
        try encoder.finish(totalSamples: total) { (packet: UnsafeMutablePointer<AVPacket>) throws(MarbleError) in
            try muxer.write(packet, stream: outputStream, timeBase: encoder.timeBase)
        }
        writtenSeconds = encoder.encodedSeconds
    }
}

/// A file's sound decoded again (``AudioDecoder``) and encoded (``AudioEncoder``), pulled block by block
/// as far as the caller asks. Damaged audio is skipped with the decoder's warnings; encoder and muxer
/// failures throw ``MarbleError``.
final class AudioTranscoder {
    let encoder: AudioEncoder
    private let decoder: AudioDecoder
    private let name: String
    private var decoderDone = false
    var warnings: [String] { decoder.warnings + [encoder.clipWarning(for: name)].compactMap { $0 } }

    /// Seconds encoded so far; infinity once everything has been.
    var encodedSeconds: Double { encoder.isFinished ? .infinity : encoder.encodedSeconds }

    /// `bitrate` in kbit/s; nil: 160 (96 for mono).
    init(path: String, codecName: String, globalHeader: Bool, bitrate: Int? = nil) throws(MarbleError) {
        name = path
        decoder = try AudioDecoder(path: path)
        encoder = try AudioEncoder(codecName: codecName, inputSampleRate: decoder.sampleRate, channels: decoder.channels,
                                   bitrate: bitrate, globalHeader: globalHeader)
    }

    /// Encodes frames until the next one would start at or after `seconds`, decoding as it needs,
    /// and writes their packets into `stream` of `muxer`.
    func encode(upTo seconds: Double, into muxer: any PacketDestination, stream: Int32) throws(MarbleError) {
        let encoder = encoder, timeBase = encoder.timeBase
        while !encoder.isFinished && encoder.encodedSeconds < seconds {
            let sent = try encoder.encodeFrame { (packet: UnsafeMutablePointer<AVPacket>) throws(MarbleError) in
                try muxer.write(packet, stream: stream, timeBase: timeBase)
            }
            if sent { continue }
            if decoderDone {
                try encoder.finish { (packet: UnsafeMutablePointer<AVPacket>) throws(MarbleError) in
                    try muxer.write(packet, stream: stream, timeBase: timeBase)
                }
                continue
            }
            var failure: MarbleError?
            let more = try decoder.decodeNext { left, right in
                do throws(MarbleError) { try encoder.append(left: left, right: right) } catch { failure = error }
            }
            if let failure { throw failure }
            if !more {
                decoderDone = true
                try encoder.endInput()
            }
        }
    }
}
