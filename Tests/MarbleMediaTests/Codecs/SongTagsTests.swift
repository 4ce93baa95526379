import Foundation
import MarbleCore
@testable import MarbleMedia
import TestSupport
import Testing

/// A song's tags are found wherever its container keeps them: format metadata (MP3's ID3, MP4, FLAC)
/// or the audio stream's (Ogg Vorbis and Opus comments), in any script.
@Suite("Song tags")
struct SongTagsTests {
    @Test("title, artist and album come back from every container", arguments: [
        ("mp3", ["-c:a", "libmp3lame"]), ("m4a", ["-c:a", "aac"]), ("flac", []),
        ("ogg", ["-c:a", "libvorbis"]), ("opus", ["-c:a", "libopus"]),
    ])
    func tags(ext: String, codec: [String]) throws {
        let path = try TestMedia.make("tagged.\(ext)", [
            "-f", "lavfi", "-i", "sine=f=440:r=48000:d=0.5",
            "-metadata", "title=Звёздная ночь", "-metadata", "artist=  坂本龍一 ", "-metadata", "album=موسيقى",
        ] + codec)
        let decoder = try AudioDecoder(path: path)
        let song = SongInfo(tags: decoder.input.songTags(stream: decoder.streamIndex), duration: 0.5)
        #expect(song.tag("title") == "Звёздная ночь")
        #expect(song.tag("ARTIST") == "坂本龍一")
        #expect(song.tag("album") == "موسيقى")
    }

    @Test func aFileWithoutTagsHasNone() throws {
        let path = try TestMedia.make("untagged.wav", ["-f", "lavfi", "-i", "sine=f=440:r=48000:d=0.5",
                                                       "-map_metadata", "-1", "-fflags", "+bitexact"])
        let decoder = try AudioDecoder(path: path)
        let song = SongInfo(tags: decoder.input.songTags(stream: decoder.streamIndex))
        #expect(song.tag("title") == nil)
        #expect(song.duration == 0)
    }
}
