import MarbleCore
import MarbleMedia

/// The video file as a frame sink: hands each frame's YUV picture to a ``MediaWriter``.
///
/// The file has a constant frame rate, so it holds every frame of the grid. When real time skipped
/// indices (dropped or idle frames), the last picture written is held over them, as a frame-doubling
/// player would: a picture may then come a little after its sound, never before it (filling a gap
/// with the picture that follows would show a beat before it is heard). Holding needs a copy of each
/// picture (one memcpy of the YUV planes per frame), so offline writers, whose frames are never
/// skipped, do without it.
package final class EncodingSink: FrameSink {
    package let writer: MediaWriter
    private let whenEmpty: (_ stopped: Bool) -> MarbleError
    /// Milliseconds spent in the encoder and muxer, summed over frames.
    package private(set) var encodeMilliseconds = 0.0
    /// When the first frame was written into the encoder, and when the last one was
    /// (``MonotonicClock``; 0 before the first).
    package private(set) var firstWritten: UInt64 = 0, lastWritten: UInt64 = 0
    private var lastIndex: Int
    /// Whether a stopped run keeps what it wrote (a playable file of the frames so far) or nothing (a
    /// segment: a piece cut short would only be refused when the pieces are joined).
    private let keepsPartialFile: Bool
    /// The last picture written, when skipped frames are expected (allocated with the first frame).
    private let holdsPictures: Bool
    private var held: YUVFrame?
    /// Called after every frame written, a held copy included, with the count of frames in the file: a
    /// sink that supplies the sound itself adds it frame by frame, so the sound never falls behind a run
    /// of held pictures (the writer would fill such a gap with silence, and the late sound would then
    /// make the file's sound longer than its picture).
    package var afterEachFrame: ((_ framesWritten: Int) throws(MarbleError) -> Void)?

    /// - Parameters:
    ///   - holdsPictures: whether indices may be skipped (a real-time source): then the last picture
    ///     is kept and written over the gap. Offline, a skipped index is a bug and the next picture
    ///     fills it.
    ///   - firstIndex: the index of the first frame (a segment of a longer render starts later than 0).
    ///   - keepsPartialFile: false when a stopped run must leave no file (see ``finish(stopped:)``).
    ///   - whenEmpty: the error to report when the run ends before the first frame, or is stopped
    ///     without `keepsPartialFile`.
    package init(writer: MediaWriter, holdsPictures: Bool = false, firstIndex: Int = 0, keepsPartialFile: Bool = true,
                 whenEmpty: @escaping (_ stopped: Bool) -> MarbleError) {
        self.writer = writer
        self.holdsPictures = holdsPictures
        self.lastIndex = firstIndex - 1
        self.keepsPartialFile = keepsPartialFile
        self.whenEmpty = whenEmpty
    }

    package var label: String { writer.path }
    /// YUV, or the premultiplied canvas for an encoding with alpha (``MediaWriter/takesCanvas``).
    package var needs: FrameNeeds { writer.takesCanvas ? .rgba : .yuv }
    package var framesWritten: Int { writer.framesWritten }

    package func consume(_ slot: FrameSlot) throws(MarbleError) {
        if writer.takesCanvas {
            // Alpha: offline only (no held pictures), one canvas per frame.
            guard let canvas = slot.canvas else { return }
            try writer.write(straightFrom: canvas)
            noteWritten()
            encodeMilliseconds += writer.lastEncodeMs
            lastIndex = slot.index
            try afterEachFrame?(writer.framesWritten)
            return
        }
        guard let yuv = slot.yuv else { return }
        let skipped = max(0, slot.index - lastIndex - 1)
        let filler = holdsPictures ? held ?? yuv : yuv
        for _ in 0..<skipped { try write(filler) }
        try write(yuv)
        lastIndex = slot.index
        if holdsPictures {
            if held == nil { held = try YUVFrame(width: yuv.width, height: yuv.height) }
            try held?.copy(from: yuv)
        }
    }

    private func write(_ picture: YUVFrame) throws(MarbleError) {
        try writer.write(picture)
        noteWritten()
        encodeMilliseconds += writer.lastEncodeMs
        try afterEachFrame?(writer.framesWritten)
    }

    private func noteWritten() {
        lastWritten = MonotonicClock.now()
        if firstWritten == 0 { firstWritten = lastWritten }
    }

    package func finish(stopped: Bool) throws(MarbleError) {
        guard writer.framesWritten > 0, keepsPartialFile || !stopped else {
            writer.abort()
            throw whenEmpty(stopped)
        }
        try writer.finish(trimAudio: stopped)
    }

    package func abort() { writer.abort() }
}
