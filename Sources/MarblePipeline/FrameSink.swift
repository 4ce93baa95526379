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
    /// Seconds one call into the sink may last before the pipeline gives up on it (a window on a frozen
    /// X server, a write to a hung mount): the sink is abandoned where it is, reported, and the run
    /// ends without it (see ``SinkWorker``).
    var stallLimit: Double { get }
}

extension FrameSink {
    package var label: String { "output" }
    package var showsLatestOnly: Bool { false }
    /// A display 2 s (a present takes a refresh period; two seconds is a display that stopped); any
    /// other sink 30 s (one call may be a finish that flushes an encoder's lookahead and writes the
    /// file's end on a loaded machine: it must never be cut short while it works).
    package var stallLimit: Double { showsLatestOnly ? 2 : 30 }
}

/// What a sink's error does to a run.
package enum SinkFailureRule: Sendable {
    /// Ends the run, every other sink aborted (`render`: all of its outputs or none).
    case stopsRun
    /// Closes that sink alone (its output removed, a line in ``PipelineStatistics/failedOutputs``)
    /// while the others go on; the run fails only when every sink has failed (`play`, `live`: a
    /// recording survives a lost window or a full disk beside it).
    case closesSink
}
