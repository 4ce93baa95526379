import MarbleCore
import Testing
@testable import MarbleText

@Suite struct TextTemplateTests {
    private func filled(_ template: String, _ song: SongInfo?, at time: Double = 0) -> String {
        var out: [UInt32] = []
        TextTemplate(template).fill(&out, song: song, time: time)
        return String(String.UnicodeScalarView(out.compactMap(Unicode.Scalar.init)))
    }

    @Test("tags fill their fields, any tag by name, case-insensitively")
    func tags() {
        let song = SongInfo(tags: ["Title": "Halo", "ARTIST": "Ложь", "genre": "Pop"], duration: 200)
        #expect(filled("{artist} — {title}", song) == "Ложь — Halo")
        #expect(filled("{Genre}!", song) == "Pop!")
    }

    @Test("a missing tag renders empty; a line whose fields are all empty disappears; fallbacks")
    func missing() {
        let song = SongInfo(tags: ["title": "Halo"], duration: 200)
        #expect(filled("{title}\nAlbum: {album}\n{artist}", song) == "Halo")
        #expect(filled("{album}\n{title}", song) == "Halo")
        #expect(filled("by {artist|unknown}", song) == "by unknown")
        #expect(filled("{title}", nil) == "")
        #expect(filled("Now playing\n{title}", nil) == "Now playing")
        #expect(filled("{{title}} {title}", song) == "{title} Halo")
        #expect(filled("{title}\\n{artist|-}", song) == "Halo\n-", "backslash-n is a line break too")
    }

    @Test("clock fields: m:ss, h:mm:ss from an hour; remaining counts down; none without a song")
    func clock() {
        let song = SongInfo(tags: [:], duration: 200.2)
        #expect(filled("{elapsed} / {duration}", song, at: 65.9) == "1:05 / 3:20")
        #expect(filled("-{remaining}", song, at: 65.9) == "-2:15")
        #expect(filled("{elapsed}", song, at: 0) == "0:00")
        let long = SongInfo(tags: [:], duration: 4000)
        #expect(filled("{elapsed}", long, at: 62) == "0:01:02")
        #expect(filled("{remaining}", long, at: 0) == "1:06:40")
        #expect(filled("{elapsed}|{remaining}|{duration}", nil, at: 3725) == "1:02:05||")
    }
}
