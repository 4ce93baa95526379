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
        /// A playlist's song started playing: its place in the list and its title.
        case songStarted(index: Int, title: String)
        /// A key or a signal every session shares (preset, sensitivity, quit), reduced by ``SessionControlsReducer``.
        case controls(ControlEvent)
        /// The frame source reached `--duration`.
        case durationReached
        /// The sound input ended: a playlist played to its end (a capture never ends by itself).
        case mediaEnded
        /// The component stopped (its Center's `onStop`, after the store cancelled its effects): a
        /// session still running ends as interrupted, and the capture is disconnected in any case (a
        /// disconnect started by an earlier outcome may have been cancelled with the other effects).
        case componentStopped
    }
}
