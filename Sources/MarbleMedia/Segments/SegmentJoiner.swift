internal import CFFmpeg
import Foundation
import MarbleCore

/// Joins the video-only pieces of one render into a single file by stream copy, and muxes the sound
/// once (copied or encoded, exactly as a one-pass render does: ``AudioTrack`` on a ``SoundThread``).
///
/// Pieces are appended in order, each with the frame index it starts at and the frame count it must
/// hold. Every packet keeps its place on the whole render's timeline: its timestamps are shifted so
/// that the piece's first picture lands at its first frame (`firstFrame / fps`), whatever timestamps
/// its container gave it. Since each piece is a closed-GOP stream that starts on a keyframe and was
/// encoded with the same settings, the copied bitstream decodes across every join as one stream: no
/// re-encoding, no glitch.
///
/// Checks (each a one-line error naming the file; the output is then abandoned, nothing is left
/// behind): a piece whose video codec, size, pixel format or codec headers differ from the first's;
/// one that does not start on a keyframe; one with more or fewer pictures than it should hold, or
/// whose file ends inside a picture (cut short).
package final class SegmentJoiner {
    private let muxer: Muxer
    private let outputStream: Int32
    private let sound: SoundThread?
    private let fps: Rational
    private let reference: VideoDescription
    private let packet: Packet
    /// Frames copied so far.
    package private(set) var framesWritten = 0

    /// What must be equal in every piece for their packets to form one stream.
    private struct VideoDescription: Equatable {
        var codec: UInt32, width: Int32, height: Int32, pixelFormat: Int32, extradata: [UInt8]

        init(_ p: UnsafeMutablePointer<AVCodecParameters>) {
            codec = p.pointee.codec_id.rawValue
            width = p.pointee.width
            height = p.pointee.height
            pixelFormat = p.pointee.format
            extradata = p.pointee.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(p.pointee.extradata_size))) } ?? []
        }

        var summary: String {
            let name = avcodec_get_name(AVCodecID(rawValue: codec)).map { String(cString: $0) } ?? "?"
            return "\(name) \(width)x\(height)"
        }
    }

    /// Opens the output (written under a temporary name until ``finish()``) with the video stream of
    /// `firstPiece` and the sound of `sound`.
    package init(output: String, format: OutputFormat, firstPiece: String, fps: Rational,
                 sound: MediaWriter.Sound) throws(MarbleError) {
        FFmpegLog.configure()
        let probe = try MediaInput(path: firstPiece)
        guard let index = probe.bestStream(AVMEDIA_TYPE_VIDEO) else {
            throw MarbleError(.input, "\(firstPiece): has no video stream")
        }
        let stream = probe.stream(index)
        reference = VideoDescription(stream.pointee.codecpar)
        self.fps = fps
        packet = try Packet()
        muxer = try Muxer(destination: output, format: format)
        do throws(MarbleError) {
            guard muxer.canHold(AVCodecID(rawValue: reference.codec)) else {
                throw MarbleError(.option, "\(output): a .\(format.rawValue) file cannot hold the pieces' \(reference.summary) video")
            }
            outputStream = try muxer.addStream(copying: stream)
            muxer.context.pointee.streams[Int(outputStream)]!.pointee.avg_frame_rate =
                AVRational(num: Int32(fps.numerator), den: Int32(fps.denominator))
            let track: AudioTrack? = switch sound {
            case .none, .samples: nil
            case .file(let path, let bitrate): try AudioTrack(path: path, format: format, muxer: muxer, bitrate: bitrate)
            }
            try muxer.writeHeader()
            self.sound = track.map { SoundThread(track: $0) }
        } catch {
            muxer.abort()
            throw error
        }
    }

    /// Copies the pictures of `path`, which must be frames `firstFrame ..< firstFrame + frames` of the
    /// render, and writes the sound up to their end; returning false from `shouldContinue` stops
    /// with a `.cancelled` error.
    package func append(_ path: String, firstFrame: Int, frames: Int, shouldContinue: () -> Bool) throws(MarbleError) {
        let input = try MediaInput(path: path)
        guard let index = input.bestStream(AVMEDIA_TYPE_VIDEO) else { throw MarbleError(.input, "\(path): has no video stream") }
        let stream = input.stream(index)
        let description = VideoDescription(stream.pointee.codecpar)
        guard description == reference else {
            let why = description.extradata != reference.extradata && description.summary == reference.summary
                ? "its encoder settings differ" : "its video is \(description.summary), the first piece's \(reference.summary)"
            throw MarbleError(.input, "\(path): \(why): not a piece of the same render")
        }
        let timeBase = stream.pointee.time_base
        let frameBase = AVRational(num: Int32(fps.denominator), den: Int32(fps.numerator))
        let reorder = Int64(stream.pointee.codecpar.pointee.video_delay)
        var offset: Int64?
        var copied = 0
        let p = packet.pointer
        reading: while shouldContinue() {
            switch input.read(into: p) {
            case .endOfFile: break reading
            case .damaged(let why): throw MarbleError(.input, "\(path): damaged after \(copied) frames (\(why))")
            case .packet: break
            }
            guard p.pointee.stream_index == index else { av_packet_unref(p); continue }
            // A file cut inside its last picture still lists it: the demuxer hands over what is there, marked corrupt.
            guard p.pointee.flags & AV_PKT_FLAG_CORRUPT == 0 else {
                av_packet_unref(p)
                throw MarbleError(.input, "\(path): cut short: frame \(copied + 1) of its \(frames) is incomplete (the file ends inside it)")
            }
            if offset == nil {
                guard p.pointee.flags & AV_PKT_FLAG_KEY != 0, p.pointee.pts != marble_av_nopts_value() else {
                    av_packet_unref(p)
                    throw MarbleError(.input, "\(path): does not start on a keyframe: not a piece rendered with --segment")
                }
                offset = av_rescale_q(Int64(firstFrame), frameBase, timeBase) - p.pointee.pts
            }
            if p.pointee.pts != marble_av_nopts_value() { p.pointee.pts += offset! }
            if p.pointee.dts != marble_av_nopts_value() {
                p.pointee.dts += offset!
            } else {
                // Matroska stores no decoding times: its first `reorder` pictures arrive without one (and a
                // muxer refuses them). A piece is CFR, so its n-th packet decodes at frame n − reorder.
                p.pointee.dts = av_rescale_q(Int64(firstFrame + copied) - reorder, frameBase, timeBase)
            }
            copied += 1
            guard copied <= frames else {
                av_packet_unref(p)
                throw MarbleError(.input, "\(path): holds more than the \(frames) frames its label gives")
            }
            try muxer.write(p, stream: outputStream, timeBase: timeBase)
            framesWritten += 1
            sound?.advance(to: fps.seconds(ofFrame: framesWritten))
        }
        if !shouldContinue() { throw MarbleError(.cancelled, "stopped while joining; no file written") }
        guard copied == frames else {
            throw MarbleError(.input, "\(path): holds \(copied) frames, its label \(frames) (cut short?)")
        }
    }

    /// Writes the rest of the sound and moves the file into place.
    package func finish() throws(MarbleError) {
        do throws(MarbleError) {
            try sound?.finish(upTo: nil)
            try muxer.finish()
        } catch {
            abort()
            throw error
        }
    }

    /// Drops the output: nothing is left behind.
    package func abort() {
        sound?.cancel()
        muxer.abort()
    }

    /// The sound's warnings (read after ``finish()``).
    package var warnings: [String] { sound?.warnings ?? [] }
}
