import MarbleCore
import MarbleMedia

/// Every frame as a PNG of a numbered sequence (``PNGSequenceWriter``), named by the frame's index.
/// A stopped run keeps the whole files written so far; a run that drew nothing is an error.
package final class PNGSequenceSink: FrameSink {
    package let writer: PNGSequenceWriter
    private let whenEmpty: (_ stopped: Bool) -> MarbleError

    /// - Parameter whenEmpty: the error to report when the run ends before the first frame.
    package init(writer: PNGSequenceWriter, whenEmpty: @escaping (_ stopped: Bool) -> MarbleError) {
        self.writer = writer
        self.whenEmpty = whenEmpty
    }

    package var label: String { writer.pattern.text }
    package var needs: FrameNeeds { .rgba }

    package func consume(_ slot: FrameSlot) throws(MarbleError) {
        guard let canvas = slot.canvas else { return }
        try writer.write(canvas, frame: slot.index)
    }

    package func finish(stopped: Bool) throws(MarbleError) {
        if writer.framesWritten == 0 { throw whenEmpty(stopped) }
    }

    package func abort() {}
}
