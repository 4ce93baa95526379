import MarbleKit
import Testing

@Suite("RenderSegment: pieces of the frame grid")
struct RenderSegmentTests {
    @Test("K/N pieces tile 0..<F with no gap and no overlap, sizes within one frame", arguments: [1, 2, 3, 7, 40])
    func piecesTile(n: Int) throws {
        for total in [n, n + 1, 144, 180, 1_000, 36_000, 86_399_996] {
            var next = 0
            var sizes: [Int] = []
            for k in 1...n {
                let range = try RenderSegment.piece(k, of: n).range(totalFrames: total)
                #expect(range.lowerBound == next, "\(k)/\(n) of \(total)")
                next = range.upperBound
                sizes.append(range.count)
            }
            #expect(next == total)
            #expect(sizes.max()! - sizes.min()! <= 1)
            #expect(sizes.min()! >= 1)
        }
    }

    @Test("parsing K/N and FIRST-LAST; bad values are one-line option errors naming the option")
    func parsing() throws {
        #expect(try RenderSegment.piece(parsing: "7/40") == .piece(7, of: 40))
        #expect(try RenderSegment.frames(parsing: "0-1199") == .frames(first: 0, last: 1199))
        #expect(try RenderSegment.frames(parsing: "5-5").range(totalFrames: 10) == 5..<6)
        for bad in ["", "7", "7/", "/40", "0/4", "5/4", "-1/4", "1/0", "1/100001", "a/b", "1/2/3", "99999999999999999999/1"] {
            #expect(throws: MarbleError.self, "\(bad)") { try RenderSegment.piece(parsing: bad) }
            do { _ = try RenderSegment.piece(parsing: bad) } catch {
                #expect(error.kind == .option && error.message.hasPrefix("--segment \(bad)"), "\(error.message)")
            }
        }
        for bad in ["", "5", "5-", "-5", "9-3", "0-86400001", "x-y", "1-2-3"] {
            #expect(throws: MarbleError.self, "\(bad)") { try RenderSegment.frames(parsing: bad) }
        }
    }

    @Test("a segment larger than the render is refused with the render's size")
    func againstTheRender() {
        #expect(throws: MarbleError(.option, "--segment 3/200: the render has only 144 frames; cut it into at most 144 pieces")) {
            try RenderSegment.piece(3, of: 200).range(totalFrames: 144)
        }
        #expect(throws: MarbleError(.option, "--frames 0-144: the render has 144 frames (0-143)")) {
            try RenderSegment.frames(first: 0, last: 144).range(totalFrames: 144)
        }
    }
}

@Suite("SegmentLabel: what a piece says about itself")
struct SegmentLabelTests {
    let label = SegmentLabel(frames: 48..<96, totalFrames: 144, fps: Rational(30000, 1001), segment: "2/3",
                             render: "160x90 30000/1001fps scene spectrum#a316099f", input: "/music/mix.flac",
                             inputID: "b1b205b52e7b9361bee3ac835576440e")

    @Test("written as tags and read back, in any case (Matroska upper-cases tag names)")
    func roundTrip() {
        let tags = Dictionary(uniqueKeysWithValues: label.tags.map { ($0.key, $0.value) })
        #expect(tags["marble_frames"] == "48-95/144")
        #expect(SegmentLabel(tags: tags) == label)
        let upper = Dictionary(uniqueKeysWithValues: label.tags.map { ($0.key.uppercased(), $0.value) })
        #expect(SegmentLabel(tags: upper) == label)
    }

    @Test("missing or malformed tags are not a label")
    func malformed() {
        var tags = Dictionary(uniqueKeysWithValues: label.tags.map { ($0.key, $0.value) })
        #expect(SegmentLabel(tags: [:]) == nil)
        for bad in ["48-95", "95-48/144", "48-144/144", "-1-5/144", "a-b/c"] {
            tags["marble_frames"] = bad
            #expect(SegmentLabel(tags: tags) == nil, "\(bad)")
        }
        tags["marble_frames"] = "48-95/144"
        // Absurd rates and lengths written into a label: outside 1–240 fps, or more than 100 hours of frames.
        for fps in ["0", "1000000", "1/1000", "4294967297/2"] {
            tags["marble_fps"] = fps
            #expect(SegmentLabel(tags: tags) == nil, "\(fps)")
        }
        tags["marble_fps"] = "48"
        #expect(SegmentLabel(tags: tags) != nil)
        tags["marble_frames"] = "48-95/17280001"  // 100 h at 48 fps is 17,280,000 frames
        #expect(SegmentLabel(tags: tags) == nil)
    }
}
