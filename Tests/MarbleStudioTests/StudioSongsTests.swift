import Foundation
import MarbleCore
import Testing
import TestSupport
@testable import MarbleStudio

@Suite("Studio songs")
struct StudioSongsTests {
    /// The test's own folder, removed after it.
    private let scratch: StudioScratch

    init() throws { scratch = try StudioScratch() }

    /// A 1.5 s tone as MP3 with a title and an artist tag.
    static func taggedSong() throws -> String {
        try TestMedia.make("studio-tagged.mp3", ["-f", "lavfi", "-i", "sine=f=440:r=44100:d=1.5", "-c:a", "libmp3lame",
                                                 "-metadata", "title=Second Song", "-metadata", "artist=Some Body"])
    }

    @Test("every song under the folders, sorted by folder then path, with its tags, length and cover")
    func lists() throws {
        try scratch.copy(Self.taggedSong(), to: "one/b/02 second.mp3")
        try scratch.copy(TestMedia.tone("flac", seconds: 2), to: "one/a.flac")
        try scratch.copy(CoverMedia.song("m4a"), to: "one/covered.M4A")
        try scratch.copy(TestMedia.tone("wav"), to: "one/.hidden.wav")
        try scratch.copy(TestMedia.tone("wav"), to: "two/z.wav")
        try scratch.copy(TestMedia.tone("wav"), to: "elsewhere/out.wav")
        try scratch.file("one/notes.txt", "not a song")
        try scratch.file("one/broken.mp3", "not a song either")
        try scratch.link("one/inner.wav", to: "../two/z.wav")               // leads out of its folder: left out
        try scratch.link("one/again.flac", to: "a.flac")                     // stays inside: listed
        try scratch.link("one/loop", to: ".")                                // a link to a folder: not followed
        try scratch.link("one/outside.wav", to: scratch.path + "/elsewhere/out.wav")
        let folders = try StudioFolders(songs: [scratch.path + "/one", scratch.path + "/two"], milkDrop: nil,
                                        output: scratch.path + "/out")
        let songs = folders.songs()
        #expect(songs.map(\.path) == ["a.flac", "again.flac", "b/02 second.mp3", "covered.M4A", "z.wav"])
        #expect(songs.map(\.folder) == [0, 0, 0, 0, 1])
        #expect(songs.map(\.title) == ["a", "again", "Second Song", "covered", "z"])
        #expect(songs.map(\.artist) == ["", "", "Some Body", "", ""])
        #expect(songs.map(\.cover) == [false, false, false, true, false])
        // FLAC and WAV state their length exactly; MP3's is within a frame of it.
        #expect(abs((songs[0].duration ?? 0) - 2) < 0.001)
        #expect(abs((songs[2].duration ?? 0) - 1.5) < 0.06)
        #expect(abs((songs[4].duration ?? 0) - 1.5) < 0.001)
    }

    @Test("a second listing opens only the files that changed")
    func caches() throws {
        try scratch.copy(TestMedia.tone("wav"), to: "songs/a.wav")
        try scratch.copy(TestMedia.tone("flac"), to: "songs/b.flac")
        try scratch.file("songs/c.mp3", "broken")
        let folders = try StudioFolders(songs: [scratch.path + "/songs"], milkDrop: nil, output: scratch.path + "/out")
        let first = folders.songs()
        #expect(first.map(\.path) == ["a.wav", "b.flac"])
        #expect(folders.songCache.filesOpened == 3)
        #expect(folders.songs() == first)
        #expect(folders.songCache.filesOpened == 3)  // a file that does not open is remembered too
        // b.flac replaced by a two-second tone: its size changes, it is read again.
        try FileManager.default.removeItem(atPath: scratch.path + "/songs/b.flac")
        try scratch.copy(TestMedia.tone("flac", seconds: 2), to: "songs/b.flac")
        let third = folders.songs()
        #expect(folders.songCache.filesOpened == 4)
        #expect(abs((third[1].duration ?? 0) - 2) < 0.001)
    }

    @Test("folders deeper than 32 levels are not searched")
    func depth() throws {
        let deep = Array(repeating: "d", count: 32).joined(separator: "/")
        try scratch.copy(TestMedia.tone("wav"), to: "songs/\(deep)/deepest.wav")
        try scratch.copy(TestMedia.tone("wav"), to: "songs/\(deep)/d/too-deep.wav")
        let folders = try StudioFolders(songs: [scratch.path + "/songs"], milkDrop: nil, output: scratch.path + "/out")
        #expect(folders.songs().map(\.path) == ["\(deep)/deepest.wav"])
    }

    @Test("song extensions are matched without case; names without one are not songs")
    func extensions() {
        #expect(StudioFolders.isSong("a.MP3"))
        #expect(StudioFolders.isSong("x.y.webm"))
        #expect(!StudioFolders.isSong("mp3"))
        #expect(!StudioFolders.isSong(".mp3"))
        #expect(!StudioFolders.isSong("a.mp3.txt"))
        #expect(StudioFolders.songExtensions.count == 11)
    }

    @Test("a song encodes as the API's JSON")
    func json() throws {
        let song = StudioSong(path: "album/01 song.mp3", folder: 0, title: "Song", artist: "Artist", duration: 183.5, cover: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(String(decoding: try encoder.encode(song), as: UTF8.self)
                == #"{"artist":"Artist","cover":true,"duration":183.5,"folder":0,"path":"album/01 song.mp3","title":"Song"}"#)
    }
}
