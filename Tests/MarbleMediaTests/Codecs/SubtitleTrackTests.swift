import Foundation
import MarbleCore
@testable import MarbleMedia
import TestSupport
import Testing

/// A file's text subtitle stream read as timed lines, whatever text codec carries it.
@Suite("SubtitleTrack")
struct SubtitleTrackTests {
    /// A 3-second tone with two cues muxed in as `codec` into `ext`.
    func media(_ ext: String, _ codec: String) throws -> String {
        let srt = TestMedia.folder.appendingPathComponent("cues-\(ext)-\(codec).srt")
        try "1\n00:00:00,500 --> 00:00:01,250\n<i>Hello</i> there\n\n2\n00:00:02,000 --> 00:00:02,750\nTwo\nrows\n"
            .write(to: srt, atomically: true, encoding: .utf8)
        return try TestMedia.make("subtitled-\(codec).\(ext)", [
            "-f", "lavfi", "-i", "sine=f=440:r=48000:d=3", "-i", srt.path, "-map", "0", "-map", "1", "-c:s", codec,
        ] + (ext == "mp4" ? ["-c:a", "aac"] : []))
    }

    @Test("SubRip and ASS in Matroska, mov_text in MP4: the cues' times and text, markup dropped, rows kept", arguments: [
        ("mkv", "srt"), ("mkv", "ass"), ("mp4", "mov_text"),
    ])
    func cues(ext: String, codec: String) throws {
        // On the output's timeline: Matroska's Vorbis sound starts a few milliseconds in, and time 0 is there.
        let path = try media(ext, codec)
        let lyrics = try #require(try SubtitleTrack.lyrics(in: path, origin: try AudioDecoder(path: path).timelineOrigin))
        #expect(lyrics.lines.map(\.text) == ["Hello there", "Two\nrows"])
        #expect(lyrics.lines.map(\.start) == [500, 2000])
        #expect(lyrics.lines.map(\.end) == [1250, 2750])
    }

    @Test("a file without subtitles has none")
    func none() throws {
        #expect(try SubtitleTrack.lyrics(in: try TestMedia.tone("wav"), origin: 0) == nil)
    }

    @Test("ASS rows: \\N breaks, \\h is a space, overrides dropped")
    func assRows() {
        #expect(LyricsFormat.captionRows(ASS: "{\\b1}One\\hword\\NTwo\\n") == ["One word", "Two"])
    }
}
