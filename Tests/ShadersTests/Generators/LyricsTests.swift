import MarbleCore
import Testing
@testable import Shaders

@Suite struct LyricsLayerTests {
    static let width = 192, height = 108
    static let blue = "#0000FF", red = "#FF0000"

    /// A `lyrics` layer at 192x108: no outline or shadow (only fill pixels ink), unsung text blue,
    /// sung text red, no next line unless `values` say otherwise.
    private func rig(_ values: [String: ParameterValue] = [:]) throws -> Rig {
        var all: [String: ParameterValue] = ["shadow_color": .text("#00000000"), "outline": .number(0), "size": .number(200),
                                             "color": .text(Self.blue), "highlight": .text(Self.red), "next_opacity": .number(0),
                                             "y": .number(0.4)]
        for (k, v) in values { all[k] = v }
        return try Rig("lyrics", all, width: Self.width, height: Self.height)
    }

    private func frame(_ rig: Rig, _ n: Int, fps: Rational = Rational(10), _ lyrics: Lyrics) -> [UInt8] {
        var u = FrameUniforms(time: fps.seconds(ofFrame: n), frameIndex: n, fps: fps, width: Self.width, height: Self.height,
                              features: syntheticFeatures(frame: n))
        u.song = SongInfo(lyrics: lyrics)
        return rig.render(u)
    }

    /// Pixels with some ink, those mostly red and mostly blue, and the mean column of each.
    private func ink(_ bytes: [UInt8]) -> (count: Int, red: Int, blue: Int, redX: Double, blueX: Double, maxAlpha: UInt8, meanY: Double) {
        var count = 0, red = 0, blue = 0, rx = 0, bx = 0, alpha: UInt8 = 0, sy = 0
        for i in stride(from: 0, to: bytes.count, by: 4) where bytes[i + 3] > 0 {
            let p = i / 4
            count += 1; sy += p / Self.width
            alpha = max(alpha, bytes[i + 3])
            if bytes[i] > 100 && bytes[i + 2] < 40 { red += 1; rx += p % Self.width }
            if bytes[i + 2] > 100 && bytes[i] < 40 { blue += 1; bx += p % Self.width }
        }
        return (count, red, blue, red > 0 ? Double(rx) / Double(red) : -1, blue > 0 ? Double(bx) / Double(blue) : -1,
                alpha, count > 0 ? Double(sy) / Double(count) : -1)
    }

    static let lines = Lyrics(lines: [
        Lyrics.Line(start: 1300, end: 2000, text: "Hi", words: []),
        Lyrics.Line(start: 2000, end: 2500, text: "Yo", words: []),
    ])

    @Test("at 10 fps a line shows from frame 13 (1.3 s) to frame 19, the next from frame 20 to 24, none after")
    func frameExact() throws {
        let r = try rig()
        let counts = (10...26).map { ink(frame(r, $0, Self.lines)).count }
        #expect(counts[0...2].allSatisfy { $0 == 0 }, "frames 10-12: \(counts)")
        #expect(counts[3...14].allSatisfy { $0 > 50 }, "frames 13-24: \(counts)")
        #expect(counts[15...16].allSatisfy { $0 == 0 }, "frames 25-26: \(counts)")
        #expect(frame(r, 19, Self.lines) != frame(r, 20, Self.lines), "the line changed at frame 20")
        #expect(frame(r, 19, Self.lines) == frame(r, 13, Self.lines))
    }

    @Test("the next line shows dimmed below the current one, and alone before the first line")
    func nextLine() throws {
        let r = try rig(["next_opacity": .number(0.5), "size": .number(120)])
        let before = ink(frame(r, 5, Self.lines))   // 0.5 s: only "Hi", as the next line
        #expect(before.count > 20 && before.maxAlpha <= 129 && before.maxAlpha >= 120, "alpha \(before.maxAlpha)")
        #expect(before.meanY > 0.4 * Double(Self.height), "below the current line's place: \(before.meanY)")
        let during = ink(frame(r, 15, Self.lines))   // "Hi" now, "Yo" dimmed
        #expect(during.maxAlpha > 200 && during.count > before.count, "\(during)")
    }

    @Test("karaoke: words sung so far in the highlight colour, the word being sung filling left to right")
    func karaoke() throws {
        let r = try rig(["size": .number(150)])
        let lyrics = Lyrics(lines: [Lyrics.Line(start: 0, end: 5000, text: "HH MM", words: [
            Lyrics.Word(scalars: 0..<3, start: 1000, end: 2000), Lyrics.Word(scalars: 3..<5, start: 2000, end: 3000),
        ])])
        let early = ink(frame(r, 5, lyrics))      // before the first word: all blue
        #expect(early.red == 0 && early.blue > 100)
        let half = ink(frame(r, 15, lyrics))      // first word half sung: red on the far left only
        #expect(half.red > 20 && half.blue > half.red, "\(half)")
        #expect(half.redX < half.blueX)
        let first = ink(frame(r, 20, lyrics))     // first word sung, second starting
        #expect(first.red > half.red && first.redX < first.blueX)
        let late = ink(frame(r, 30, lyrics))      // all sung
        #expect(late.blue == 0 && late.red > 100)
        let fills = (10...30).map { ink(frame(r, $0, lyrics)).red }
        #expect(zip(fills, fills.dropFirst()).allSatisfy { $0 <= $1 }, "the fill only grows: \(fills)")
    }

    @Test("karaoke in a right-to-left script fills from the right")
    func rightToLeft() throws {
        let r = try rig(["size": .number(150)])
        let lyrics = Lyrics(lines: [Lyrics.Line(start: 0, end: 5000, text: "سلام", words: [Lyrics.Word(scalars: 0..<4, start: 0, end: 2000)])])
        let half = ink(frame(r, 10, lyrics))
        #expect(half.red > 20 && half.blue > 20, "\(half)")
        #expect(half.redX > half.blueX, "the sung part is on the right: \(half)")
    }

    @Test("a caption's rows are drawn as rows; no lyrics draw nothing")
    func rowsAndNothing() throws {
        let r = try rig(["size": .number(80)])
        let one = Lyrics(lines: [Lyrics.Line(start: 0, end: 5000, text: "Ab", words: [])])
        let two = Lyrics(lines: [Lyrics.Line(start: 0, end: 5000, text: "Ab\nAb", words: [])])
        #expect(ink(frame(r, 3, two)).count > ink(frame(r, 3, one)).count * 3 / 2)
        var u = uniforms(frame: 3, features: syntheticFeatures(frame: 3), width: Self.width, height: Self.height)
        u.song = SongInfo(tags: ["title": "x"])
        #expect(ink(r.render(u)).count == 0)
    }

    @Test("a caption taller than the frame shrinks to fit it: all eight rows show")
    func tallCaption() throws {
        let r = try rig(["size": .number(400), "y": .number(0.5)])
        let text = Array(repeating: "Ab", count: 8).joined(separator: "\n")
        let bytes = frame(r, 3, Lyrics(lines: [Lyrics.Line(start: 0, end: 5000, text: text, words: [])]))
        let inked = (0..<Self.height).map { y in (0..<Self.width).contains { bytes[(y * Self.width + $0) * 4 + 3] > 0 } }
        let bands = zip([false] + inked, inked).filter { !$0.0 && $0.1 }.count
        #expect(bands == 8, "\(inked)")
    }
}
