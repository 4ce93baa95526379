/// The one sound input of a real-time session (`marble play`, `marble live`): a file, a playlist or a
/// capture. The store keeps the songs of a file or a playlist (its transport: load, seek, pause, the
/// end of the media) or the connection of a capture; the run step opens the engine that plays it.
public enum SessionInput: Sendable, Equatable {
    /// One file, heard through the speakers (or silently), the sound card being the clock.
    case file(String)
    /// Songs played one after another at real-time pace, from the first again with `loop`.
    case playlist([String], loop: Bool)
    /// A capture source (nil: the default sink's monitor).
    case capture(source: String?)

    /// The songs the transport plays (none for a capture).
    public var songs: [String] {
        switch self {
        case .file(let path): [path]
        case .playlist(let paths, _): paths
        case .capture: []
        }
    }

    /// Whether the songs start again from the first after the last.
    public var loops: Bool {
        if case .playlist(_, let loop) = self { return loop }
        return false
    }
}
