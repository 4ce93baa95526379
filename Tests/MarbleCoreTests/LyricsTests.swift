import MarbleCore
import Testing

@Suite("Lyrics: the line shown at a frame's time, frame-exactly")
struct LyricsTests {
    let lyrics = Lyrics(lines: [
        Lyrics.Line(start: 1300, end: 2000, text: "a", words: []),
        Lyrics.Line(start: 2000, end: 2100, text: "b", words: []),
        Lyrics.Line(start: 5005, end: Lyrics.open, text: "c", words: []),
    ])

    @Test("at 10 fps a line starting at 1.3 s shows from frame 13, ends before frame 20's next line, gaps show none")
    func tenFPS() {
        let fps = Rational(10)
        let shown = (0..<60).map { lyrics.lineIndex(at: fps.seconds(ofFrame: $0)) }
        #expect(shown[12] == nil && shown[13] == 0 && shown[19] == 0)
        #expect(shown[20] == 1 && shown[21] == nil && shown[50] == nil && shown[51] == 2)
        #expect(lyrics.lastStarted(at: fps.seconds(ofFrame: 30)) == 1)
    }

    @Test("at 30000/1001 fps a line shows from the first frame at or past its start (frame 150 is at 5.005 s)")
    func ntsc() {
        let fps = Rational(30000, 1001)
        #expect(fps.seconds(ofFrame: 150) == 5.005)
        #expect(lyrics.lineIndex(at: fps.seconds(ofFrame: 149)) == nil)
        #expect(lyrics.lineIndex(at: fps.seconds(ofFrame: 150)) == 2)
        #expect(lyrics.lineIndex(at: fps.seconds(ofFrame: 39)) == 0)   // 1.3013 s
        #expect(lyrics.lineIndex(at: fps.seconds(ofFrame: 38)) == nil)   // 1.2679 s
    }

    @Test("lines are kept in start order, equal starts in the given order")
    func order() {
        let l = Lyrics(lines: [Lyrics.Line(start: 5, end: 6, text: "x", words: []), Lyrics.Line(start: 1, end: 6, text: "y", words: []),
                               Lyrics.Line(start: 5, end: 6, text: "z", words: [])])
        #expect(l.lines.map(\.text) == ["y", "x", "z"])
    }
}
