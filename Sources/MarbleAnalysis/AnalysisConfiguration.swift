import MarbleCore

/// How bands are spaced.
public enum BandLayout: String, Sendable, Codable, CaseIterable {
    /// `bandCount` bands with geometrically spaced edges between `minFrequency` and `maxFrequency`.
    case logarithmic
    /// One band per equal-tempered semitone (A4 = 440 Hz) between `minFrequency` and `maxFrequency`;
    /// `bandCount` is ignored (the count follows from the range: 109 bands for 30 Hz–16 kHz).
    case semitone
}

/// The analysis window's shape.
public enum AnalysisWindow: String, Sendable, Codable, CaseIterable {
    /// Symmetric Hann: the classic choice; its centre (where it weighs most) lags the frame end by
    /// half a window (23 ms at 2048 points, 44.1 kHz).
    case hann
    /// Asymmetric Hann (rises over 3/4 of the window, falls over the last 1/4): same leakage class,
    /// but its weight peaks 1/4 window before the frame end, so transients show up sooner.
    case lowLatency
}

/// Everything that tunes ``FeatureExtractor`` and ``OfflineAnalyzer``. All times in seconds.
public struct AnalysisConfiguration: Sendable, Equatable, Codable {
    /// Number of bands for ``BandLayout/logarithmic`` (8…512).
    public var bandCount: Int = 64
    /// Lowest band edge, Hz.
    public var minFrequency: Double = 30
    /// Highest band edge, Hz (clamped to 0.49 · sample rate).
    public var maxFrequency: Double = 16000
    /// How the bands are spaced: logarithmic (`bandCount` bands) or one per semitone.
    public var layout: BandLayout = .logarithmic
    /// Samples per channel in the waveform snapshot.
    public var waveformLength: Int = 1024
    /// Main FFT length; 0 = automatic (about 46 ms: 2048 points at 44.1/48 kHz, 4096 at 96 kHz).
    public var fftSize: Int = 0
    /// Use a 4× longer FFT for bands too narrow for the main one (CAVA's "bass FFT"; constant-Q-like
    /// resolution in the bass). Always on for ``BandLayout/semitone``.
    public var bassResolution: Bool = true
    /// The FFT window's shape: symmetric Hann, or the low-latency asymmetric one.
    public var window: AnalysisWindow = .hann

    // Per-band smoothing
    /// Rise time constant of band levels (0 = instant).
    public var attack: Double = 0.01
    /// Fall time constant of band levels when `gravity` is 0.
    public var release: Double = 0.15
    /// CAVA-style accelerating fall, in full scales per second²; 0 = exponential `release` instead.
    public var gravity: Double = 0
    /// How long a band's peak cap stays up before it falls.
    public var peakHold: Double = 0.3
    /// Acceleration of falling peak caps, full scales per second².
    public var peakFall: Double = 4
    /// Adaptive gain: bands are scaled so the loudest sits just under 1 (CAVA's autosens).
    public var autoSensitivity: Bool = true
    /// Fixed gain applied before auto-sensitivity (1 = 0 dB).
    public var sensitivity: Double = 1
    /// Band levels below this dBFS value read 0 (with a 6 dB soft knee above it); also the silence
    /// threshold of the `level` feature.
    public var noiseFloor: Double = -70
    /// How much band levels and the `level` feature move with the music: a level d dB under full
    /// scale reads 10^(−dynamics·d/20). 1 is linear amplitude (CAVA's look: lively, quiet bands
    /// vanish), 0.5 (the default) a square root (a 6 dB swing moves a loud bar by 30 %, a band 40 dB
    /// down still shows at 0.1), lower values flatter. 0.1…2.
    public var dynamics: Double = 0.5
    /// Display tilt of band levels, dB per octave around 1 kHz (positive lifts the treble, which
    /// music has less of; analysers use 3–4.5). Raw dB values (`bandsDecibels`) are not tilted. −12…12.
    public var tilt: Double = 3
    /// Overall-level smoothing (the `level` feature).
    public var levelAttack: Double = 0.02
    /// Fall time constant of the `level` feature, seconds.
    public var levelRelease: Double = 0.25

    // Rhythm
    /// Tempo search range for beat tracking, BPM.
    public var minTempo: Double = 60
    /// Upper end of the tempo search range, BPM (above ``minTempo``).
    public var maxTempo: Double = 200
    /// Decay time of `beatPulse` after a beat, as a fraction of the beat period.
    public var beatPulseDecay: Double = 0.25

    /// The defaults every command uses: 64 logarithmic bands from 30 Hz to 16 kHz, automatic FFT size, tempo 60–200 BPM.
    public init() {}

    /// Checks the ranges; throws a one-line `MarbleError` (kind `.option`).
    public func validate() throws(MarbleError) {
        func fail(_ m: String) -> MarbleError { MarbleError(.option, m) }
        guard (8...512).contains(bandCount) else { throw fail("band count \(bandCount) must be between 8 and 512") }
        guard minFrequency >= 1, maxFrequency > minFrequency * 1.05 else {
            throw fail("frequency range \(minFrequency)–\(maxFrequency) Hz is empty")
        }
        guard (16...65536).contains(waveformLength) else { throw fail("waveform length \(waveformLength) must be 16…65536") }
        guard fftSize == 0 || (fftSize >= 256 && fftSize <= 65536 && fftSize & (fftSize - 1) == 0) else {
            throw fail("FFT size \(fftSize) must be 0 (auto) or a power of two 256…65536")
        }
        for (name, v) in [("attack", attack), ("release", release), ("gravity", gravity), ("peak hold", peakHold),
                          ("peak fall", peakFall), ("level attack", levelAttack), ("level release", levelRelease),
                          ("beat pulse decay", beatPulseDecay)] {
            guard v.isFinite, v >= 0 else { throw fail("\(name) must be a finite value ≥ 0") }
        }
        guard sensitivity.isFinite, sensitivity > 0 else { throw fail("sensitivity must be > 0") }
        guard noiseFloor.isFinite, noiseFloor < -6, noiseFloor >= -140 else { throw fail("noise floor must be between -140 and -6 dBFS") }
        guard dynamics.isFinite, (0.1...2).contains(dynamics) else { throw fail("dynamics must be between 0.1 and 2") }
        guard tilt.isFinite, (-12...12).contains(tilt) else { throw fail("tilt must be between -12 and 12 dB per octave") }
        guard minTempo >= 20, maxTempo > minTempo * 1.5, maxTempo <= 400 else {
            throw fail("tempo range \(minTempo)–\(maxTempo) BPM is invalid")
        }
    }

    /// The main FFT length used at `sampleRate`.
    public func resolvedFFTSize(sampleRate: Int) -> Int {
        if fftSize > 0 { return fftSize }
        return FastMath.powerOfTwo(from: 256, atLeast: Double(sampleRate) * 0.0425)
    }
}
