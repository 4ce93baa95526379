import MarbleCore
import Testing
@testable import Shaders

@Suite struct SpectrogramTests {
    static let rate: Float = 44100, fftSize = 2048

    /// Features with a spectrum at `floorDB` everywhere but `tones` (bin → dBFS).
    static func features(tones: [Int: Float] = [:], floorDB: Float = -120, ramp: Bool = false) -> AudioFeatures {
        var f = AudioFeatures(bandCount: 64, waveformLength: 64, spectrumLength: fftSize / 2 + 1)
        f.spectrumResolution = rate / Float(fftSize)
        for k in f.spectrumDecibels.indices { f.spectrumDecibels[k] = ramp ? min(-8, -110 + 8 * Float(k)) : floorDB }
        for (k, db) in tones { f.spectrumDecibels[k] = db }
        return f
    }

    static func uniforms(_ n: Int, _ f: AudioFeatures, width: Int = testWidth, height: Int = testHeight,
                         fps: Rational = Rational(32)) -> FrameUniforms {
        FrameUniforms(time: Double(n) / fps.doubleValue, frameIndex: n, fps: fps, width: width, height: height, features: f)
    }

    /// The colour map's table, for expected colours.
    static func table(_ map: ColorMap) -> [UInt32] {
        let t = UnsafeMutablePointer<UInt32>.allocate(capacity: ColorMap.size)
        defer { t.deallocate() }
        map.fill(t)
        return Array(UnsafeBufferPointer(start: t, count: ColorMap.size))
    }

    static func pixel(_ bytes: [UInt8], _ x: Int, _ y: Int, width: Int = testWidth) -> UInt32 {
        let i = 4 * (y * width + x)
        return UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
    }

    @Test("a tone lights the row of its frequency on the log axis, in the newest column")
    func toneLightsItsRow() throws {
        let rig = try Rig("spectrogram")
        // Bin 46 is 990.5 Hz: log2(990.5/30)/log2(16000/30) = 0.557 of the axis, pixel row 20 from the bottom.
        let bytes = rig.render(Self.uniforms(0, Self.features(tones: [46: -15])))
        let dark = Self.table(.magma)[0]
        let column = (0..<testHeight).map { Self.pixel(bytes, testWidth - 1, $0) }
        let lit = column.indices.filter { column[$0] != dark }
        #expect(!lit.isEmpty && lit.allSatisfy { abs($0 - (testHeight - 1 - 20)) <= 1 }, "lit rows \(lit)")
        // Older columns are still empty after one frame.
        #expect((0..<testHeight).allSatisfy { Self.pixel(bytes, 0, $0) == dark })
    }

    @Test("history scrolls exactly history / width per column: 4 columns per frame at 128 px/s and 32 fps")
    func scrollsByTheExpectedAmount() throws {
        // 64 columns over 0.5 s = 128 columns a second; at 32 fps, 4 a frame (exact in binary).
        let rig = try Rig("spectrogram", ["history": .number(0.5), "frequency_scale": .text("linear"), "min_frequency": .number(0)])
        let tone = Self.features(tones: [200: -15]), silence = Self.features()
        _ = rig.render(Self.uniforms(0, silence))
        _ = rig.render(Self.uniforms(1, tone))
        var previous: Int?
        for n in 2..<10 {
            let bytes = rig.render(Self.uniforms(n, silence))
            let row = (0..<testHeight).first { y in (0..<testWidth).contains { Self.pixel(bytes, $0, y) != Self.table(.magma)[0] } }!
            let lit = (0..<testWidth).filter { Self.pixel(bytes, $0, row) != Self.table(.magma)[0] }
            let newest = lit.max()!
            if let previous { #expect(previous - newest == 4, "frame \(n): moved \(previous - newest) columns") }
            previous = newest
        }
    }

    @Test("every scroll direction puts the newest levels at its leading edge", arguments: ["left", "right", "up", "down"])
    func directions(_ scroll: String) throws {
        let rig = try Rig("spectrogram", ["scroll": .text(scroll), "history": .number(0.5)])
        let silence = Self.features(), tone = Self.features(tones: [46: -15])
        _ = rig.render(Self.uniforms(0, silence))
        let bytes = rig.render(Self.uniforms(1, tone))
        let dark = Self.table(.magma)[0]
        var lit: [(Int, Int)] = []
        for y in 0..<testHeight { for x in 0..<testWidth where Self.pixel(bytes, x, y) != dark { lit.append((x, y)) } }
        #expect(!lit.isEmpty)
        // The frame's 4 columns (2.25 rows when scrolling vertically) and the open one after them.
        switch scroll {
        case "left": #expect(lit.allSatisfy { $0.0 >= testWidth - 5 })
        case "right": #expect(lit.allSatisfy { $0.0 < 5 })
        case "up": #expect(lit.allSatisfy { $0.1 >= testHeight - 5 })
        default: #expect(lit.allSatisfy { $0.1 < 5 })
        }
    }

    @Test("a render that starts later (prepare for every earlier frame) draws the same bytes", arguments: [0.5, 8.0])
    func laterStartMatchesOnePass(_ history: Double) throws {
        func features(_ n: Int) -> AudioFeatures {
            Self.features(tones: [20 + (n * 7) % 300: -10, 400 - n: -30], floorDB: -100 + Float(n % 5))
        }
        let onePass = try Rig("spectrogram", ["history": .number(history)])
        var expected: [UInt8] = []
        for n in 0..<40 { expected = onePass.render(Self.uniforms(n, features(n))) }
        let later = try Rig("spectrogram", ["history": .number(history)])
        for n in 0..<39 { later.shader.prepare(Self.uniforms(n, features(n)), parameters: later.parameters) }
        let bytes = later.render(Self.uniforms(39, features(39)))
        #expect(bytes == expected, "\(describeDifference(expected, bytes, width: testWidth))")
    }

    @Test("silence is the colour map's darkest colour everywhere")
    func silenceIsDark() throws {
        for map in ["magma", "viridis", "fire"] {
            let rig = try Rig("spectrogram", ["colormap": .text(map)])
            var bytes: [UInt8] = []
            for n in 0..<5 { bytes = rig.render(Self.uniforms(n, Self.features())) }
            let darkest = Self.table(ColorMap(rawValue: map)!)[0]
            #expect((0..<testHeight).allSatisfy { y in (0..<testWidth).allSatisfy { Self.pixel(bytes, $0, y) == darkest } })
        }
    }

    @Test("floor maps to the map's first colour, ceiling to its last, halfway to its middle")
    func decibelRange() throws {
        let table = Self.table(.inferno)
        for (level, entry) in [(Float(-80), 0), (-20, ColorMap.size - 1), (-50, 512), (-110, 0), (0, ColorMap.size - 1)] {
            let rig = try Rig("spectrogram", ["colormap": .text("inferno"), "floor": .number(-80), "ceiling": .number(-20)])
            let bytes = rig.render(Self.uniforms(0, Self.features(floorDB: level)))
            #expect(Self.pixel(bytes, testWidth - 1, testHeight / 2) == table[entry], "\(level) dBFS")
        }
    }

    @Test("the bass on a log axis is interpolated between bins, not drawn as blocks (1080 rows)")
    func smoothBass() throws {
        let rig = try Rig("spectrogram", ["floor": .number(-110), "ceiling": .number(-8)], width: 4, height: 1080)
        let bytes = rig.render(Self.uniforms(0, Self.features(ramp: true), width: 4, height: 1080))
        // 30–86 Hz (bins 1.4–4) spans the bottom 183 rows: blocks of whole bins would give about 4 colours.
        let colours = Set((1080 - 183..<1080).map { Self.pixel(bytes, 3, $0, width: 4) })
        #expect(colours.count > 60, "\(colours.count) distinct colours")
    }

    @Test("golden: 40 frames of a moving tone and noise floor, log axis, magma (64x36, ±2 per channel)")
    func golden() throws {
        let rig = try Rig("spectrogram", ["history": .number(1)])
        var bytes: [UInt8] = []
        for n in 0..<40 {
            let tone = 12 + (n * 9) % 240
            bytes = rig.render(Self.uniforms(n, Self.features(tones: [tone: -12, tone * 2: -30, 3: -20], floorDB: -95 + Float(n % 4) * 5)))
        }
        Golden.check("spectrogram-history", bytes, width: testWidth, height: testHeight)
    }

    @Test("the frequency range can follow a binding: the axis is mapped again when it moves")
    func rangeFollowsBindings() throws {
        let rig = try Rig("spectrogram", ["frequency_scale": .text("linear"), "min_frequency": .number(0)])
        var parameters = rig.parameters
        let tone = Self.features(tones: [200: -10])   // 4307 Hz
        func litRow(_ p: ShaderParameters, _ n: Int) -> Int? {
            let u = Self.uniforms(n, tone)
            rig.shader.prepare(u, parameters: p)
            rig.target.fill(RGBA8(r: 0, g: 0, b: 0, a: 0))
            rig.shader.render(rig.target.view, source: rig.source.view, rows: 0..<testHeight, uniforms: u)
            let bytes = rig.target.packedBytes()
            return (0..<testHeight).first { Self.pixel(bytes, testWidth - 1, $0) != Self.table(.magma)[0] }
        }
        // 4307 Hz of 16 kHz: row 9.7 from the bottom; of 8 kHz: 19.4.
        #expect(litRow(parameters, 0).map { testHeight - 1 - $0 } == 9)
        parameters.setNumber(at: Spectrogram.descriptor.index(of: "max_frequency")!, 8000)
        #expect(litRow(parameters, 1).map { testHeight - 1 - $0 } == 19)
    }

    @Test("ceiling below floor is refused")
    func badRange() {
        #expect(throws: ParameterError.self) { try Rig("spectrogram", ["floor": .number(-30), "ceiling": .number(-40)]) }
        #expect(throws: ParameterError.self) { try Rig("spectrogram", ["min_frequency": .number(5000), "max_frequency": .number(4000)]) }
    }

    @Test("needs the spectrum; without one, the bands are drawn")
    func needsAndFallback() throws {
        #expect(Spectrogram.descriptor.needs == .spectrum)
        let rig = try Rig("spectrogram")
        let quiet = rig.render(frame: 3, loudness: 0), loud = rig.render(frame: 4, loudness: 1)
        #expect(quiet != loud)
    }
}

/// The frequency legend (`scale`) at 1920x1080 on the default log axis, 30 Hz to 16 kHz: frequency f lies
/// at log2(f / 30) / log2(16000 / 30) of the axis, 1 kHz at 0.558444 (pixel 603 of 1080 from the bottom,
/// row 476; pixel 1072 of 1920 from the left).
@Suite struct SpectrogramScaleTests {
    static let (w, h) = (1920, 1080)

    /// A spectrum 20 Hz per bin, silent but for 1 kHz (bin 50) at −15 dBFS.
    static func kiloHertz() -> AudioFeatures {
        var f = AudioFeatures(bandCount: 64, waveformLength: 64, spectrumLength: 1025)
        f.spectrumResolution = 20
        for k in f.spectrumDecibels.indices { f.spectrumDecibels[k] = k == 50 ? -15 : -120 }
        return f
    }

    static func render(_ values: [String: ParameterValue] = [:], width: Int = w, height: Int = h) throws -> [UInt8] {
        try Rig("spectrogram", values, width: width, height: height)
            .render(SpectrogramTests.uniforms(0, kiloHertz(), width: width, height: height))
    }

    static func pixel(_ bytes: [UInt8], _ x: Int, _ y: Int, width: Int = w) -> UInt32 {
        SpectrogramTests.pixel(bytes, x, y, width: width)
    }

    /// Of `points`, the one whose colour is furthest up the magma map.
    static func brightest(_ bytes: [UInt8], _ points: [(Int, Int)]) -> (Int, Int) {
        var index = [UInt32: Int]()
        for (i, c) in SpectrogramTests.table(.magma).enumerated() { index[c] = i }
        return points.max { index[pixel(bytes, $0.0, $0.1)] ?? -1 < index[pixel(bytes, $1.0, $1.1)] ?? -1 }!
    }

    @Test("a 1 kHz tone lights the row of the 1k tick; its label sits beside the tick, at the old end of the history")
    func toneMeetsItsTick() throws {
        let on = try Self.render(), off = try Self.render(["scale": .flag(false)])
        #expect(Self.brightest(on, (0..<Self.h).map { (Self.w - 1, $0) }).1 == 476)
        // The tick: 10 pixels from the left edge, one row thick at 1080p.
        for x in [0, 9] {
            #expect(Self.pixel(on, x, 476) != Self.pixel(off, x, 476))
            #expect(Self.pixel(on, x, 475) == Self.pixel(off, x, 475) && Self.pixel(on, x, 477) == Self.pixel(off, x, 477))
        }
        #expect(Self.pixel(on, 10, 476) == Self.pixel(off, 10, 476))
        // "1k" after the tick and a 5-pixel gap, centred on the row: ink above and below it, none far off.
        let changed = (15..<80).flatMap { x in (440..<512).filter { Self.pixel(on, x, $0) != Self.pixel(off, x, $0) } }
        #expect(changed.contains { $0 < 476 } && changed.contains { $0 > 476 } && changed.allSatisfy { abs($0 - 476) < 14 }, "\(Set(changed).sorted())")
        // The newest columns, at the right edge, carry no legend.
        #expect((0..<Self.h).allSatisfy { Self.pixel(on, Self.w - 1, $0) == Self.pixel(off, Self.w - 1, $0) })
    }

    @Test("scrolling up, the legend runs along the top edge and the 1k tick stands on the tone's column")
    func verticalScroll() throws {
        let on = try Self.render(["scroll": .text("up")]), off = try Self.render(["scroll": .text("up"), "scale": .flag(false)])
        #expect(Self.brightest(on, (0..<Self.w).map { ($0, Self.h - 1) }).0 == 1072)
        #expect(Self.pixel(on, 1072, 3) != Self.pixel(off, 1072, 3))
        #expect(Self.pixel(on, 1071, 3) == Self.pixel(off, 1071, 3) && Self.pixel(on, 1073, 3) == Self.pixel(off, 1073, 3))
        #expect((0..<Self.w).allSatisfy { Self.pixel(on, $0, Self.h - 1) == Self.pixel(off, $0, Self.h - 1) })
    }

    @Test("on a linear axis the ticks are round multiples: 2k at (2000 − 30) / 15970 of the axis, row 946")
    func linearAxis() throws {
        let on = try Self.render(["frequency_scale": .text("linear")])
        let off = try Self.render(["frequency_scale": .text("linear"), "scale": .flag(false)])
        #expect(Self.pixel(on, 2, 946) != Self.pixel(off, 2, 946))
        #expect(Self.pixel(on, 2, 945) == Self.pixel(off, 2, 945) && Self.pixel(on, 2, 947) == Self.pixel(off, 2, 947))
    }

    @Test("at 320x180 the text would be under 7 pixels: no legend, the picture of scale off; at 1280x720 a legend")
    func sizes() throws {
        #expect(try Self.render(width: 320, height: 180) == (try Self.render(["scale": .flag(false)], width: 320, height: 180)))
        #expect(try Self.render(width: 1280, height: 720) != (try Self.render(["scale": .flag(false)], width: 1280, height: 720)))
    }

    @Test("the legend's frequencies: the 1-2-5 series inside the range, decades first; round steps on a linear axis")
    func frequencies() {
        #expect(Spectrogram.legendFrequencies(linear: false, low: 30, high: 16000) == [1000, 100, 10000, 5000, 500, 50, 2000, 200])
        #expect(Spectrogram.legendFrequencies(linear: true, low: 30, high: 16000) == [2000, 4000, 6000, 8000, 10000, 12000, 14000, 16000])
        #expect(Spectrogram.legendFrequencies(linear: true, low: 0, high: 1000) == [200, 400, 600, 800, 1000])
        #expect([50, 500, 1000, 2500, 16000].map { Spectrogram.legendText($0) } == ["50", "500", "1k", "2.5k", "16k"])
    }
}
