import MarbleCore

/// Where rendered frames go: an encoding (files and streams), a PNG, the terminal, a window.
/// Each sink is called on a thread of its own (``SinkWorker``), in frame order; several sinks read the
/// same slot at once, so a sink only reads it.
///
/// In real time, consecutive frames may skip indices (dropped or idle frames): a sink that must hold
/// every frame of the grid (a constant-rate file) repeats the last picture for the missing ones.
package protocol FrameSink: AnyObject {
    /// What the sink reads of each frame.
    var needs: FrameNeeds { get }
    /// Takes one rendered frame. Must not keep the slot (it goes back to the pool after the call).
    func consume(_ slot: FrameSlot) throws(MarbleError)
    /// Called once after the last frame: makes the output final (a file moved into place). `stopped`
    /// says the run was cut short (Ctrl-C): the output ends where the frames did.
    func finish(stopped: Bool) throws(MarbleError)
    /// Called instead of `finish` after an error: leaves nothing half-written behind.
    func abort()
    /// What the output is, for summaries ("window", a path, a URL).
    var label: String { get }
    /// A display: when it is behind, it skips to the newest frame waiting rather than show one late.
    var showsLatestOnly: Bool { get }
}

extension FrameSink {
    package var label: String { "output" }
    package var showsLatestOnly: Bool { false }
}
