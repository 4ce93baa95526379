/// Where a live capture is in its life. Changes are reported through `AudioCapture.onStateChange`.
public enum CaptureState: Sendable, Equatable {
    /// Started, no server reached yet (with `waitForServer`, possibly for a long time).
    case connecting
    /// Receiving sound from the named source.
    case capturing(source: String)
    /// Lost the server or the source; trying again every 250 ms. The reason is one line, e.g.
    /// `PulseAudio server went away: Connection terminated`.
    case reconnecting(reason: String)
    /// `stop()` was called (or `start()` failed).
    case stopped
}
