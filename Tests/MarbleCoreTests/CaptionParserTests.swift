import Foundation
import MarbleCore
import Testing

@Suite("CaptionParser: SubRip and WebVTT cues, markup dropped, bad lines named")
struct CaptionParserTests {
    func srt(_ text: String) throws -> Lyrics { try LyricsFormat.srt.parse(Data(text.utf8), name: "a.srt") }
    func vtt(_ text: String) throws -> Lyrics { try LyricsFormat.vtt.parse(Data(text.utf8), name: "a.vtt") }

    @Test("SubRip: numbered cues, multi-line text as rows of one line, tags stripped")
    func subRip() throws {
        let lyrics = try srt("""
            1
            00:00:01,000 --> 00:00:02,500
            <i>Hello</i> there

            2
            00:00:03,250 --> 00:01:04,000 X1:10 X2:20
            {\\an8}Two <font color="red">rows</font>
            of text


            """)
        #expect(lyrics.lines == [
            Lyrics.Line(start: 1000, end: 2500, text: "Hello there", words: []),
            Lyrics.Line(start: 3250, end: 64000, text: "Two rows\nof text", words: []),
        ])
    }

    @Test("WebVTT: header, ids, short times, NOTE and STYLE skipped, settings ignored, entities decoded")
    func webVTT() throws {
        let lyrics = try vtt("""
            WEBVTT - a test
            Kind: captions

            NOTE this is
            a comment

            STYLE
            ::cue { color: red }

            intro
            00:01.000 --> 00:02.000 align:start position:10%
            <v Ann>Fish &amp; chips</v>

            01:00:00.500 --> 01:00:01.000
            <c.loud>Late</c>
            """)
        #expect(lyrics.lines == [
            Lyrics.Line(start: 1000, end: 2000, text: "Fish & chips", words: []),
            Lyrics.Line(start: 3_600_500, end: 3_601_000, text: "Late", words: []),
        ])
    }

    @Test("bad SubRip lines name the line", arguments: [
        ("1\n00:00:01,000 -> 00:00:02,000\nx\n", "a.srt, line 2: expected a time line like 00:00:01,000 --> 00:00:02,500"),
        ("1\n00:00:01,000 --> 00:00:02\nx\n", "a.srt, line 2: \"00:00:02\" is not a time like 00:00:01,000"),
        ("1\n00:00:03,000 --> 00:00:02,000\nx\n", "a.srt, line 2: the cue ends (00:00:02,000) before it starts (00:00:03,000)"),
        ("\n\nHello\n", "a.srt, line 3: expected a cue number or a time line like 00:00:01,000 --> 00:00:02,500"),
        ("7\n", "a.srt, line 1: a cue without its time line (00:00:01,000 --> 00:00:02,500)"),
        ("1\n00:00:01,000 --> 00:00:02,000\n" + String(repeating: "row\n", count: 9), "a.srt, line 11: a cue with more than 8 rows of text"),
    ])
    func subRipErrors(file: String, message: String) {
        #expect(throws: MarbleError(.option, message)) { try srt(file) }
    }

    @Test("bad WebVTT lines name the line", arguments: [
        ("1\n00:01.000 --> 00:02.000\nx\n", "a.vtt, line 1: a WebVTT file starts with the line WEBVTT"),
        ("WEBVTTX\n", "a.vtt, line 1: a WebVTT file starts with the line WEBVTT"),
        ("WEBVTT\n\n00:01,000 --> 00:02.000\nx\n", "a.vtt, line 3: \"00:01,000\" is not a time like 00:01.000"),
        ("WEBVTT\n\nid\nnot a time\n", "a.vtt, line 4: expected a time line like 00:01.000 --> 00:02.500"),
    ])
    func webVTTErrors(file: String, message: String) {
        #expect(throws: MarbleError(.option, message)) { try vtt(file) }
    }
}
