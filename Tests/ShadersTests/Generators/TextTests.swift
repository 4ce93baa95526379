import MarbleCore
import Testing
@testable import Shaders

@Suite struct TextTests {
    static let width = 192, height = 108
    static let song = SongInfo(tags: ["title": "Halo", "artist": "Ночь"], duration: 10)

    /// A `text` layer at 192x108 with no shadow and no fades unless `values` say otherwise.
    private func rig(_ values: [String: ParameterValue]) throws -> Rig {
        var all: [String: ParameterValue] = ["shadow_color": .text("#00000000"), "fade_in": .number(0), "fade_out": .number(0),
                                             "size": .number(240), "outline": .number(0)]
        for (k, v) in values { all[k] = v }
        return try Rig("text", all, width: Self.width, height: Self.height)
    }

    private func frame(_ rig: Rig, _ n: Int, song: SongInfo? = TextTests.song) -> [UInt8] {
        var u = uniforms(frame: n, features: syntheticFeatures(frame: n), width: Self.width, height: Self.height)
        u.song = song
        return rig.render(u)
    }

    /// Inked pixels (alpha over `threshold`) and the alpha-weighted centroid.
    private func ink(_ bytes: [UInt8], threshold: UInt8 = 0) -> (count: Int, x: Double, y: Double) {
        var count = 0, sx = 0.0, sy = 0.0, total = 0.0
        for i in stride(from: 0, to: bytes.count, by: 4) where bytes[i + 3] > threshold {
            let a = Double(bytes[i + 3]), p = i / 4
            count += 1; total += a
            sx += a * Double(p % Self.width); sy += a * Double(p / Self.width)
        }
        return (count, total > 0 ? sx / total : -1, total > 0 ? sy / total : -1)
    }

    @Test("the text's ink is centred where x, y put it", arguments: [(0.3, 0.4), (0.7, 0.75)])
    func position(x: Double, y: Double) throws {
        let r = try rig(["text": .text("{title}"), "x": .number(x), "y": .number(y)])
        let seen = ink(frame(r, 30))
        #expect(seen.count > 100)
        #expect(abs(seen.x - x * Double(Self.width)) < 4, "centroid x \(seen.x)")
        #expect(abs(seen.y - y * Double(Self.height)) < 5, "centroid y \(seen.y)")
        #expect(isPremultiplied(frame(r, 31)))
    }

    @Test("a missing tag draws nothing; the fallback or the tag itself does")
    func tags() throws {
        #expect(ink(frame(try rig(["text": .text("{album}")]), 30)).count == 0)
        #expect(ink(frame(try rig(["text": .text("{album}")]), 30, song: nil)).count == 0)
        #expect(ink(frame(try rig(["text": .text("{album|None}")]), 30)).count > 50)
        #expect(ink(frame(try rig(["text": .text("{artist}")]), 30)).count > 50)
    }

    @Test("an outline widens the ink")
    func outline() throws {
        let plain = ink(frame(try rig(["text": .text("{title}")]), 30), threshold: 60).count
        let outlined = ink(frame(try rig(["text": .text("{title}"), "outline": .number(10)]), 30), threshold: 60).count
        #expect(outlined > plain * 5 / 4, "\(plain) → \(outlined) pixels")
    }

    @Test("fade_in: transparent at the start, fully there later; fade_out before the song's end")
    func fades() throws {
        let r = try rig(["text": .text("{title}"), "fade_in": .number(1), "fade_out": .number(2)])
        #expect(ink(frame(r, 0)).count == 0)
        let half = ink(frame(r, 15)), full = ink(frame(r, 60), threshold: 250)
        #expect(half.count > 0)
        #expect(full.count > ink(frame(r, 15), threshold: 250).count)
        #expect(ink(frame(r, 299)).count < full.count, "almost gone 1/30 s before the end")
        #expect(ink(frame(r, 300)).count == 0, "gone at the end (10 s)")
    }

    @Test("a render started at frame N draws the frame a run from 0 draws (a clock field)")
    func startLate() throws {
        let values: [String: ParameterValue] = ["text": .text("{elapsed} {title}\n-{remaining}"), "size": .number(120)]
        let full = try rig(values)
        var fromStart: [UInt8] = []
        for n in 0...95 { fromStart = frame(full, n) }
        let late = try rig(values)
        #expect(frame(late, 95) == fromStart)
        #expect(ink(fromStart).count > 100)
    }

    @Test("Latin, Cyrillic, CJK, Arabic, Hangul, Devanagari and Thai all draw ink at 192x108")
    func scripts() throws {
        for text in ["Halo", "Ночь", "音楽", "سلام", "노래", "गाना", "เพลง"] {
            #expect(ink(frame(try rig(["text": .text(text), "size": .number(200)]), 30), threshold: 128).count > 60, "\(text)")
        }
    }

    @Test("an emoji keeps its own colours (a yellow face) while the letters beside it take the text's colour")
    func colourEmoji() throws {
        let bytes = frame(try rig(["text": .text("A😀"), "size": .number(300), "color": .text("#3050ff")]), 30)
        var yellow = 0, blue = 0
        for i in stride(from: 0, to: bytes.count, by: 4) where bytes[i + 3] > 240 {
            let (r, g, b) = (bytes[i], bytes[i + 1], bytes[i + 2])
            if r > 200 && g > 150 && b < 100 { yellow += 1 }
            if b > 200 && r < 80 { blue += 1 }
        }
        #expect(yellow > 100, "\(yellow) yellow pixels: the emoji is tinted or missing")
        #expect(blue > 100, "\(blue) pixels of the text's colour")
    }

    @Test("a 500-character title wraps into max_lines lines no smaller than min_size, not one line 4 pixels tall")
    func longTitle() throws {
        let w = 1920, h = 1080
        let title = String(repeating: "Symphony of the endless night ", count: 17)
        let r = try Rig("text", ["text": .text(title), "shadow_color": .text("#00000000"), "fade_in": .number(0),
                                 "fade_out": .number(0), "outline": .number(0)], width: w, height: h)
        var u = uniforms(frame: 0, features: syntheticFeatures(frame: 0), width: w, height: h)
        u.song = Self.song
        let bytes = r.render(u)
        var rows = Set<Int>(), minX = w, maxX = 0
        for i in stride(from: 0, to: bytes.count, by: 4) where bytes[i + 3] > 0 {
            rows.insert(i / 4 / w); minX = min(minX, (i / 4) % w); maxX = max(maxX, (i / 4) % w)
        }
        // Two lines of 28-pixel text at least (min_size at 1080p): ink over more than two 20-pixel rows of letters.
        #expect(rows.count > 2 * 20 && rows.count < 3 * 64, "\(rows.count) rows of ink")
        #expect(maxX - minX <= w * 9 / 10 + 2 && maxX - minX > w / 2, "\(minX)…\(maxX)")
    }

    @Test("text wider than max_width shrinks to fit")
    func shrink() throws {
        let long = "{title} {title} {title} {title} {title}"
        let r = try rig(["text": .text(long), "max_width": .number(0.5), "x": .number(0.5)])
        let bytes = frame(r, 30)
        var minX = Self.width, maxX = 0
        for i in stride(from: 0, to: bytes.count, by: 4) where bytes[i + 3] > 0 {
            minX = min(minX, (i / 4) % Self.width); maxX = max(maxX, (i / 4) % Self.width)
        }
        #expect(maxX - minX <= Self.width / 2 + 2, "\(minX)…\(maxX)")
        #expect(maxX > minX)
    }

    @Test("a font path that is not a font fails when the layer is made")
    func badFont() {
        #expect(throws: (any Error).self) { try Text(parameters: try ShaderParameters(descriptor: Text.descriptor, values: ["font": .text("/no/such.ttf")])) }
    }
}
