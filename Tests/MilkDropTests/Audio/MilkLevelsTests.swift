import Foundation
@testable import MilkDrop
import Testing

@Suite("MilkLevels: MilkDrop's bass, mid and treb")
struct MilkLevelsTests {
    @Test("the per-frame weights are MilkDrop's 30 fps rates taken to the power 30/fps")
    func weights() {
        #expect(MilkLevels.weight(0.2, fps: 30) == 0.2)
        #expect(abs(MilkLevels.weight(0.5, fps: 60) - 0.70710678) < 1e-6)
        #expect(abs(MilkLevels.weight(0.992, fps: 60) - 0.99599197) < 1e-6)
        #expect(abs(MilkLevels.weight(0.9, fps: 15) - 0.81) < 1e-6)
    }

    @Test("bands (2, 4, 8) held at 30 fps: relative and attenuated values frame by frame, by hand")
    func smoothingAt30() {
        var levels = MilkLevels()
        let imm = SIMD3<Float>(2, 4, 8)
        // Frame 0: rising, so average = 0.8·imm; long average (0.9 while under 50 frames) = 0.1·imm.
        levels.advance(imm, fps: 30, frame: 0)
        expectClose(levels.average, imm * 0.8)
        expectClose(levels.longAverage, imm * 0.1)
        expectClose(levels.relative, SIMD3(repeating: 10))
        expectClose(levels.attenuated, SIMD3(repeating: 8))
        // Frame 1: average 0.2·0.8 + 0.8 = 0.96·imm; long 0.9·0.1 + 0.1 = 0.19·imm.
        levels.advance(imm, fps: 30, frame: 1)
        expectClose(levels.relative, SIMD3(repeating: 1 / 0.19))
        expectClose(levels.attenuated, SIMD3(repeating: 0.96 / 0.19))
        // Falling to zero at frame 60 (long weight 0.992): average × 0.5, long × 0.992, bass 0.
        for n in 2..<60 { levels.advance(imm, fps: 30, frame: n) }
        let average = levels.average, long = levels.longAverage
        levels.advance(.zero, fps: 30, frame: 60)
        expectClose(levels.average, average * 0.5)
        expectClose(levels.longAverage, long * 0.992)
        expectClose(levels.relative, .zero)
        expectClose(levels.attenuated, average * 0.5 / (long * 0.992))
    }

    @Test("at 60 fps two frames smooth as much as one at 30 fps (same input, same time)")
    func frameRateAware() {
        var slow = MilkLevels(), fast = MilkLevels()
        let imm = SIMD3<Float>(3, 1, 0.5)
        for n in 0..<20 { slow.advance(imm, fps: 30, frame: n) }
        for n in 0..<40 { fast.advance(imm, fps: 60, frame: n) }
        // The long average leaves its 0.9 rate after 50 frames, not reached here by either.
        expectClose(slow.longAverage, fast.longAverage, tolerance: 1e-4)
        expectClose(slow.average, fast.average, tolerance: 1e-4)
    }

    @Test("silence reads 1 (long average under 0.001), not 0 or NaN")
    func silence() {
        var levels = MilkLevels()
        let zeros = [Float](repeating: 0, count: MilkLevels.samples)
        zeros.withUnsafeBufferPointer { levels.update(wave: $0, fps: 60, frame: 0) }
        #expect(levels.relative == SIMD3(repeating: 1) && levels.attenuated == SIMD3(repeating: 1))
        #expect(levels.immediate == .zero)
    }

    @Test("a sine at bin 200 (8.6 kHz at 44.1 kHz) lands in treb; the sums match a double-precision transform")
    func bands() {
        let wave = (0..<MilkLevels.samples).map { Float(0.5 * cos(2 * Double.pi * 200 * Double($0) / 1024)) }
        var levels = MilkLevels()
        let sums = wave.withUnsafeBufferPointer { levels.bands($0) }
        let expected = referenceBands(wave)
        for i in 0..<3 { #expect(abs(Double(sums[i]) - expected[i]) <= 1e-3 * expected[2], "band \(i)") }
        #expect(sums.z > 0 && sums.x < 0.01 * sums.z && sums.y < 0.01 * sums.z)
        // The peak alone: 128 · 0.5 · Σ envelope / 2 = 128 · 0.5 · 288 / 2 = 9216 before the equaliser
        // −0.02·ln(312/512) = 0.0099…; the band sum holds the whole main lobe (±3.6 bins), under five times more.
        let peak = 9216 * -0.02 * log(312.0 / 512)
        #expect(Double(sums.z) > peak && Double(sums.z) < 5 * peak)
    }

    /// MilkDrop's band sums computed independently, in Double, straight from the definition.
    private func referenceBands(_ wave: [Float]) -> [Double] {
        var sums = [0.0, 0.0, 0.0]
        for k in 0..<256 {
            var re = 0.0, im = 0.0
            for i in 0..<576 {
                let envelope = 0.5 + 0.5 * sin(Double(i) * 2 * Double.pi / 576 - Double.pi / 2)
                let x = Double(wave[i]) * 128 * envelope
                re += x * cos(2 * Double.pi * Double(k * i) / 1024)
                im -= x * sin(2 * Double.pi * Double(k * i) / 1024)
            }
            let band = k < 85 ? 0 : k < 170 ? 1 : 2
            sums[band] += -0.02 * log(Double(512 - k) / 512) * (re * re + im * im).squareRoot()
        }
        return sums
    }

    private func expectClose(_ a: SIMD3<Float>, _ b: SIMD3<Float>, tolerance: Float = 1e-5,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        for i in 0..<3 {
            #expect(abs(a[i] - b[i]) <= tolerance * max(1, abs(b[i])), "\(a) vs \(b)", sourceLocation: sourceLocation)
        }
    }
}
