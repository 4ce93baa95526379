import Foundation
import MarbleCore
import MarbleMedia

/// What ``OfflineAnalyzer`` finds in a whole song. Encodes to JSON with these exact keys:
/// `duration` (s), `sampleRate`, `tempo` (BPM, 0 = none), `beats` ([s]), `downbeats` ([s], the first
/// beat of each bar; empty when no bar accent stands out), `beatsPerBar` (0 = unknown), `onsets` ([s]),
/// `loudness.integrated` (LUFS), `loudness.range` (LU), `loudness.momentaryMax`, `loudness.shortTermMax`,
/// `peak` (dBFS), `dominantPitchClasses` (names, strongest first), `chroma` (12 values, C…B, max 1),
/// and `frames` (per-frame features, only when requested).
public struct AnalysisReport: Codable, Sendable, Equatable {
    public struct Loudness: Codable, Sendable, Equatable {
        /// Gated integrated loudness (ITU-R BS.1770-4 / EBU R128), LUFS; -120 for silence.
        public var integrated: Double
        /// Loudness range (EBU Tech 3342), LU.
        public var range: Double
        /// Largest momentary (400 ms) loudness, LUFS.
        public var momentaryMax: Double
        /// Largest short-term (3 s) loudness, LUFS.
        public var shortTermMax: Double

        public init(integrated: Double, range: Double, momentaryMax: Double, shortTermMax: Double) {
            self.integrated = integrated; self.range = range
            self.momentaryMax = momentaryMax; self.shortTermMax = shortTermMax
        }
        enum CodingKeys: String, CodingKey { case integrated, range, momentaryMax, shortTermMax }
    }

    /// Compact per-frame features (for `marble analyze --frames`).
    public struct Frame: Codable, Sendable, Equatable {
        public var time: Double
        public var rms: Float
        public var peak: Float
        public var level: Float
        public var bass: Float
        public var mid: Float
        public var treble: Float
        public var onset: Float
        public var isBeat: Bool
        public var isDownbeat: Bool
        public var beatPhase: Float
        public var loudness: Float
        public var centroid: Float
        public var bands: [Float]

        enum CodingKeys: String, CodingKey {
            case time, rms, peak, level, bass, mid, treble, onset, isBeat = "beat", isDownbeat = "downbeat", beatPhase, loudness,
                 centroid, bands
        }
    }

    public var duration: Double
    public var sampleRate: Int
    public var tempo: Double
    public var beats: [Double]
    public var downbeats: [Double]
    public var beatsPerBar: Int
    public var onsets: [Double]
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

    enum CodingKeys: String, CodingKey {
        case duration, sampleRate, tempo, beats, downbeats, beatsPerBar, onsets, loudness, peak, dominantPitchClasses, chroma, frames, frameRate
    }

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
