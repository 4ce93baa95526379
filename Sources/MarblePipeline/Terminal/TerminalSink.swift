import MarbleCore

/// The terminal as a frame sink: each frame in truecolor half blocks (two pixels per cell), with a
/// status line under it, sized to the window and following resizes.
///
/// When the render size is the cell grid (a terminal-only session, whose renderer follows the grid)
/// the canvas is encoded as it is; otherwise (a recording shown in the terminal too, or the frame
/// drawn just before a resize) it is sampled to the grid first, nearest pixel, into a texture kept
/// between frames. Only a resize allocates.
package final class TerminalSink: FrameSink {
    private let screen: TerminalScreen
    private let grid: TerminalGrid
    /// The status line's bytes for this frame (ASCII, one cell per byte).
    private let status: () -> [UInt8]
    /// The cell grid of the last frame.
    package private(set) var columns = 0, rows = 0
    private var renderer: HalfBlockRenderer?
    private var cells: Texture?
    /// Milliseconds the last frame spent encoding and writing.
    private(set) var lastMilliseconds = 0.0

    package init(screen: TerminalScreen, grid: TerminalGrid, status: @escaping () -> [UInt8]) {
        self.screen = screen
        self.grid = grid
        self.status = status
    }

    package var label: String { "terminal" }
    package var showsLatestOnly: Bool { true }
    package var needs: FrameNeeds { .rgba }

    package func consume(_ slot: FrameSlot) throws(MarbleError) {
        guard let canvas = slot.canvas else { return }
        let start = MonotonicClock.now()
        let now = grid.current
        if renderer == nil || now.columns != columns || now.rows != rows {
            columns = now.columns
            rows = now.rows
            renderer = HalfBlockRenderer(columns: columns, rows: rows)
            cells = nil
        }
        let picture: Texture
        if canvas.width == columns && canvas.height == 2 * rows {
            picture = canvas
        } else {
            if cells == nil { cells = Texture(width: columns, height: 2 * rows) }
            Self.sample(canvas, into: cells!)
            picture = cells!
        }
        let bytes = status().withUnsafeBytes { renderer!.encode(picture, status: $0) }
        try screen.write(bytes)
        lastMilliseconds = MonotonicClock.milliseconds(since: start)
    }

    package func finish(stopped: Bool) throws(MarbleError) {}
    package func abort() {}

    /// Nearest-pixel resampling of `source` onto `target` (both premultiplied RGBA).
    static func sample(_ source: Texture, into target: Texture) {
        let s = source.view, t = target.view
        for y in 0..<t.height {
            let sy = min(s.height - 1, (2 * y + 1) * s.height / (2 * t.height))
            let from = s.row32(sy), to = t.row32(y)
            for x in 0..<t.width {
                to[x] = from[min(s.width - 1, (2 * x + 1) * s.width / (2 * t.width))]
            }
        }
    }
}
