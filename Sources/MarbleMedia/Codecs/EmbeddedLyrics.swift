import Foundation
import MarbleCore

/// The timed lyrics a media file carries in its tags: a `lyrics` tag (Vorbis comments, MP4's `©lyr`),
/// ID3's `USLT` frame (which FFmpeg names `lyrics-` and its language, `lyrics-eng`), or
/// `unsyncedlyrics`, whose text is LRC. A tag without times (plain words) cannot be placed on the
/// song and is passed over, as is one that does not parse: the tag is the file's, not the user's.
package enum EmbeddedLyrics {
    /// The first tag of `tags` (lower-case names, as ``MediaInput/songTags(stream:)`` gives them) that
    /// holds LRC lyrics with at least one timed line, parsed; nil when none does.
    package static func lyrics(in tags: [String: String]) -> Lyrics? {
        let names = ["lyrics"] + tags.keys.filter { $0.hasPrefix("lyrics-") }.sorted() + ["unsyncedlyrics", "syncedlyrics"]
        for name in names {
            guard let text = tags[name], text.utf8.count <= FileBounds.lyricsBytes else { continue }
            guard let lyrics = try? LyricsFormat.lrc.parse(Data(text.utf8), name: "the \(name) tag", kind: .input),
                  !lyrics.lines.isEmpty else { continue }
            return lyrics
        }
        return nil
    }
}
