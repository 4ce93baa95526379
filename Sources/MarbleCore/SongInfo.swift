/// What a render knows about the whole song before its first frame: its tags, its length, its
/// embedded cover picture, its waveform overview. Shared by every layer through ``FrameUniforms/song``; immutable.
///
/// A file render fills it from the input (tags from the container and the audio stream, the length
/// from the analysis pass); a live session has no song (``FrameUniforms/song`` is nil) unless a
/// program gives one. Shaders read it in `prepare` (text fields, the cover layer) and must draw
/// something sensible without it.
public final class SongInfo: Sendable {
    /// The file's tags by lower-case name (`title`, `artist`, `album`, `date`, `genre`, …); values as
    /// the file has them, trimmed. Empty when the file has none.
    public let tags: [String: String]
    /// The song's length in seconds (0 when unknown, as in a live session).
    public let duration: Double
    /// The song's embedded cover picture (an attached picture stream), premultiplied RGBA at the
    /// picture's own size, or nil when the file has none.
    public let cover: Texture?
    /// The whole song's waveform envelope (peak and RMS per bin), from the analysis pass, or nil when
    /// unknown (a live session).
    public let overview: WaveformOverview?
    /// The song's timed lyrics or captions (`--lyrics`, `--captions`, or the file's own), which the
    /// `lyrics` layer draws, or nil when there are none.
    package let lyrics: Lyrics?

    /// A song; see the properties. Tag names are lower-cased and values trimmed here; empty values
    /// are dropped.
    public init(tags: [String: String] = [:], duration: Double = 0, cover: Texture? = nil,
                overview: WaveformOverview? = nil) {
        self.tags = Self.normalised(tags)
        self.duration = duration.isFinite && duration > 0 ? duration : 0
        self.cover = cover
        self.overview = overview
        self.lyrics = nil
    }

    /// A song with timed lyrics; the other values as in the public initialiser.
    package init(tags: [String: String] = [:], duration: Double = 0, cover: Texture? = nil,
                 overview: WaveformOverview? = nil, lyrics: Lyrics?) {
        self.tags = Self.normalised(tags)
        self.duration = duration.isFinite && duration > 0 ? duration : 0
        self.cover = cover
        self.overview = overview
        self.lyrics = lyrics
    }

    private static func normalised(_ tags: [String: String]) -> [String: String] {
        var normalised: [String: String] = [:]
        for (name, value) in tags {
            let trimmed = value.trimmingWhitespace()
            guard !trimmed.isEmpty else { continue }
            normalised[name.lowercased()] = trimmed
        }
        return normalised
    }

    /// The tag named `name` (any case), or nil.
    public func tag(_ name: String) -> String? { tags[name.lowercased()] }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks (no Foundation needed).
    fileprivate func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
