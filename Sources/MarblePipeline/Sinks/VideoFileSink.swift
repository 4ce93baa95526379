import MarbleCore
import MarbleMedia

/// The video file as a frame sink: hands each frame's YUV picture to a ``VideoFileWriter``.
///
/// The file has a constant frame rate, so it holds every frame of the grid: when real time skipped
/// indices (dropped or idle frames), the frame that follows is written in their place as well, which
/// keeps the picture in step with the sound.
package final class VideoFileSink: FrameSink {
    package let writer: VideoFileWriter
    private let whenEmpty: (_ stopped: Bool) -> MarbleError
    /// Milliseconds spent in the encoder and muxer, summed over frames.
    package private(set) var encodeMilliseconds = 0.0
    private var lastIndex = -1

    /// - Parameter whenEmpty: the error to report when the run ends before the first frame.
    package init(writer: VideoFileWriter, whenEmpty: @escaping (_ stopped: Bool) -> MarbleError) {
        self.writer = writer
        self.whenEmpty = whenEmpty
    }

    package var needs: FrameNeeds { .yuv }
    package var framesWritten: Int { writer.framesWritten }

    package func consume(_ slot: FrameSlot) throws(MarbleError) {
        guard let yuv = slot.yuv else { return }
        let copies = max(1, slot.index - lastIndex)
        for _ in 0..<copies {
            try writer.write(yuv)
            encodeMilliseconds += writer.lastEncodeMs
        }
        lastIndex = slot.index
    }

    package func finish(stopped: Bool) throws(MarbleError) {
        guard writer.framesWritten > 0 else {
            writer.abort()
            throw whenEmpty(stopped)
        }
        try writer.finish(trimAudio: stopped)
    }

    package func abort() { writer.abort() }
}
