import Foundation
import MarbleCore
import Testing

@Suite("LRCParser: synced lyrics, word timing, offsets and bad lines")
struct LRCParserTests {
    func parse(_ text: String) throws -> Lyrics { try LyricsFormat.lrc.parse(Data(text.utf8), name: "song.lrc") }

    @Test("lines with one or several times, metadata ignored, an empty line ending the one before, the last open")
    func lines() throws {
        let lyrics = try parse("""
            [ar:Someone]
            [ti:A Song]
            [00:01.50]First line
            [00:04.00][00:10.25]Chorus
            [00:06.5]
            [01:02.345]Last

            """)
        #expect(lyrics.lines.map(\.text) == ["First line", "Chorus", "Chorus", "Last"])
        #expect(lyrics.lines.map(\.start) == [1500, 4000, 10250, 62345])
        #expect(lyrics.lines.map(\.end) == [4000, 6500, 62345, Lyrics.open])
        #expect(lyrics.lines.allSatisfy { $0.words.isEmpty })
    }

    @Test("a positive [offset:] shows the lyrics sooner, a negative one later; times never go below 0")
    func offset() throws {
        let sooner = try parse("[offset:+500]\n[00:00.20]A\n[00:02.00]B\n")
        #expect(sooner.lines.map(\.start) == [0, 1500])
        let later = try parse("[00:02.00]B\n[offset:-250]\n")
        #expect(later.lines.map(\.start) == [2250])
    }

    @Test("enhanced LRC: each <time> starts a word, a last tag ends the last word")
    func words() throws {
        let lyrics = try parse("[00:10.00]<00:10.00>Hel<00:10.50>lo <00:11.00>you<00:12.00>\n[00:14.00]<00:14.00>Again\n")
        let first = lyrics.lines[0]
        #expect(first.text == "Hello you")
        #expect(first.words == [Lyrics.Word(scalars: 0..<3, start: 10000, end: 10500),
                                Lyrics.Word(scalars: 3..<6, start: 10500, end: 11000),
                                Lyrics.Word(scalars: 6..<9, start: 11000, end: 12000)])
        // No closing tag on the last line: its last word lasts a second.
        #expect(lyrics.lines[1].words == [Lyrics.Word(scalars: 0..<5, start: 14000, end: 15000)])
    }

    @Test("any script passes through as text, word ranges count Unicode scalars")
    func scripts() throws {
        let lyrics = try parse("[00:01.00]<00:01.00>سلام <00:01.40>日本語\n")
        #expect(lyrics.lines[0].text == "سلام 日本語")
        #expect(lyrics.lines[0].words.map(\.scalars) == [0..<5, 5..<8])
    }

    @Test("bad lines are one error naming the file, the line and the fault", arguments: [
        ("[00:01.00]ok\nno time here\n", "song.lrc, line 2: no [mm:ss.xx] time before the text"),
        ("[00:61.00]x\n", "song.lrc, line 1: [00:61.00] is not a time like [01:23.45]"),
        ("\n\n[00:01.0x]x\n", "song.lrc, line 3: [00:01.0x] is not a time like [01:23.45]"),
        ("[00:01.00 x\n", "song.lrc, line 1: a [ without its ]"),
        ("[offset:soon]\n", "song.lrc, line 1: [offset:soon] is not a number of milliseconds like +250 or -100"),
        ("[00:01.00]<00:01.00>a <0:xx>b\n", "song.lrc, line 1: <0:xx> is not a word time like <01:23.45>"),
        ("[00:01.00]<00:01.00 a\n", "song.lrc, line 1: a < without its >"),
    ])
    func errors(file: String, message: String) {
        #expect(throws: MarbleError(.option, message)) { try parse(file) }
    }
}
