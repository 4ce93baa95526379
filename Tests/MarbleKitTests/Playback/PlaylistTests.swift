import Foundation
import MarbleCore
@testable import MarbleKit
import TestSupport
import Testing

@Suite struct PlaylistTests {
    @Test("M3U: comments and tags skipped, relative paths from the playlist's folder, file:// URLs, other URLs kept")
    func parse() {
        let text = "\u{FEFF}#EXTM3U\n#EXTINF:123,Artist - Title\nsong one.mp3\r\n\n  /abs/two.flac  \nfile:///music/three%20x.ogg\nhttp://radio/stream\n"
        let songs = Playlist.parse(text, relativeTo: URL(fileURLWithPath: "/lists"))
        #expect(songs == ["/lists/song one.mp3", "/abs/two.flac", "/music/three x.ogg", "http://radio/stream"])
    }

    @Test("lines end at LF, CR or CRLF only: a name with U+2028, NEL or a form feed in it stays one song")
    func lineBreaks() {
        let text = "a\u{2028}b.mp3\rc\u{85}d.mp3\r\ne\u{0C}f.mp3\n"
        let songs = Playlist.parse(text, relativeTo: URL(fileURLWithPath: "/l"))
        #expect(songs == ["/l/a\u{2028}b.mp3", "/l/c\u{85}d.mp3", "/l/e\u{0C}f.mp3"])
    }

    @Test("a file:// URL with no path (file://host, file://) stays as written, never an empty name")
    func fileURLWithoutPath() {
        let songs = Playlist.parse("file://INng\nfile://\nfile:///a%20b.mp3\nfile:///c d.mp3\n", relativeTo: URL(fileURLWithPath: "/l"))
        #expect(songs == ["file://INng", "file://", "/a b.mp3", "/c d.mp3"])
    }

    @Test("files and playlists expand in order; an empty or unreadable playlist is one clear error")
    func expand() throws {
        let folder = TestMedia.output("playlist-\(getpid())")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let list = folder + "/a.m3u8"
        try "b.wav\nc.wav\n".write(toFile: list, atomically: true, encoding: .utf8)
        #expect(try Playlist.expand(["x.wav", list, "y.wav"]) == ["x.wav", folder + "/b.wav", folder + "/c.wav", "y.wav"])
        let empty = folder + "/empty.m3u"
        try "#EXTM3U\n".write(toFile: empty, atomically: true, encoding: .utf8)
        #expect(throws: MarbleError.self) { try Playlist.expand([empty]) }
        #expect(throws: MarbleError.self) { try Playlist.expand([folder + "/missing.m3u"]) }
    }

    @Test("a playlist over 1 MB, or naming more than 10,000 songs in all, is one line naming it")
    func bounds() throws {
        let folder = TestMedia.output("playlist-bounds-\(getpid())")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let big = folder + "/big.m3u"
        try String(repeating: "# a comment line of the playlist, repeated\n", count: 30_000).write(toFile: big, atomically: true, encoding: .utf8)
        #expect(throws: MarbleError(.input, "\(big): larger than the 1024 KB a playlist may be")) { try Playlist.expand([big]) }
        let many = folder + "/many.m3u"
        try (0..<6_000).map { "song\($0).mp3" }.joined(separator: "\n").write(toFile: many, atomically: true, encoding: .utf8)
        #expect(try Playlist.expand([many]).count == 6_000)
        #expect(throws: MarbleError(.input, "\(many): more than 10000 songs in all: split the playlist")) { try Playlist.expand([many, many]) }
    }
}
