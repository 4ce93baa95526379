/// What a play session measured, for the one-line summary after it and for performance work.
public struct PlayStatistics: Sendable {
    /// Frames drawn and frames dropped (due but skipped because the loop ran late).
    public var frames = 0
    public var dropped = 0
    /// Seconds of wall time the frame loop ran.
    public var seconds = 0.0
    /// The last picture size in cells.
    public var columns = 0, rows = 0
    /// Totals and maxima in milliseconds: compositor, half-block encoding, terminal write.
    public var renderTotal = 0.0, encodeTotal = 0.0, writeTotal = 0.0
    public var renderMax = 0.0, encodeMax = 0.0, writeMax = 0.0

    public init() {}

    mutating func record(render: Double, encode: Double, write: Double) {
        frames += 1
        renderTotal += render; encodeTotal += encode; writeTotal += write
        renderMax = max(renderMax, render); encodeMax = max(encodeMax, encode); writeMax = max(writeMax, write)
    }

    private func mean(_ total: Double) -> Double { frames > 0 ? total / Double(frames) : 0 }
    public var meanRender: Double { mean(renderTotal) }
    public var meanEncode: Double { mean(encodeTotal) }
    public var meanWrite: Double { mean(writeTotal) }
    public var framesPerSecond: Double { seconds > 0 ? Double(frames) / seconds : 0 }
}
