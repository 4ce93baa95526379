import MarbleCore
import Testing

@Suite struct SongInfoTests {
    @Test func tagNamesAreCaseFreeAndValuesTrimmed() {
        let song = SongInfo(tags: ["TITLE": "  Intro\n", "Artist": "A", "comment": "   "], duration: 12.5)
        #expect(song.tag("title") == "Intro")
        #expect(song.tag("artist") == "A")
        #expect(song.tag("comment") == nil)   // empty values are dropped
        #expect(song.duration == 12.5)
    }

    @Test func anUnknownLengthIsZero() {
        #expect(SongInfo(duration: .nan).duration == 0)
        #expect(SongInfo(duration: -3).duration == 0)
    }
}
