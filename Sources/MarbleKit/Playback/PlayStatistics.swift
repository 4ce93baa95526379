import MarblePipeline

/// What a play session measured, for the one-line summary after it and for performance work.
public struct PlayStatistics: Sendable {
    /// Frames drawn and frames dropped (due but skipped because they would have been late).
    public var frames = 0
    /// Frames that were due but skipped because they would have been shown late.
    public var dropped = 0
    /// Seconds of wall time the session ran.
    public var seconds = 0.0
    /// The last picture size in cells.
    public var columns = 0, rows = 0
    /// Mean milliseconds per frame: drawing (the compositor), and the terminal (half-block encoding
    /// and the write).
    public var meanRender = 0.0, meanTerminal = 0.0

    /// Zero everywhere: nothing measured yet.
    public init() {}

    init(pipeline s: PipelineStatistics, cells: (columns: Int, rows: Int)) {
        frames = s.frames
        dropped = s.dropped
        seconds = s.wallSeconds
        let n = Double(max(1, s.frames))
        meanRender = s.renderMilliseconds / n
        meanTerminal = s.sinkMilliseconds / n
        columns = cells.columns
        rows = cells.rows
    }

    /// Frames drawn per second of wall time (0 before a run).
    public var framesPerSecond: Double { seconds > 0 ? Double(frames) / seconds : 0 }
}
