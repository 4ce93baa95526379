import Synchronization

/// The terminal's cell grid for the picture (all rows but the status line's), shared by the input
/// thread, which refreshes it after SIGWINCH, and the stages that follow it: the renderer (a
/// terminal-only session draws at the grid's pixel size) and the terminal sink.
package final class TerminalGrid: Sendable {
    private let cells: Mutex<(columns: Int, rows: Int)>

    package init(screen: TerminalScreen) {
        cells = Mutex(Self.grid(for: screen.size))
    }

    /// Reads the window size again (`ioctl`): after a resize.
    func refresh(from screen: TerminalScreen) {
        let grid = Self.grid(for: screen.size)
        cells.withLock { $0 = grid }
    }

    /// Cells across and down for the picture.
    var current: (columns: Int, rows: Int) { cells.withLock { $0 } }

    /// The picture's size in pixels: two pixels per cell, upper and lower.
    package var pixels: (width: Int, height: Int) {
        let c = current
        return (c.columns, 2 * c.rows)
    }

    /// The grid for a window of `size` cells: one row is the status line's.
    static func grid(for size: (columns: Int, rows: Int)) -> (columns: Int, rows: Int) {
        (max(1, size.columns), max(1, size.rows - 1))
    }
}
