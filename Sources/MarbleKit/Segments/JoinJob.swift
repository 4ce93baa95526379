import Foundation
import MarbleCore
import MarbleMedia

/// What `marble join` needs.
package struct JoinOptions: Sendable {
    /// The pieces, in any order (`part-*.mp4`).
    package var pieces: [String]
    /// The video to write: .mp4, .mkv or .mov for H.264 pieces; .webm or .mkv for VP9 ones.
    package var output: String
    /// The sound to mux in once. nil: the input the pieces were rendered from, where their label says
    /// it is. Its bytes must be the input's.
    package var audio: String?
    /// A video without sound.
    package var noAudio = false
    /// Sound bitrate in kbit/s, as ``RenderOptions/audioBitrate``: nil copies where the container can.
    package var audioBitrate: Int?

    /// Options to join `pieces` into `output`, with the pieces' own input as the sound.
    package init(pieces: [String], output: String) {
        self.pieces = pieces
        self.output = output
    }
}

/// What a finished join reports.
package struct JoinSummary: Sendable {
    /// The file written.
    package var output: String
    /// Frames in it: the one-pass render's count.
    package var frames: Int
    /// Pieces joined.
    package var pieces: Int
    /// Seconds of video.
    package var mediaSeconds: Double
    /// Seconds the join took.
    package var wallSeconds: Double
    /// Size of the file in bytes.
    package var bytes: Int
    /// The sound file muxed in, if any.
    package var audio: String?
    /// Problems that did not stop the join (damaged sound skipped), one sentence each.
    package var warnings: [String]
}

/// Joins the pieces of a render made with ``RenderOptions/segment`` into the one-pass render's video:
/// checks their labels (``SegmentLabel``) before anything is written, then copies their packets in
/// frame order (no re-encoding) and muxes the sound once (MarbleMedia's `SegmentJoiner`).
///
/// Checks, each a one-line error naming the file: a file that is not a piece; pieces of different
/// renders (settings or input); two pieces holding the same frames, or overlapping ones; frames no
/// piece holds (naming the missing piece, `3/8`, when they were cut with K/N); a device or FIFO as a
/// piece or as the sound (refused before it is read: it could never end); a sound file whose bytes are
/// not the pieces' input; an output that is one of the inputs (a piece, the sound, or the input the
/// labels name). While copying: a piece with more or fewer pictures than its label, one whose file
/// ends inside a picture, or other codec headers. Nothing is written unless all pass.
package final class JoinJob {
    /// The options as given.
    package let options: JoinOptions
    /// The pieces in frame order, with their labels.
    package let plan: [(path: String, label: SegmentLabel)]
    /// The sound muxed in (nil: none).
    package let audio: String?
    private let format: OutputFormat

    /// Reads every piece's label and checks that they make one whole render; nothing is written.
    package init(options: JoinOptions) throws(MarbleError) {
        self.options = options
        guard !options.pieces.isEmpty else { throw MarbleError(.option, "marble join: give the pieces to join (part-*.mp4)") }
        guard let format = OutputFormat(path: options.output), format != .png else {
            throw MarbleError(.option, "\(options.output): the joined video must be .mp4, .mkv, .mov or .webm")
        }
        self.format = format
        if let bitrate = options.audioBitrate, !(16...512).contains(bitrate) {
            throw MarbleError(.option, "--audio-bitrate \(bitrate): must be between 16 and 512 (kbit/s)")
        }
        if options.noAudio && options.audio != nil { throw MarbleError(.option, "--audio and --no-audio: give one of them") }

        var labelled: [(path: String, label: SegmentLabel)] = []
        for path in options.pieces { try InputFile.requireRegularFile(path, as: "a piece") }
        if let audio = options.audio { try InputFile.requireRegularFile(audio, as: "the --audio sound") }
        for path in options.pieces {
            guard let label = SegmentLabel(tags: try MediaInput(path: path).tags) else {
                throw MarbleError(.input, "\(path): not a piece of a marble render (no segment label: render pieces with --segment K/N)")
            }
            labelled.append((path, label))
        }
        let first = labelled[0]
        for piece in labelled.dropFirst() {
            let (a, b) = (first.label, piece.label)
            if b.inputID != a.inputID {
                throw MarbleError(.input, "\(piece.path): rendered from another input (\(b.input)) than \(first.path) (\(a.input))")
            }
            if b.render != a.render || b.fps != a.fps || b.totalFrames != a.totalFrames {
                throw MarbleError(.input, "\(piece.path): from another render than \(first.path): \"\(b.render)\" where it has \"\(a.render)\"")
            }
        }
        plan = labelled.sorted { ($0.label.frames.lowerBound, $0.path) < ($1.label.frames.lowerBound, $1.path) }
        try Self.checkCoverage(plan)

        if options.noAudio {
            audio = nil
        } else {
            let path = options.audio ?? first.label.input
            let given = options.audio != nil
            guard path != "-", FileManager.default.fileExists(atPath: path) else {
                throw MarbleError(.input, "the pieces' input \(path) is not here: give the sound with --audio FILE, or --no-audio")
            }
            if !given { try InputFile.requireRegularFile(path, as: "the pieces' input (their sound)") }
            guard try Fingerprint.of(file: path) == first.label.inputID else {
                let what = given ? "--audio \(path)" : "\(path) (the pieces' input)"
                throw MarbleError(.input, "\(what): not the file the pieces were rendered from (its bytes differ)")
            }
            audio = path
        }
        try Self.checkOutput(options.output, plan: plan, audio: audio)
    }

    /// The output must not be an input it knows of, however the path is spelled (same device and inode):
    /// a piece, the sound, or the input named in the pieces' labels even when its sound is not used
    /// (`--no-audio`, `--audio`). It must be replaceable, in a folder that exists.
    private static func checkOutput(_ output: String, plan: [(path: String, label: SegmentLabel)], audio: String?) throws(MarbleError) {
        var inputs = plan.map { (path: $0.path, role: "a piece") }
        if let audio { inputs.append((audio, "the sound")) }
        let labelled = plan[0].label.input
        if !labelled.isEmpty && labelled != "-" { inputs.append((labelled, "the pieces' input")) }
        try OutputFile.checkNotAnInput(output, inputs: inputs)
        _ = try OutputFile.checkReplaceable(output)
        try OutputFile.checkFolder(of: output)
    }

    /// Frames 0 ..< total, each in exactly one piece.
    private static func checkCoverage(_ plan: [(path: String, label: SegmentLabel)]) throws(MarbleError) {
        let total = plan[0].label.totalFrames
        var next = 0
        var previous: (path: String, label: SegmentLabel)?
        for piece in plan {
            let frames = piece.label.frames
            if let previous, frames.lowerBound < next {
                if previous.label.frames == frames {
                    throw MarbleError(.input, "\(previous.path) and \(piece.path) both hold frames \(describe(frames)) (segment \(piece.label.segment)): keep one")
                }
                throw MarbleError(.input, "\(piece.path) (frames \(describe(frames))) overlaps \(previous.path) (frames \(describe(previous.label.frames))): pieces of different cuts")
            }
            if frames.lowerBound > next { throw missing(next..<frames.lowerBound, of: total, plan: plan) }
            next = frames.upperBound
            previous = piece
        }
        if next < total { throw missing(next..<total, of: total, plan: plan) }
    }

    /// The error for frames no piece holds, naming the missing pieces when the others were cut K/N.
    private static func missing(_ gap: Range<Int>, of total: Int, plan: [(path: String, label: SegmentLabel)]) -> MarbleError {
        let pieces = plan.compactMap { try? RenderSegment.piece(parsing: $0.label.segment) }
        if pieces.count == plan.count, case .piece(_, let n)? = pieces.first {
            let names = (1...n).filter { k in
                guard let range = try? RenderSegment.piece(k, of: n).range(totalFrames: total) else { return false }
                return range.overlaps(gap)
            }.map { "\($0)/\(n)" }
            return MarbleError(.input, "frames \(describe(gap)) of \(total) are missing: segment \(names.joined(separator: ", ")) is not among the pieces")
        }
        return MarbleError(.input, "frames \(describe(gap)) of \(total) are missing: no piece holds them")
    }

    private static func describe(_ frames: Range<Int>) -> String { "\(frames.lowerBound)-\(frames.upperBound - 1)" }

    /// Copies the pieces and the sound into the output. `progress` receives the frames written so far
    /// after each piece. Stopped (`cancel`), or on any error, it leaves no file.
    package func run(cancel: CancellationFlag = CancellationFlag(),
                    progress: (_ frames: Int, _ total: Int) -> Void = { _, _ in }) throws(MarbleError) -> JoinSummary {
        let started = MonotonicClock.now()
        let fps = plan[0].label.fps
        let total = plan[0].label.totalFrames
        let sound: MediaWriter.Sound = audio.map { .file(path: $0, bitrate: options.audioBitrate) } ?? .none
        let joiner = try SegmentJoiner(output: options.output, format: format, firstPiece: plan[0].path, fps: fps, sound: sound)
        do throws(MarbleError) {
            for piece in plan {
                try joiner.append(piece.path, firstFrame: piece.label.frames.lowerBound, frames: piece.label.frames.count,
                                  shouldContinue: { !cancel.isCancelled })
                progress(joiner.framesWritten, total)
            }
            try joiner.finish()
        } catch {
            joiner.abort()
            throw error
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: options.output)[.size] as? Int) ?? 0
        return JoinSummary(output: options.output, frames: joiner.framesWritten, pieces: plan.count,
                           mediaSeconds: fps.seconds(ofFrame: joiner.framesWritten),
                           wallSeconds: Double(MonotonicClock.now() - started) / 1e9, bytes: bytes, audio: audio,
                           warnings: joiner.warnings)
    }
}
