import MarbleCore
import Testing
@testable import Shaders

@Suite struct OverviewTests {
    /// 100 bins over 10 s: loud (peak 0.9, RMS 0.6) for the first half, quiet (0.1, 0.05) after; the
    /// right channel at half the left's level.
    static let song: SongInfo = {
        let left = (0..<100).map { $0 < 50 ? Float(0.9) : 0.1 }, leftRMS = (0..<100).map { $0 < 50 ? Float(0.6) : 0.05 }
        let overview = WaveformOverview(binSeconds: 0.1, peaks: [left, left.map { $0 / 2 }], rms: [leftRMS, leftRMS.map { $0 / 2 }])
        return SongInfo(duration: 10, overview: overview)
    }()

    static let colours: [String: ParameterValue] = [
        "center_y": .number(0.5), "height": .number(1), "margin": .number(0), "peak_alpha": .number(0.5),
        "played_color": .text("#ff0000"), "rest_color": .text("#0000ff"), "playhead_color": .text("#00ff00"),
        "playhead": .number(12),
    ]

    static func frame(time: Double, song: SongInfo? = OverviewTests.song, peak: Float = 0, rms: Float = 0, index: Int = 0) -> FrameUniforms {
        var f = syntheticFeatures(frame: index, loudness: 0)
        f.peak = peak; f.rms = rms
        var u = uniforms(frame: index, features: f)
        u.time = time
        u.song = song
        return u
    }

    static func pixel(_ b: [UInt8], _ x: Int, _ y: Int) -> [UInt8] { Array(b[(y * testWidth + x) * 4..<(y * testWidth + x) * 4 + 4]) }
    /// Rows of column `x` with any ink.
    static func inked(_ b: [UInt8], column x: Int, rows: Range<Int> = 0..<testHeight) -> Int {
        rows.filter { pixel(b, x, $0)[3] > 0 }.count
    }

    @Test func theEnvelopeHasTheSongsShape() throws {
        let bytes = try Rig("overview", Self.colours.merging(["playhead": .number(0)]) { $1 }).render(Self.frame(time: 0))
        // Loud half: ±0.9 of 18 rows ≈ 33 rows; quiet half ±0.1 ≈ 4 rows.
        #expect(Self.inked(bytes, column: 10) >= 30, "loud column: \(Self.inked(bytes, column: 10)) rows")
        #expect((3...6).contains(Self.inked(bytes, column: 50)), "quiet column: \(Self.inked(bytes, column: 50)) rows")
        // The RMS core is solid, the peak shade around it lighter.
        #expect(Self.pixel(bytes, 10, 18)[3] == 255 && Self.pixel(bytes, 10, 3)[3] < 200 && Self.pixel(bytes, 10, 3)[3] > 60)
        #expect(isPremultiplied(bytes))
    }

    @Test func thePlayheadIsAtWidthTimesTimeOverDuration() throws {
        // t/duration = 16.5/64: the playhead's centre is the middle of column 16; 12 px at 1080p is 0.4 px here.
        let bytes = try Rig("overview", Self.colours).render(Self.frame(time: 10 * 16.5 / 64))
        #expect(Self.pixel(bytes, 16, 18)[1] > 80, "\(Self.pixel(bytes, 16, 18))")
        #expect(Self.pixel(bytes, 16, 1)[1] > 80, "the playhead spans the overview's height")
        #expect(Self.pixel(bytes, 15, 18)[1] == 0 && Self.pixel(bytes, 17, 18)[1] == 0)
        let later = try Rig("overview", Self.colours).render(Self.frame(time: 10 * 40.5 / 64))
        #expect(Self.pixel(later, 40, 18)[1] > 80 && Self.pixel(later, 16, 18)[1] == 0, "it moves with time")
    }

    @Test func playedAndUnplayedColoursSplitAtThePlayhead() throws {
        let bytes = try Rig("overview", Self.colours.merging(["playhead": .number(0)]) { $1 }).render(Self.frame(time: 2.5))
        // x = 64 · 2.5 / 10 = 16: columns before are red, from 16 on blue, with no column in between.
        for x in [0, 8, 15] { #expect(Self.pixel(bytes, x, 18) == [255, 0, 0, 255], "column \(x)") }
        for x in [16, 24, 30] { #expect(Self.pixel(bytes, x, 18) == [0, 0, 255, 255], "column \(x)") }
        let between = try Rig("overview", Self.colours.merging(["playhead": .number(0)]) { $1 }).render(Self.frame(time: 10 * 16.5 / 64))
        let p = Self.pixel(between, 16, 18)
        #expect(p[0] > 100 && p[2] > 100, "the column the playhead splits is blended: \(p)")
    }

    @Test func splitChannelsDrawLeftUpAndRightDown() throws {
        let bytes = try Rig("overview", Self.colours.merging(["channels": .text("split"), "playhead": .number(0)]) { $1 })
            .render(Self.frame(time: 0))
        let up = Self.inked(bytes, column: 10, rows: 0..<18), down = Self.inked(bytes, column: 10, rows: 18..<36)
        #expect(up >= 15 && down <= 10 && down >= 7, "up \(up), down \(down)")
    }

    @Test func liveItScrollsTheRecentPast() throws {
        // No song: one column per frame, the newest at the right edge.
        let rig = try Rig("overview", Self.colours)
        var bytes: [UInt8] = []
        for i in 0..<20 { bytes = rig.render(Self.frame(time: Double(i) / 30, song: nil, peak: i < 12 ? 0.8 : 0, rms: i < 12 ? 0.5 : 0, index: i)) }
        for x in 44..<56 { #expect(Self.inked(bytes, column: x) > 20, "column \(x) holds a loud frame") }
        for x in 56..<63 { #expect(Self.inked(bytes, column: x, rows: 0..<16) == 0, "column \(x) holds a silent frame") }
        #expect(Self.inked(bytes, column: 40) == 0, "before the first frame: nothing")
        #expect(Self.pixel(bytes, 63, 2)[1] > 80, "the playhead stands at the right edge")
    }
}
