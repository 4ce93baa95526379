import Foundation
import MarbleCore
import MarbleDSP

/// The onset detection function (ODF): log-compressed spectral flux over log-spaced bands, one value
/// per hop of about 10 ms, from a short Hann-windowed FFT (about 23 ms) that ends at the hop.
///
/// Shared by the live extractor and the offline analyzer, so both see the same envelope. Values are
/// ≥ 0, exactly 0 for digital silence, and about 1–8 for a hit out of silence. A second, uncompressed
/// flux per band group (five groups of about 1.6 octaves) feeds tempo estimation, which correlates the
/// groups separately: a loud kick alternating with a quiet off-beat hat or bass note then reads as the
/// beat, not as one pulse at twice the tempo (the log-compressed ODF makes them look alike).
final class OnsetDetector {
    /// Band groups in ``groupFlux``.
    static let groupCount = 5
    let sampleRate: Int
    /// Samples per ODF value.
    let hop: Int
    let windowSize: Int
    /// ODF values per second (`sampleRate / hop`).
    let rate: Double
    /// Seconds between a transient and the time its ODF peak is reported at (`time(ofHop:)` subtracts
    /// it), measured with clicks: the flux peaks once the click has entered the window's rising edge.
    let latency: Double
    private let fft: RealFFT
    private let window: UnsafeMutablePointer<Float>
    private let power: UnsafeMutablePointer<Float>
    private let bank: BandBank
    private let current: UnsafeMutablePointer<Float>
    private let previous: UnsafeMutablePointer<Float>
    /// The last three linear band amplitudes, per band.
    private let previousLinear: UnsafeMutablePointer<Float>
    private let powerScale: Float
    /// Linear-amplitude flux of each band group for the last value computed. Not log-compressed, so a
    /// loud kick outweighs a quiet off-beat note here: it decides the metrical level, not detection.
    let groupFlux: UnsafeMutablePointer<Float>

    init(sampleRate: Int) throws(MarbleError) {
        self.sampleRate = sampleRate
        hop = max(1, Int((Double(sampleRate) / 100).rounded()))
        let n = FastMath.powerOfTwo(from: 256, atLeast: Double(sampleRate) * 0.02)
        windowSize = n
        rate = Double(sampleRate) / Double(hop)
        fft = try RealFFT(size: n)
        window = .allocate(capacity: n)
        SpectrumScaling.fill(window, count: n, shape: .hann)
        let (scale, enbw) = SpectrumScaling.factors(window, count: n)
        powerScale = scale
        power = .allocate(capacity: fft.binCount)
        power.initialize(repeating: 0, count: fft.binCount)
        let top = min(16000, 0.45 * Double(sampleRate))
        let e = BandBank.edges(layout: .logarithmic, count: 40, minFrequency: 40, maxFrequency: top)
        bank = BandBank(lower: e.lower, upper: e.upper, center: e.center, sampleRate: sampleRate,
                        mainSize: n, longSize: 0, mainENBW: enbw, longENBW: enbw)
        current = .allocate(capacity: bank.count)
        previous = .allocate(capacity: bank.count)
        current.initialize(repeating: 0, count: bank.count)
        previous.initialize(repeating: 0, count: bank.count)
        previousLinear = .allocate(capacity: 3 * bank.count)
        previousLinear.initialize(repeating: 0, count: 3 * bank.count)
        latency = Double(n) * 0.37 / Double(sampleRate)
        groupFlux = .allocate(capacity: Self.groupCount)
        groupFlux.initialize(repeating: 0, count: Self.groupCount)
    }

    deinit {
        window.deallocate(); power.deallocate(); current.deallocate(); previous.deallocate(); previousLinear.deallocate(); groupFlux.deallocate()
    }

    /// Absolute sample index at which the window for ODF value `j` ends.
    @inline(__always) func windowEnd(ofHop j: Int) -> Int { (j + 1) * hop }

    /// Media time (seconds) that ODF value `j` stands for.
    @inline(__always) func time(ofHop j: Double) -> Double {
        (j + 1) * Double(hop) / Double(sampleRate) - latency
    }

    /// Computes the next ODF value from the window ending at `end` in `ring`.
    ///
    /// Windows that start before the stream does read 0: the stream start itself (audio switching on
    /// from nothing, as the window fills) is not an onset, so it cannot pull the beat tracker.
    func next(ring: SampleRing, end: Int) -> Float {
        ring.copyMonoWindowed(from: end - windowSize, count: windowSize, window: window, to: fft.input)
        let v = nextFromInput()
        if end < windowSize {
            for g in 0..<Self.groupCount { groupFlux[g] = 0 }
            return 0
        }
        return v
    }

    private func nextFromInput() -> Float {
        fft.transform()
        fft.powerSpectrum(into: power, scale: powerScale)
        bank.amplitudes(main: power, long: nil, into: current)
        let perGroup = bank.count / Self.groupCount
        var flux: Float = 0
        for g in 0..<Self.groupCount {
            var f: Float = 0
            for b in (g * perGroup)..<((g + 1) * perGroup) {
                let a = current[b]
                let v = FastMath.fastLog2(1 + 1000 * a)
                let d = v - previous[b]
                flux += d > 0 ? d : 0
                previous[b] = v
                // SuperFlux-style: against the largest of the last three frames, so steady tones whose
                // partials beat inside a band (fast amplitude wobble) add nothing.
                let h = previousLinear + 3 * b
                let e = a - max(h[0], h[1], h[2])
                f += e > 0 ? e : 0
                h[2] = h[1]; h[1] = h[0]; h[0] = a
            }
            groupFlux[g] = f
        }
        return flux / Float(bank.count)
    }
}
