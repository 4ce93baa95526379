/// What the audio sounds like during one output frame: the only audio input a kernel sees.
///
/// A plain value, filled by the analysis engine once per frame and read by kernels through
/// ``FrameUniforms``. Arrays are allocated once (``init(bandCount:waveformLength:spectrumLength:)``) and rewritten in
/// place by the analyser, so passing features from frame to frame allocates nothing.
///
/// Conventions: levels named like MilkDrop's (`bass`, `mid`, `treble`) average about 1.0 over a song
/// and rise above 1 on hits; `*Attenuated` are slow versions of them. Values in `bands` are
/// display-ready 0…1 after smoothing and sensitivity. Nothing here is ever NaN or infinite.
public struct AudioFeatures: Sendable, Equatable {
    /// Media time of the frame, in seconds.
    public var time: Double = 0

    // Levels
    /// RMS of the analysis window, linear 0…1 (full-scale sine ≈ 0.707).
    public var rms: Float = 0
    /// Absolute sample peak in the window, linear 0…1.
    public var peak: Float = 0
    /// Smoothed overall level 0…1 for driving visuals: three quarters where the frame's loudness
    /// (attack/release applied) ranks among the last minute's frames, a quarter how close it is to the
    /// recent loud parts. On any song, compressed or not, about a tenth of the frames read under 0.2
    /// and a tenth over 0.9; a louder section reads higher than the quieter one before it.
    public var level: Float = 0

    // MilkDrop-style band levels
    /// Energy in 20–250 Hz relative to its slow running average (about 8 s): about 1 on average, above 1 on hits.
    public var bass: Float = 0
    /// Energy in 250 Hz–4 kHz relative to its slow running average: about 1 on average, above 1 on hits.
    public var mid: Float = 0
    /// Energy in 4–16 kHz relative to its slow running average: about 1 on average, above 1 on hits.
    public var treble: Float = 0
    /// `bass` measured against a faster average (0.3 s): a calmer value for slow motion (MilkDrop's `bass_att`).
    public var bassAttenuated: Float = 0
    /// `mid` measured against a faster average (0.3 s) (MilkDrop's `mid_att`).
    public var midAttenuated: Float = 0
    /// `treble` measured against a faster average (0.3 s) (MilkDrop's `treble_att`).
    public var trebleAttenuated: Float = 0

    // Rhythm
    /// Onset strength this frame, 0…1.
    public var onset: Float = 0
    /// 1 on a beat, decaying towards 0 until the next one.
    public var beatPulse: Float = 0
    /// Position between the previous beat (0) and the next (1).
    public var beatPhase: Float = 0
    /// Current tempo estimate in BPM (0 when unknown).
    public var tempo: Float = 0
    /// True on the frame a beat falls in.
    public var isBeat: Bool = false

    // Timbre and loudness
    /// Spectral centroid in Hz.
    public var centroid: Float = 0
    /// Spectral flux (positive magnitude change), unnormalised.
    public var flux: Float = 0
    /// Momentary loudness (400 ms window), LUFS; -120 for silence.
    public var loudnessMomentary: Float = -120
    /// Short-term loudness (3 s window), LUFS; -120 for silence.
    public var loudnessShortTerm: Float = -120
    /// Integrated (gated, BS.1770-4) loudness from the stream start up to this frame, LUFS; -120 for silence.
    public var loudnessIntegrated: Float = -120
    /// True on the frame an onset (a new note or hit) is detected.
    public var isOnset: Bool = false
    /// Count of beats so far (the beat that `beatPhase` counts from), −1 before the first.
    public var beatIndex: Int = -1
    /// True on the frame a bar's first beat falls in (needs a beat grid with downbeats).
    public var isDownbeat: Bool = false
    /// Position in the bar, 0 at the downbeat rising to 1 at the next (0 when bars are unknown).
    public var barPhase: Float = 0
    /// RMS of the analysis window in dBFS (full-scale sine −3 dB), floored at −120.
    public var rmsDecibels: Float = -120
    /// Sample peak in dBFS, floored at −120.
    public var peakDecibels: Float = -120
    /// Left channel's (or mono) absolute sample peak over the frame period, linear 0…1 (for level meters).
    public var peakLeft: Float = 0
    /// Right channel's absolute sample peak over the frame period, linear 0…1 (the left one for mono).
    public var peakRight: Float = 0
    /// Left channel's RMS over the frame period, linear 0…1 (full-scale sine ≈ 0.707).
    public var rmsLeft: Float = 0
    /// Right channel's RMS over the frame period, linear 0…1.
    public var rmsRight: Float = 0

    /// Log-spaced band levels, 0…1, smoothed.
    public var bands: [Float]
    /// Falling peak caps over `bands`, 0…1.
    public var bandPeaks: [Float]
    /// Twelve pitch classes (C, C#, …, B), each 0…1.
    public var chroma: [Float]
    /// Left channel (or mono) samples around the frame time, −1…1.
    public var waveformLeft: [Float]
    /// Right channel samples (a copy of the left one for mono input), −1…1.
    public var waveformRight: [Float]
    /// Band levels before smoothing, dBFS (a full-scale sine in the band reads about 0), floored at −120.
    public var bandsDecibels: [Float]
    /// FFT magnitude per bin (full-scale sine ≈ 1 at its bin), or empty when not requested
    /// (size it with `spectrumLength` = the analyser's bin count).
    public var spectrum: [Float]
    /// `spectrum` in dBFS, floored at −120; empty when `spectrum` is.
    public var spectrumDecibels: [Float]
    /// Hz between two `spectrum` bins (sample rate / FFT length; bin k is at k × this), 0 without a spectrum.
    public var spectrumResolution: Float = 0
    /// Amplitude per equal-tempered semitone (A4 = 440 Hz), constant-Q: ``pitchCount`` values from
    /// MIDI note ``lowestPitch`` (C0, 16.35 Hz) to B8 (7.9 kHz); a full-scale sine at a note's frequency
    /// reads ≈ 1 there and ≈ 0 one semitone away. Empty when not requested (size it with `pitchCount`;
    /// see ``OptionalFeatures/pitches``).
    public var pitches: [Float]

    /// MIDI note number of `pitches[0]` (C0).
    public static let lowestPitch = 12
    /// Semitones in `pitches` when requested: nine octaves, C0…B8.
    public static let pitchCount = 108

    /// Silence, with the arrays allocated once at these sizes: `bandCount` bands, `waveformLength` samples per waveform channel, and `spectrumLength` spectrum bins (0: no spectrum); no pitches.
    public init(bandCount: Int = 64, waveformLength: Int = 1024, spectrumLength: Int = 0) {
        self.init(bandCount: bandCount, waveformLength: waveformLength, spectrumLength: spectrumLength, pitchCount: 0)
    }

    /// Silence, with the arrays allocated once at these sizes: `bandCount` bands, `waveformLength` samples
    /// per waveform channel, `spectrumLength` spectrum bins (0: no spectrum) and `pitchCount` semitones
    /// (0: no pitches, else ``pitchCount``).
    public init(bandCount: Int, waveformLength: Int, spectrumLength: Int, pitchCount: Int) {
        pitches = [Float](repeating: 0, count: pitchCount)
        bands = [Float](repeating: 0, count: bandCount)
        bandsDecibels = [Float](repeating: -120, count: bandCount)
        spectrum = [Float](repeating: 0, count: spectrumLength)
        spectrumDecibels = [Float](repeating: -120, count: spectrumLength)
        bandPeaks = [Float](repeating: 0, count: bandCount)
        chroma = [Float](repeating: 0, count: 12)
        waveformLeft = [Float](repeating: 0, count: waveformLength)
        waveformRight = [Float](repeating: 0, count: waveformLength)
    }

    /// Silence, at a time.
    public static func silent(at time: Double, bandCount: Int = 64, waveformLength: Int = 1024) -> AudioFeatures {
        var f = AudioFeatures(bandCount: bandCount, waveformLength: waveformLength)
        f.time = time
        return f
    }

    /// The scalar features a preset binding can follow, by name, in documentation order: one table for
    /// lookups, docs and error messages.
    public static let scalars: [(name: String, value: KeyPath<AudioFeatures, Float> & Sendable)] = [
        ("rms", \.rms), ("peak", \.peak), ("level", \.level), ("bass", \.bass), ("mid", \.mid),
        ("treble", \.treble), ("bass_att", \.bassAttenuated), ("mid_att", \.midAttenuated),
        ("treble_att", \.trebleAttenuated), ("onset", \.onset), ("beat", \.beatPulse), ("beat_phase", \.beatPhase),
    ]

    /// Names a binding can follow (``scalarKeyPath(named:)``).
    public static var scalarNames: [String] { scalars.map(\.name) }

    /// The key path of a scalar feature by its preset name (resolve once, read every frame); nil for
    /// unknown names.
    public static func scalarKeyPath(named name: String) -> (KeyPath<AudioFeatures, Float> & Sendable)? {
        scalars.first { $0.name == name }?.value
    }
}

extension AudioFeatures {
    /// Becomes a copy of `other`, writing into this value's own arrays: no allocation when their sizes
    /// match (a plain assignment would share `other`'s arrays, and the next write to either would copy).
    public mutating func copy(from other: AudioFeatures) {
        // Park this value's arrays (swapping in empty ones allocates nothing), take every field of
        // `other`, then put the parked arrays back, still uniquely owned, and overwrite their contents.
        var b = [Float](), bp = [Float](), c = [Float](), wl = [Float](), wr = [Float]()
        var bd = [Float](), sp = [Float](), sd = [Float](), pi = [Float]()
        swap(&b, &bands); swap(&bp, &bandPeaks); swap(&c, &chroma); swap(&wl, &waveformLeft)
        swap(&wr, &waveformRight); swap(&bd, &bandsDecibels); swap(&sp, &spectrum); swap(&sd, &spectrumDecibels)
        swap(&pi, &pitches)
        self = other
        swap(&b, &bands); swap(&bp, &bandPeaks); swap(&c, &chroma); swap(&wl, &waveformLeft)
        swap(&wr, &waveformRight); swap(&bd, &bandsDecibels); swap(&sp, &spectrum); swap(&sd, &spectrumDecibels)
        swap(&pi, &pitches)
        Self.overwrite(&bands, with: other.bands)
        Self.overwrite(&bandPeaks, with: other.bandPeaks)
        Self.overwrite(&chroma, with: other.chroma)
        Self.overwrite(&waveformLeft, with: other.waveformLeft)
        Self.overwrite(&waveformRight, with: other.waveformRight)
        Self.overwrite(&bandsDecibels, with: other.bandsDecibels)
        Self.overwrite(&spectrum, with: other.spectrum)
        Self.overwrite(&spectrumDecibels, with: other.spectrumDecibels)
        Self.overwrite(&pitches, with: other.pitches)
    }

    private static func overwrite(_ target: inout [Float], with source: [Float]) {
        guard target.count == source.count else {
            target = source
            return
        }
        target.withUnsafeMutableBufferPointer { t in
            source.withUnsafeBufferPointer { s in
                guard let to = t.baseAddress, let from = s.baseAddress else { return }
                to.update(from: from, count: s.count)
            }
        }
    }
}

/// Features that cost extra analysis, computed only when a scene's shaders ask for them
/// (``ShaderDescriptor/needs``): the render, live and play paths request the union of their scenes'
/// needs from the analyser, which then sizes ``AudioFeatures`` to hold them.
public struct OptionalFeatures: OptionSet, Sendable, Hashable {
    /// The set's bits.
    public let rawValue: Int
    /// The set with these bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// ``AudioFeatures/spectrum`` and ``AudioFeatures/spectrumDecibels`` (the main FFT's bins; cheap).
    public static let spectrum = OptionalFeatures(rawValue: 1)
    /// ``AudioFeatures/pitches`` (a constant-Q transform: one long FFT per frame, about 0.3 ms).
    public static let pitches = OptionalFeatures(rawValue: 2)
}
