import Foundation
import MarbleCore
import MarbleMedia
import Synchronization

/// One song as `GET /api/songs` lists it.
package struct StudioSong: Sendable, Equatable, Codable {
    /// The file's path relative to its folder (`album/01 song.mp3`).
    package var path: String
    /// The index of its folder among the song folders.
    package var folder: Int
    /// The title tag, else the file name without its extension.
    package var title: String
    /// The artist tag (else the album artist's), or "" when the file has neither.
    package var artist: String
    /// The length in seconds, when the file states it.
    package var duration: Double?
    /// Whether the file holds a cover picture.
    package var cover: Bool
}

extension StudioFolders {
    /// The extensions of the files listed as songs (lower case; the match ignores case).
    package static let songExtensions: Set<String> = ["mp3", "flac", "ogg", "opus", "wav", "m4a", "aac", "mp4", "mkv", "mov", "webm"]
    /// At most this many songs are listed, over all folders.
    package static let maximumSongs = 10_000
    /// Folders deeper than this below a song folder are not searched.
    package static let maximumDepth = 32
    /// Directory entries one listing looks at, at most (a folder of a million other files stays quick).
    static let maximumEntries = 200_000

    /// Every audio or video file under the song folders (by extension), sorted by folder then path,
    /// with what its tags say. Searched recursively, skipping hidden names (`.x`, among them uploads
    /// in progress) and links to folders; a link to a file is listed when its target is inside the
    /// folder. Files FFmpeg cannot open as sound are left out. What each file says is remembered by
    /// path, modification time and size, so a second listing opens only the files that changed.
    package func songs() -> [StudioSong] {
        var files: [(folder: Int, path: String)] = []
        var entries = 0
        for (index, root) in songFolders.enumerated() {
            var found: [String] = []
            Self.collect(in: root, under: "", root: root, depth: 0, into: &found, entries: &entries,
                         room: Self.maximumSongs - files.count)
            files += found.sorted().map { (index, $0) }
        }
        var songs: [StudioSong] = []
        var seen = Set<String>()
        for file in files {
            let absolute = songFolders[file.folder] + "/" + file.path
            seen.insert(absolute)
            if let facts = songCache.facts(of: absolute) {
                songs.append(facts.song(path: file.path, folder: file.folder))
            }
        }
        songCache.keep(only: seen)
        return songs
    }

    /// The song at `relative` in folder `folder` (for an upload's answer), or nil when it does not open.
    func song(relative: String, folder: Int) -> StudioSong? {
        songCache.facts(of: songFolders[folder] + "/" + relative)?.song(path: relative, folder: folder)
    }

    /// Appends the media files under `root/relative` (paths relative to `root`), in name order, until
    /// `room` are found or the entry budget is spent.
    private static func collect(in root: String, under relative: String, root top: String, depth: Int,
                                into found: inout [String], entries: inout Int, room: Int) {
        let folder = relative.isEmpty ? root : root + "/" + relative
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names.sorted() {
            guard found.count < room, entries < maximumEntries else { return }
            entries += 1
            guard !name.hasPrefix(".") else { continue }
            let path = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                if depth < maximumDepth {
                    collect(in: root, under: path, root: top, depth: depth + 1, into: &found, entries: &entries, room: room)
                }
            case S_IFREG:
                if isSong(name) { found.append(path) }
            case S_IFLNK:
                guard isSong(name), let target = StudioPath.real(folder + "/" + name),
                      StudioPath.isInside(target, top), StudioPath.kind(of: target) == S_IFREG else { continue }
                found.append(path)
            default:
                continue
            }
        }
    }

    /// Whether a file name has one of ``songExtensions``.
    static func isSong(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return songExtensions.contains(name[name.index(after: dot)...].lowercased())
    }
}

/// What a song file says of itself, read once per version of the file.
struct SongFacts: Sendable, Equatable {
    var title: String?
    var artist: String
    var duration: Double?
    var cover: Bool

    func song(path: String, folder: Int) -> StudioSong {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let stem = name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
        return StudioSong(path: path, folder: folder, title: title ?? stem, artist: artist, duration: duration, cover: cover)
    }

    /// Opens `path` with FFmpeg (AudioDecoder: the file must have a sound it can decode) and reads its
    /// tags, stated length and whether it has a cover; nil when it does not open.
    static func read(_ path: String) -> SongFacts? {
        guard let decoder = try? AudioDecoder(path: path) else { return nil }
        let tags = decoder.input.songTags(stream: decoder.streamIndex)
        func tag(_ name: String) -> String? {
            guard let value = tags[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
            return value
        }
        let duration = decoder.statedDuration ?? decoder.input.duration(ofStream: decoder.streamIndex)
        return SongFacts(title: tag("title"), artist: tag("artist") ?? tag("album_artist") ?? "",
                         duration: duration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil },
                         cover: (try? CoverArt.hasPicture(in: path)) ?? false)
    }
}

/// What the song files said, by absolute path, with the modification time and size they had then: a
/// file whose time or size changed is read again. Holds only the files of the last listing (and
/// uploads since), so at most ``StudioFolders/maximumSongs`` and a few.
final class SongCache: Sendable {
    private struct Stamp: Equatable {
        var seconds: Int, nanoseconds: Int, size: Int64
    }
    private struct Entry {
        var stamp: Stamp
        var facts: SongFacts?
    }
    private let entries = Mutex<[String: Entry]>([:])
    private let opened = Atomic<Int>(0)

    /// How many files have been opened to read their facts (for tests: a second listing opens none).
    var filesOpened: Int { opened.load(ordering: .relaxed) }

    /// The facts of the file at `path`: remembered when its time and size are those last seen, else read
    /// now. Nil when it cannot be examined or does not open.
    func facts(of path: String) -> SongFacts? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let stamp = Stamp(seconds: info.st_mtim.tv_sec, nanoseconds: info.st_mtim.tv_nsec, size: Int64(info.st_size))
        if let known = entries.withLock({ $0[path] }), known.stamp == stamp { return known.facts }
        opened.add(1, ordering: .relaxed)
        let facts = SongFacts.read(path)  // outside the lock: opening a file may take a while
        entries.withLock { $0[path] = Entry(stamp: stamp, facts: facts) }
        return facts
    }

    /// Forgets every file but `paths`.
    func keep(only paths: Set<String>) {
        entries.withLock { entries in entries = entries.filter { paths.contains($0.key) } }
    }
}
