import Foundation
import MarbleCore

/// What ``OfflineAnalyzer`` finds in a whole song. Encodes to JSON with these exact keys:
/// `duration` (s), `sampleRate`, `tempo` (BPM, 0 = none), `beats` ([s]), `downbeats` ([s], the first
/// beat of each bar; empty when no bar accent stands out), `beatsPerBar` (0 = unknown), `onsets` ([s]),
/// `loudness.integrated` (LUFS), `loudness.range` (LU), `loudness.momentaryMax`, `loudness.shortTermMax`,
/// `peak` (dBFS), `dominantPitchClasses` (names, strongest first), `chroma` (12 values, C…B, max 1),
/// and `frames` (per-frame features, only when requested).
public struct AnalysisReport: Codable, Sendable, Equatable {
    /// The song's loudness figures (EBU R128).
    public struct Loudness: Codable, Sendable, Equatable {
        /// Gated integrated loudness (ITU-R BS.1770-4 / EBU R128), LUFS; -120 for silence.
        public var integrated: Double
        /// Loudness range (EBU Tech 3342), LU.
        public var range: Double
        /// Largest momentary (400 ms) loudness, LUFS.
        public var momentaryMax: Double
        /// Largest short-term (3 s) loudness, LUFS.
        public var shortTermMax: Double

        /// Loudness figures with the values given (LUFS, and LU for `range`).
        public init(integrated: Double, range: Double, momentaryMax: Double, shortTermMax: Double) {
            self.integrated = integrated; self.range = range
            self.momentaryMax = momentaryMax; self.shortTermMax = shortTermMax
        }
        enum CodingKeys: String, CodingKey { case integrated, range, momentaryMax, shortTermMax }
    }

    /// Compact per-frame features (for `marble analyze --frames`).
    public struct Frame: Codable, Sendable, Equatable {
        /// Media time of the frame, seconds (frame index / fps).
        public var time: Double
        /// RMS level over the frame period, linear (0…1 for full scale).
        public var rms: Float
        /// Sample peak over the frame period, linear.
        public var peak: Float
        /// Smoothed overall level, 0…1.
        public var level: Float
        /// Bass energy relative to its running average (about 1 on average).
        public var bass: Float
        /// Mid energy relative to its running average (about 1 on average).
        public var mid: Float
        /// Treble energy relative to its running average (about 1 on average).
        public var treble: Float
        /// Onset strength, 0…1.
        public var onset: Float
        /// Whether a beat falls in this frame (JSON key `beat`).
        public var isBeat: Bool
        /// Whether the beat in this frame starts a bar (JSON key `downbeat`).
        public var isDownbeat: Bool
        /// Position between the previous beat (0) and the next (1).
        public var beatPhase: Float
        /// Momentary loudness (400 ms), LUFS.
        public var loudness: Float
        /// Spectral centroid, Hz.
        public var centroid: Float
        /// Band levels, 0…1, lowest band first.
        public var bands: [Float]

        enum CodingKeys: String, CodingKey {
            case time, rms, peak, level, bass, mid, treble, onset, isBeat = "beat", isDownbeat = "downbeat", beatPhase, loudness,
                 centroid, bands
        }
    }

    /// Length of the analysed audio, seconds.
    public var duration: Double
    /// Sample rate of the analysed audio, Hz.
    public var sampleRate: Int
    /// Global tempo, BPM; 0 when no steady pulse was found.
    public var tempo: Double
    /// Beat times, seconds, in order.
    public var beats: [Double]
    /// Times of the first beat of each bar, seconds (a subset of `beats`; empty when no bar accent stands out).
    public var downbeats: [Double]
    /// Beats per bar found with the downbeats; 0 when unknown.
    public var beatsPerBar: Int
    /// Onset times, seconds, in order.
    public var onsets: [Double]
    /// Integrated loudness, loudness range and maxima.
    public var loudness: Loudness
    /// Sample peak, dBFS (-120 for silence).
    public var peak: Double
    /// Pitch-class names, strongest first (up to three; empty for silence or noise without pitch).
    public var dominantPitchClasses: [String]
    /// Average chroma, C…B, normalised so the strongest is 1.
    public var chroma: [Double]
    /// Per-frame features at `frameRate`, when requested.
    public var frames: [Frame]?
    /// Frame rate of `frames`, e.g. "60" or "30000/1001".
    public var frameRate: String?
    /// The song's waveform envelope (peak and RMS per bin, for the `overview` layer); not in the JSON.
    public var overview: WaveformOverview? = nil

    enum CodingKeys: String, CodingKey {
        case duration, sampleRate, tempo, beats, downbeats, beatsPerBar, onsets, loudness, peak, dominantPitchClasses, chroma, frames, frameRate
    }

    /// The twelve pitch-class names in chroma order, C first.
    public static let pitchClassNames = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]

    /// JSON (sorted keys, pretty-printed unless `compact`); times rounded to the millisecond, tempo,
    /// loudness and peak to 0.01.
    public func jsonData(compact: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = compact ? [.sortedKeys] : [.sortedKeys, .prettyPrinted]
        var copy = self
        func ms(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }
        copy.duration = ms(duration)
        copy.beats = beats.map(ms)
        copy.downbeats = downbeats.map(ms)
        copy.onsets = onsets.map(ms)
        func cents(_ x: Double) -> Double { (x * 100).rounded() / 100 }
        copy.tempo = cents(tempo)
        copy.peak = cents(peak)
        copy.loudness = Loudness(integrated: cents(loudness.integrated), range: cents(loudness.range),
                                 momentaryMax: cents(loudness.momentaryMax), shortTermMax: cents(loudness.shortTermMax))
        copy.chroma = chroma.map { ($0 * 1000).rounded() / 1000 }
        return try encoder.encode(copy)
    }

    /// The human summary `marble analyze` prints, e.g.
    /// ```
    /// Duration   3:12.4 (192.40 s, 44100 Hz)
    /// Tempo      128.0 BPM (410 beats, 1630 onsets)
    /// Loudness   -9.8 LUFS integrated, range 5.2 LU, peak -0.3 dBFS
    /// Pitch      A, E, C#
    /// ```
    public func summary() -> String {
        func f(_ x: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", x) }
        var lines = ["Duration   \(TimeFormat.clock(duration, tenths: true)) (\(f(duration, 2)) s, \(sampleRate) Hz)"]
        let meter = beatsPerBar > 0 ? ", \(beatsPerBar)/4" : ""
        lines.append(tempo > 0 ? "Tempo      \(f(tempo, 1)) BPM\(meter) (\(beats.count) beats, \(onsets.count) onsets)"
                               : "Tempo      none detected (\(onsets.count) onsets)")
        let lufs = loudness.integrated <= -119 ? "silence" : "\(f(loudness.integrated, 1)) LUFS integrated"
        let pk = peak <= -119 ? "-inf" : f(peak, 1)
        lines.append("Loudness   \(lufs), range \(f(loudness.range, 1)) LU, peak \(pk) dBFS")
        lines.append("Pitch      " + (dominantPitchClasses.isEmpty ? "none" : dominantPitchClasses.joined(separator: ", ")))
        return lines.joined(separator: "\n")
    }
}
