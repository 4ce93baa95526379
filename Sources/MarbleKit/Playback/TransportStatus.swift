/// Where the player's transport is. Moves only through ``PlayerComponent/Event``s:
///
/// ```
/// idle ─fileOpened→ loading ─loadFinished→ playing ⇄ paused   (playPauseToggled)
///                      │                      └─reachedEnd→ ended ─playPauseToggled→ playing
///                      └─loadFailed→ failed(message)
/// ```
/// `fileOpened` from any status starts loading the new file.
public enum TransportStatus: Codable, Equatable, Sendable {
    case idle
    case loading
    case playing
    case paused
    case ended
    case failed(message: String)

    /// A file is loaded: there is a position to seek and show.
    public var hasMedia: Bool {
        switch self {
        case .playing, .paused, .ended: true
        case .idle, .loading, .failed: false
        }
    }
}
