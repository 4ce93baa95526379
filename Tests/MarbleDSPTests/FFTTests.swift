import Foundation
import MarbleCore
@testable import MarbleDSP
import Testing

/// The real FFT against sums worked by hand: X[k] = Σ x[n]·e^(−2πikn/N), unscaled.
@Suite("RealFFT")
struct FFTTests {
    @Test("an impulse at 0 gives 1 + 0i in every bin")
    func impulse() throws {
        let fft = try RealFFT(size: 16)
        fft.input[0] = 1
        fft.transform()
        #expect(fft.binCount == 9)
        for k in 0..<fft.binCount {
            #expect(abs(fft.output[2 * k] - 1) < 1e-6 && abs(fft.output[2 * k + 1]) < 1e-6, "bin \(k)")
        }
    }

    @Test("cos(2π·3n/16) puts N/2 = 8 in bin 3's real part, sin puts −8 in its imaginary part, 0 elsewhere")
    func tones() throws {
        let fft = try RealFFT(size: 16)
        for n in 0..<16 { fft.input[n] = Float(cos(2 * Double.pi * 3 * Double(n) / 16)) }
        fft.transform()
        for k in 0..<fft.binCount {
            let re: Float = k == 3 ? 8 : 0
            #expect(abs(fft.output[2 * k] - re) < 1e-5 && abs(fft.output[2 * k + 1]) < 1e-5, "cos, bin \(k)")
        }
        for n in 0..<16 { fft.input[n] = Float(sin(2 * Double.pi * 3 * Double(n) / 16)) }
        fft.transform()
        for k in 0..<fft.binCount {
            let im: Float = k == 3 ? -8 : 0
            #expect(abs(fft.output[2 * k]) < 1e-5 && abs(fft.output[2 * k + 1] - im) < 1e-5, "sin, bin \(k)")
        }
    }

    @Test("a constant 1 gives N in bin 0 and 0 elsewhere; the power spectrum is scale·|X|²")
    func constantAndPower() throws {
        let fft = try RealFFT(size: 32)
        for n in 0..<32 { fft.input[n] = 1 }
        fft.transform()
        var power = [Float](repeating: -1, count: fft.binCount)
        fft.powerSpectrum(into: &power, scale: 0.5)
        #expect(abs(power[0] - 512) < 1e-3)  // 0.5 · 32²
        #expect(power.dropFirst().allSatisfy { abs($0) < 1e-6 })
        #expect(abs(fft.output[2 * 16 + 1]) == 0)  // the Nyquist bin's imaginary part is always 0
    }

    @Test("sizes that are not a power of two from 16 to 2^20 are refused with a message")
    func badSizes() {
        for size in [0, 8, 24, 1000, 1 << 21] {
            #expect(throws: MarbleError.self, "\(size)") { try RealFFT(size: size) }
        }
        #expect((try? RealFFT(size: 1 << 20)) != nil)
    }
}
