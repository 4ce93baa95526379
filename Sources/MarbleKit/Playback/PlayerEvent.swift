extension PlayerComponent {
    /// What happened to the player. Each is named after the fact, not the intended action.
    public enum Event: Equatable, Sendable {
        /// The user opened a media file: loading starts (any load in flight is cancelled).
        case fileOpened(path: String)
        /// The file is ready (sent by the load effect): playing starts at 0.
        case loadFinished(duration: Double)
        /// The file could not be opened (sent by the load effect).
        case loadFailed(message: String)
        /// Play ⇄ pause; from `ended`, plays again from the start.
        case playPauseToggled
        /// Seek by a signed number of seconds, clamped to the media.
        case seekRequested(by: Double)
        /// The playback clock moved (a few times a second, not per frame). Only while playing.
        case positionAdvanced(to: Double)
        /// Playback reached the end of the media: the session ends there unless it keeps the media open.
        case reachedEnd
        /// A key or a signal every session shares (preset, sensitivity, quit), reduced by ``SessionControlsReducer``.
        case controls(ControlEvent)
    }
}
