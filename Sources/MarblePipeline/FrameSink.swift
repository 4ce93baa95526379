import MarbleCore

/// Where rendered frames go: a video file, a PNG, the terminal (and, later, a window or a stream).
/// Sinks are called on the pipeline's sink thread, in frame order, one after another for each frame.
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
}
