import MarbleMedia
extension LiveComponent {
    /// What happened to a live session, named after the fact.
    public enum Event: Equatable, Sendable {
        /// The session started: connecting to the capture begins (the connect effect).
        case sessionStarted
        /// The capture is running (sent by the connect effect), from the named source or, with
        /// `--wait`, still waiting for a server (nil).
        case captureStarted(source: String?)
        /// The capture could not start (sent by the connect effect).
        case captureFailed(kind: String, message: String)
        /// The capture reported a new state (connected, reconnecting, the default sink switched).
        case captureChanged(CaptureState)
        /// Next preset in the available list (wraps around).
        case nextPresetRequested
        /// Previous preset in the available list (wraps around).
        case previousPresetRequested
        /// The user picked a preset by name; ignored when the name is not available.
        case presetSelected(name: String)
        /// Sensitivity × ``Sensitivity/step``, clamped to ``Sensitivity/range``.
        case sensitivityRaised
        /// Sensitivity ÷ ``Sensitivity/step``, clamped to ``Sensitivity/range``.
        case sensitivityLowered
        /// The user pressed q.
        case quitRequested
        /// Ctrl-C or a termination signal.
        case interrupted
        /// The frame source reached `--duration`.
        case durationReached
        /// The component stopped (its Center's `onStop`, after the store cancelled its effects): a
        /// session still running ends as interrupted, and the capture is disconnected in any case (a
        /// disconnect started by an earlier outcome may have been cancelled with the other effects).
        case componentStopped
    }
}
