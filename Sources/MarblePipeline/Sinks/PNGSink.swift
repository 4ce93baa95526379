import MarbleCore
import MarbleMedia

/// One frame as a PNG: the first frame the sink is given is written (atomically, by ``PNGWriter``).
package final class PNGSink: FrameSink {
    let path: String
    private let whenEmpty: (_ stopped: Bool) -> MarbleError
    private(set) var written = false

    /// - Parameter whenEmpty: the error to report when the run ends before the frame was drawn.
    package init(path: String, whenEmpty: @escaping (_ stopped: Bool) -> MarbleError) {
        self.path = path
        self.whenEmpty = whenEmpty
    }

    package var needs: FrameNeeds { .rgba }

    package func consume(_ slot: FrameSlot) throws(MarbleError) {
        guard !written, let canvas = slot.canvas else { return }
        try PNGWriter.write(canvas, to: path)
        written = true
    }

    package func finish(stopped: Bool) throws(MarbleError) {
        if !written { throw whenEmpty(stopped) }
    }

    package func abort() {}
}
