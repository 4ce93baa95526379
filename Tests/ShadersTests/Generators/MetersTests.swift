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
