import Foundation
import MarbleCore
@testable import MarbleMedia
import TestSupport
import Testing

/// The timed lyrics a file carries in a tag, found under the names containers give them.
@Suite("EmbeddedLyrics")
struct EmbeddedLyricsTests {
    @Test("an LRC lyrics tag written by ffmpeg comes back as timed lines", arguments: [
        ("ogg", ["-c:a", "libvorbis"]), ("flac", []), ("m4a", ["-c:a", "aac"]),
    ])
    func fromFile(ext: String, codec: [String]) throws {
        let path = try TestMedia.make("lyrics-tagged.\(ext)", [
            "-f", "lavfi", "-i", "sine=f=440:r=48000:d=0.5",
            "-metadata", "lyrics=[ar:Someone]\n[00:00.20]Первая строка\n[00:01.50]<00:01.50>two <00:02.00>words",
        ] + codec)
        let decoder = try AudioDecoder(path: path)
        let lyrics = try #require(EmbeddedLyrics.lyrics(in: decoder.input.songTags(stream: decoder.streamIndex)))
        #expect(lyrics.lines.map(\.text) == ["Первая строка", "two words"])
        #expect(lyrics.lines.map(\.start) == [200, 1500])
        #expect(lyrics.lines[1].words.map(\.start) == [1500, 2000])
    }

    @Test("ID3's lyrics-<language> and unsyncedlyrics count; plain words without times and bad LRC do not")
    func names() {
        #expect(EmbeddedLyrics.lyrics(in: ["lyrics-eng": "[00:01.00]Hi"])?.lines.map(\.start) == [1000])
        #expect(EmbeddedLyrics.lyrics(in: ["unsyncedlyrics": "[00:02.00]Hi"])?.lines.map(\.start) == [2000])
        #expect(EmbeddedLyrics.lyrics(in: ["lyrics": "Just the words\nno times"]) == nil)
        #expect(EmbeddedLyrics.lyrics(in: ["lyrics": "[00:xx]Broken", "lyrics-eng": "[00:03.00]Fine"])?.lines.map(\.start) == [3000])
        #expect(EmbeddedLyrics.lyrics(in: ["title": "[00:01.00]Not lyrics"]) == nil)
    }
}
