import MarbleCore

/// A preset's `analysis:` section: how the sound is measured for its layers (the frequency layout,
/// the noise floor, the sensitivity and how much the bars move). Every field is optional; what is not
/// given keeps the engine's default (see `AnalysisConfiguration`).
///
/// ```yaml
/// analysis:
///   layout: semitone        # logarithmic (default) | semitone (one band per note)
///   bands: 96               # logarithmic layout: 8…512 (`--bands` on the command line wins)
///   min_frequency: 40       # Hz, 10…20000
///   max_frequency: 12000    # Hz, above min_frequency, ≤ 24000
///   noise_floor: -60        # dBFS, -140…-12: quieter bands read 0
///   sensitivity: 1.5        # fixed gain factor 0.01…100 (before the automatic gain)
///   auto_sensitivity: true  # CAVA's autosens: the loudest band is kept just under the top
///   dynamics: 0.7           # 0.1…2: 1 = linear amplitude (lively), 0.5 default, lower = flatter
///   tilt: 4.5               # dB per octave around 1 kHz, -12…12 (lifts the treble for display)
///   gravity: 6              # CAVA-style falling bars, full heights per s², 0…100 (0: smooth release)
///   attack: 0.01            # rise time constant of bars, s, 0…2
///   release: 0.15           # fall time constant without gravity, s, 0…5
/// ```
/// Live sessions apply the section of the preset they start with.
public struct PresetAnalysis: Sendable, Equatable, Codable {
    /// `logarithmic` or `semitone` (one band per note).
    public var layout: String?
    /// Band count of the logarithmic layout, 8…512.
    public var bands: Int?
    /// Lowest band edge, Hz.
    public var minFrequency: Double?
    /// Highest band edge, Hz.
    public var maxFrequency: Double?
    /// dBFS under which bands read 0.
    public var noiseFloor: Double?
    /// Fixed gain factor before the automatic gain.
    public var sensitivity: Double?
    /// Keep the loudest band just under the top (CAVA's autosens).
    public var autoSensitivity: Bool?
    /// How much bars and the level move: 1 linear amplitude, 0.5 the default, lower flatter.
    public var dynamics: Double?
    /// Display tilt, dB per octave around 1 kHz.
    public var tilt: Double?
    /// CAVA-style accelerating fall, full heights per s² (0: exponential release).
    public var gravity: Double?
    /// Rise time constant of bars, s.
    public var attack: Double?
    /// Fall time constant of bars without gravity, s.
    public var release: Double?

    /// No field set: the engine's defaults.
    public init() {}

    /// True when no field is set.
    public var isEmpty: Bool { self == PresetAnalysis() }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case layout, bands, minFrequency = "min_frequency", maxFrequency = "max_frequency", noiseFloor = "noise_floor"
        case sensitivity, autoSensitivity = "auto_sensitivity", dynamics, tilt, gravity, attack, release
    }

    /// The layouts `layout` may name.
    public static let layouts = ["logarithmic", "semitone"]

    /// Checks every given field against its range; the error names the field (`analysis.tilt`).
    func validate(source: String) throws(MarbleError) {
        func fail(_ field: CodingKeys, _ problem: String) -> MarbleError {
            MarbleError(.preset, "\(source): analysis.\(field.rawValue): \(problem)")
        }
        func check(_ value: Double?, _ field: CodingKeys, _ range: ClosedRange<Double>, _ unit: String = "") throws(MarbleError) {
            guard let value else { return }
            guard value.isFinite, range.contains(value) else {
                throw fail(field, "\(value) is out of range \(range.lowerBound)…\(range.upperBound)\(unit)")
            }
        }
        if let layout, !Self.layouts.contains(layout) {
            throw fail(.layout, "unknown layout \"\(layout)\" (expected one of: \(Self.layouts.joined(separator: ", ")))")
        }
        if let bands, !(8...512).contains(bands) { throw fail(.bands, "\(bands) is out of range 8…512") }
        try check(minFrequency, .minFrequency, 10...20000, " Hz")
        try check(maxFrequency, .maxFrequency, 20...24000, " Hz")
        if let low = minFrequency, let high = maxFrequency, high <= low * 1.05 {
            throw fail(.maxFrequency, "\(high) Hz must be above min_frequency (\(low) Hz)")
        }
        try check(noiseFloor, .noiseFloor, -140 ... -12, " dBFS")
        try check(sensitivity, .sensitivity, 0.01...100)
        try check(dynamics, .dynamics, 0.1...2)
        try check(tilt, .tilt, -12...12, " dB per octave")
        try check(gravity, .gravity, 0...100)
        try check(attack, .attack, 0...2, " s")
        try check(release, .release, 0...5, " s")
    }
}
