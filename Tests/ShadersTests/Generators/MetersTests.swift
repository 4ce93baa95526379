import MarbleCore
import Testing
@testable import Shaders

@Suite struct MetersTests {
    /// Steady per-channel levels (linear) and loudness, otherwise silence.
    static func levels(peak: Float, rms: Float, loudness: Float = -120, integrated: Float = -120) -> AudioFeatures {
        var f = AudioFeatures(bandCount: 64, waveformLength: 256)
        f.peakLeft = peak; f.peakRight = peak; f.rmsLeft = rms; f.rmsRight = rms
        f.loudnessMomentary = loudness; f.loudnessShortTerm = loudness; f.loudnessIntegrated = integrated
        return f
    }

    static func meters(_ rig: Rig) -> Meters { rig.shader as! Meters }

    @Test func aFullScaleSineReadsZeroPeakAndMinusThreeRMS() throws {
        let rig = try Rig("meters")
        let sine = Self.levels(peak: 1, rms: Float(0.5).squareRoot())
        for frame in 0..<30 { _ = rig.render(uniforms(frame: frame, features: sine)) }
        let r = Self.meters(rig).reading(channel: 0)
        #expect(abs(r.peak) < 0.01 && abs(r.hold) < 0.01)
        #expect(abs(r.rms + 3.01) < 0.02, "\(r.rms)")
        #expect(abs(Meters.decibels(0.1) + 20) < 0.001 && Meters.decibels(0) == -120)
    }

    /// The panel is the whole 64x120 frame: the L bar's RMS top lands at 120 − 120 · 57/60 = 6.
    @Test func theBarLandsAtItsLevel() throws {
        let (w, h) = (64, 120)
        let rig = try Rig("meters", ["width": .number(1), "height": .number(1), "loudness": .flag(false)], width: w, height: h)
        let bytes = rig.render(uniforms(frame: 0, features: Self.levels(peak: 1, rms: Float(0.5).squareRoot()), width: w, height: h))
        let x = 5   // inside the L column (0 … 64/3.55)
        func pixel(_ y: Int) -> [UInt8] { let i: Int = (y * w + x) * 4; return Array(bytes[i..<(i + 4)]) }
        #expect(pixel(7) == [255, 59, 59, 255], "\(pixel(7))")          // the RMS bar, red zone, opaque
        #expect(pixel(6)[3] > 240 && pixel(6)[3] < 255, "\(pixel(6))")  // its edge: 98 % of the row
        #expect(pixel(4)[3] < 160, "\(pixel(4))")                        // above: the dim peak bar only
        // Lower down the zones change: yellow from −6 dB (row 12 … 36), green below −18 dB (row 36 on).
        #expect(pixel(20) == [245, 210, 46, 255] && pixel(60) == [43, 217, 107, 255], "\(pixel(20)) \(pixel(60))")
        // Horizontal: the same level lands at column 114 of 120.
        let flat = try Rig("meters", ["width": .number(1), "height": .number(1), "loudness": .flag(false),
                                      "orientation": .text("horizontal")], width: h, height: w)
        let row = flat.render(uniforms(frame: 0, features: Self.levels(peak: 1, rms: Float(0.5).squareRoot()), width: h, height: w))
        let inside: UInt8 = row[(5 * h + 112) * 4 + 3], beyond: UInt8 = row[(5 * h + 115) * 4 + 3]
        #expect(inside == 255 && beyond < 160, "\(inside) \(beyond)")
    }

    @Test func peakAndHoldFallAtTheDocumentedRate() throws {
        // fall 20 dB/s, hold 0.5 s, 30 fps: a 0 dB hit, then −60 dB.
        let rig = try Rig("meters", ["fall": .number(20), "hold": .number(0.5)])
        _ = rig.render(uniforms(frame: 0, features: Self.levels(peak: 1, rms: 0.7)))
        var readings = [(peak: Float, hold: Float, rms: Float)]()
        for frame in 1...30 {
            _ = rig.render(uniforms(frame: frame, features: Self.levels(peak: 0.001, rms: 0.001)))
            readings.append(Self.meters(rig).reading(channel: 1))
        }
        #expect(abs(readings[14].peak + 10) < 0.05, "0.5 s: \(readings[14])")    // 20 dB/s × 0.5 s
        #expect(abs(readings[14].hold) < 0.01)                                    // still held
        #expect(abs(readings[29].peak + 20) < 0.05 && abs(readings[29].hold + 10) < 0.05, "1 s: \(readings[29])")
        // Rendering the same frame again changes nothing; a seek back starts afresh.
        _ = rig.render(uniforms(frame: 30, features: Self.levels(peak: 0.001, rms: 0.001)))
        #expect(Self.meters(rig).reading(channel: 1).peak == readings[29].peak)
        _ = rig.render(uniforms(frame: 3, features: Self.levels(peak: 0.5, rms: 0.1)))
        #expect(abs(Self.meters(rig).reading(channel: 1).hold + 6.02) < 0.01)
    }

    @Test func silenceDrawsOnlyTheEmptyScale() throws {
        let rig = try Rig("meters", width: 128, height: 72)
        let quiet = rig.render(uniforms(frame: 0, features: Self.levels(peak: 0, rms: 0), width: 128, height: 72))
        var neutral = true, inked = 0
        for i in stride(from: 0, to: quiet.count, by: 4) where quiet[i + 3] > 0 {
            neutral = neutral && quiet[i] == quiet[i + 1] && quiet[i + 1] == quiet[i + 2]
            inked += 1
        }
        #expect(neutral && inked > 100, "only the grey tracks and ticks")
        let loud = rig.render(uniforms(frame: 1, features: Self.levels(peak: 0.5, rms: 0.2, loudness: -14, integrated: -16),
                                       width: 128, height: 72))
        #expect(stride(from: 0, to: loud.count, by: 4).contains { loud[$0 + 3] > 0 && loud[$0] != loud[$0 + 2] })
    }

    @Test func loudnessBarsFollowTheLUFSAndIntegratedIsMarked() throws {
        let (w, h) = (116, 120)
        let rig = try Rig("meters", ["width": .number(1), "height": .number(1)], width: w, height: h)
        // Column M starts at 3.5 units of 20 pixels: x = 75; −14 LUFS reaches 120 · 46/60 = 92 pixels up.
        let bytes = rig.render(uniforms(frame: 0, features: Self.levels(peak: 0, rms: 0, loudness: -14, integrated: -30),
                                        width: w, height: h))
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { let i: Int = (y * w + x) * 4; return Array(bytes[i..<(i + 4)]) }
        #expect(pixel(80, 30) == [63, 184, 255, 255], "\(pixel(80, 30))")
        #expect(pixel(80, 26)[3] < 40, "\(pixel(80, 26))")
        // Integrated −30 LUFS: a white line 60 pixels up, across M and S.
        #expect(pixel(80, 60) == [255, 255, 255, 255] && pixel(100, 60) == [255, 255, 255, 255])
    }
}

/// The scale's numbers (`scale`), at 1920x1080 with the default panel: 307.2 x 864 pixels from
/// (806.4, 108), so level L dB lies 864 · (60 + L) / 60 pixels above row 972; a column unit is
/// 307.2 / 5.8 = 52.97 pixels and the outer ticks 0.15 of it, 8 pixels.
@Suite struct MetersScaleTests {
    static let (w, h) = (1920, 1080)
    /// RMS at −6 dBFS on both channels (the peak bar and its hold far below), M and S at −6 LUFS.
    static let minusSix = MetersTests.levels(peak: 0.001, rms: 0.501_187_2, loudness: -6)

    static func render(_ values: [String: ParameterValue] = [:], width: Int = w, height: Int = h,
                       features: AudioFeatures = minusSix) throws -> [UInt8] {
        try Rig("meters", values, width: width, height: height).render(uniforms(frame: 0, features: features, width: width, height: height))
    }

    static func pixel(_ bytes: [UInt8], _ x: Int, _ y: Int, width: Int = w) -> [UInt8] {
        let i = 4 * (y * width + x)
        return Array(bytes[i..<(i + 4)])
    }

    /// The first row from the top where column `x` is more than the empty track (alpha 20).
    static func barTop(_ bytes: [UInt8], _ x: Int) -> Int? { (0..<Self.h).first { pixel(bytes, x, $0)[3] > 40 } }

    @Test("the −6 ticks of the dBFS and LUFS scales sit on the row where bars at −6 end, numbered beside them")
    func ticksSitWhereTheBarsEnd() throws {
        let on = try Self.render(), off = try Self.render(["scale": .flag(false)])
        // −6 dB: 864 · 54/60 = 777.6 pixels up, screen row 194.4, in row 194.
        #expect(Self.barTop(on, 830) == 194 && Self.barTop(on, 1010) == 194, "L \(Self.barTop(on, 830) ?? -1) M \(Self.barTop(on, 1010) ?? -1)")
        let tick: [UInt8] = [128, 128, 128, 128]   // tick_color, white at 0.5, premultiplied
        for x in [798, 805, 1114, 1121] {   // the dBFS ticks end at the L bar (x 806), the LUFS ticks start after S (1113.6)
            #expect(Self.pixel(on, x, 194) == tick, "x \(x): \(Self.pixel(on, x, 194))")
            #expect(Self.pixel(on, x, 193)[3] == 0 && Self.pixel(on, x, 195)[3] == 0)
            #expect(Self.pixel(off, x, 194)[3] == 0)
        }
        #expect(Self.pixel(on, 797, 194)[3] == 0 || Self.pixel(on, 797, 194) != tick)
        // "−6" left of its tick (4 pixels of gap) and right of the LUFS one, centred on row 194.5.
        func ink(_ bytes: [UInt8], _ xs: Range<Int>, _ ys: Range<Int>) -> Int {
            var n = 0
            for y in ys { for x in xs where Self.pixel(bytes, x, y)[0] > 150 { n += 1 } }
            return n
        }
        #expect(ink(on, 740..<795, 186..<204) > 20 && ink(on, 1125..<1180, 186..<204) > 20)
        #expect(ink(on, 740..<795, 204..<270) == 0, "nothing between −6 and −12 (row 280.8)")
        #expect(ink(off, 700..<806, 0..<Self.h) == 0 && ink(off, 1114..<1200, 0..<Self.h) == 0)
    }

    @Test("with scale off the meters draw what they drew before: the numbers only add pixels outside the panel and snap its ticks")
    func offIsTheOldPicture() throws {
        let music = MetersTests.levels(peak: 0.7, rms: 0.3, loudness: -11, integrated: -15)
        let on = try Self.render(features: music), off = try Self.render(["scale": .flag(false)], features: music)
        #expect(on != off)
        // The ticks' rows: every 6 dB from 0 (row 108) to −60 (row 972), and the −14 LUFS target (row 309.6).
        let tickRows = (0...10).map { 108 + 86.4 * Float($0) } + [309.6]
        var stray = [(Int, Int)]()
        for y in 0..<Self.h {
            for x in 806..<1114 where Self.pixel(on, x, y) != Self.pixel(off, x, y) {
                let onTick = tickRows.contains { abs(Float(y) + 0.5 - $0) < 1.5 }
                if !onTick || x < 940 { stray.append((x, y)) }   // the scale column starts at x 941.5
            }
        }
        #expect(stray.isEmpty, "\(stray.count) pixels changed off the ticks, first \(stray.prefix(5))")
        // The same outside the rows the panel and its numbers cover.
        for y in [0, 40, 1040, 1079] { #expect((0..<Self.w).allSatisfy { Self.pixel(on, $0, y) == Self.pixel(off, $0, y) }) }
    }

    @Test("at 320x180 the numbers would be under 7 pixels: none, the picture of scale off; at 1280x720 they show")
    func smallFramesHaveNoNumbers() throws {
        let small = try Self.render(width: 320, height: 180), smallOff = try Self.render(["scale": .flag(false)], width: 320, height: 180)
        #expect(small == smallOff)
        let hd = try Self.render(width: 1280, height: 720), hdOff = try Self.render(["scale": .flag(false)], width: 1280, height: 720)
        #expect(hd != hdOff)
    }

    @Test("without loudness there is no LUFS scale; horizontal meters carry their numbers above and below the panel")
    func sidesAndOrientation() throws {
        let levelsOnly = try Self.render(["loudness": .flag(false)])
        #expect((0..<Self.h).allSatisfy { y in (1114..<Self.w).allSatisfy { Self.pixel(levelsOnly, $0, y)[3] == 0 } })
        #expect((0..<Self.h).contains { y in (700..<806).contains { Self.pixel(levelsOnly, $0, y)[3] > 0 } })
        // Horizontal, 0.8 x 0.16 of the frame: rows 453.6 … 626.4; −6 dB at x 192 + 1536 · 0.9 = 1574.4.
        let flat = try Self.render(["orientation": .text("horizontal"), "width": .number(0.8), "height": .number(0.16)])
        func inked(_ rows: Range<Int>) -> [Int] { rows.filter { y in (1562..<1588).contains { Self.pixel(flat, $0, y)[3] > 0 } } }
        let above = inked(0..<453), below = inked(627..<Self.h)
        #expect(above.contains(452) && above.count > 10 && below.contains(627) && below.count > 10, "\(above) \(below)")
    }
}
