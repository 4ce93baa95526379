/// Where a session's transport (a file, a playlist) is. Moves only through ``SessionComponent/Event``s:
///
/// ```
/// idle ─load→ loading ─loadFinished→ playing ⇄ paused   (transport: playPauseToggled)
///                │                      └─mediaEnded→ ended ─playPauseToggled→ playing
///                └─loadFailed→ failed(message)
/// ```
/// `load` from any status starts loading the new file; `mediaEnded` loads the next song when there is one.
public enum TransportStatus: Codable, Equatable, Sendable {
    /// No file opened yet.
    case idle
    /// A file is being opened (the load effect runs).
    case loading
    /// The sound plays and the position advances.
    case playing
    /// Paused at the current position.
    case paused
    /// Playback reached the end of the media; toggling play starts again from the beginning.
    case ended
    /// The file could not be opened; `message` is one sentence for the user.
    case failed(message: String)

    /// A file is loaded: there is a position to seek and show.
    public var hasMedia: Bool {
        switch self {
        case .playing, .paused, .ended: true
        case .idle, .loading, .failed: false
        }
    }
}
