import Foundation
import MarbleCore

/// The songs `marble play` was given: files, and M3U playlists (`.m3u`, `.m3u8`) expanded in place.
///
/// An M3U is a list of lines: `#` lines are comments or tags (`#EXTM3U`, `#EXTINF`), the others name a
/// song: a path (relative to the playlist's folder), a `file://` URL, or any URL FFmpeg reads.
public enum Playlist {
    /// The songs to play, in order: each input as it is, except M3U playlists, replaced by the songs they name (relative paths resolved against the playlist's folder).
    ///
    /// - Throws: `.input` for a playlist that cannot be read, or one that names nothing.
    public static func expand(_ inputs: [String]) throws(MarbleError) -> [String] {
        var songs: [String] = []
        for input in inputs {
            guard isPlaylist(input) else {
                songs.append(input)
                continue
            }
            let data = try FileBounds.read(input, limit: FileBounds.playlistBytes, what: "playlist", kind: .input)
            guard let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else {
                throw MarbleError(.input, "\(input): cannot read the playlist")
            }
            let folder = URL(fileURLWithPath: input).deletingLastPathComponent()
            let entries = parse(text, relativeTo: folder)
            guard !entries.isEmpty else { throw MarbleError(.input, "\(input): the playlist names no song") }
            guard songs.count + entries.count <= FileBounds.playlistEntries else {
                throw MarbleError(.input, "\(input): more than \(FileBounds.playlistEntries) songs in all: split the playlist")
            }
            songs += entries
        }
        return songs
    }

    /// Whether `path` names an M3U playlist (by its extension).
    public static func isPlaylist(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".m3u") || lower.hasSuffix(".m3u8")
    }

    /// The songs an M3U text names, in order, relative paths resolved against `folder`. Lines end at
    /// LF, CR or CRLF only, as players write them: other Unicode line breaks (U+2028, NEL, a form
    /// feed, which a Latin-1 byte 0x85 decodes to) can be part of a file name.
    static func parse(_ text: String, relativeTo folder: URL) -> [String] {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).compactMap { raw -> String? in
            var line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("\u{FEFF}") { line.removeFirst() }
            guard !line.isEmpty, !line.hasPrefix("#") else { return nil }
            if line.hasPrefix("file://") {
                // A URL with no path (`file://host`, `file://`) stays as written: the decoder names it.
                let path = URL(string: line)?.path ?? String(line.dropFirst(7))
                return path.isEmpty ? line : path
            }
            if line.contains("://") || line.hasPrefix("/") { return line }
            return folder.appendingPathComponent(line).path
        }
    }
}
