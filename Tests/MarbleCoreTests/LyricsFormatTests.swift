import Foundation
import MarbleCore
import Testing

@Suite("LyricsFormat: extensions, bounds, byte-order marks and line ends")
struct LyricsFormatTests {
    @Test("the format follows the extension in any case; others are nil")
    func extensions() {
        #expect(LyricsFormat(path: "a/b.LRC") == .lrc)
        #expect(LyricsFormat(path: "x.srt") == .srt)
        #expect(LyricsFormat(path: "x.Vtt") == .vtt)
        #expect(LyricsFormat(path: "x.txt") == nil)
        #expect(LyricsFormat(path: "dir.lrc/file") == nil)
    }

    @Test("a UTF-8 byte-order mark and CRLF line ends read like plain lines")
    func bomAndCRLF() throws {
        let bytes = Data([0xEF, 0xBB, 0xBF]) + Data("WEBVTT\r\n\r\n00:01.000 --> 00:02.000\r\nHi\r\n".utf8)
        let lyrics = try LyricsFormat.vtt.parse(bytes, name: "a.vtt")
        #expect(lyrics.lines == [Lyrics.Line(start: 1000, end: 2000, text: "Hi", words: [])])
    }

    @Test("invalid UTF-8, an over-long line and a huge file are refused before parsing, naming the line")
    func bounds() throws {
        let bad = Data("[00:01.00]ok\n[00:02.00]".utf8) + Data([0xFF, 0x0A])
        #expect(throws: MarbleError(.option, "a.lrc, line 2: not valid UTF-8")) { try LyricsFormat.lrc.parse(bad, name: "a.lrc") }
        let long = Data(("[00:01.00]" + String(repeating: "a", count: LyricsFormat.maximumLineBytes)).utf8)
        #expect(throws: MarbleError(.option, "a.lrc, line 1: longer than 4096 bytes")) { try LyricsFormat.lrc.parse(long, name: "a.lrc") }
        let many = Data(String(repeating: "\n", count: LyricsFormat.maximumLines + 1).utf8)
        #expect(throws: MarbleError(.option, "a.lrc, line 100001: more than 100000 lines")) { try LyricsFormat.lrc.parse(many, name: "a.lrc") }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(getpid()).srt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: 0x0A, count: FileBounds.lyricsBytes + 1).write(to: URL(fileURLWithPath: path))
        #expect(throws: MarbleError(.option, "\(path): larger than the 2048 KB a .srt file may be")) { try LyricsFormat.srt.read(path) }
    }

    @Test("20,000 files of random format pieces parse or fail with one line, never crash", arguments: LyricsFormat.allCases)
    func randomPieces(format: LyricsFormat) {
        let pieces = ["[", "]", "<", ">", ":", ".", ",", "-->", " ", "\n", "\r\n", "\n\n", "00", "59", "60", "9999", "1", "123",
                      "[00:01.00]", "<00:02.50>", "00:00:01,000 --> 00:00:02,000", "00:01.000 --> 00:02.000", "WEBVTT", "NOTE",
                      "[offset:", "+", "-", "99999999999999999999", "a", "é", "日", "ر", "\u{FEFF}", "{\\an8}", "&amp;", "&"]
        var random = SplitMix64(seed: 0x1ABE1 &+ UInt64(format.rawValue.count))
        var parsed = 0
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<Int(random.next() % 24) { text += pieces[Int(random.next() % UInt64(pieces.count))] }
            do {
                let lyrics = try format.parse(Data(text.utf8), name: "r")
                parsed += 1
                #expect(lyrics.lines.allSatisfy { $0.start <= $0.end && $0.words.allSatisfy { $0.start <= $0.end } })
            } catch {
                #expect(error.message.hasPrefix("r") && !error.message.contains("\n"), "\(error.message)")
            }
        }
        #expect(parsed > 0)
    }
}
