/// The audio features a kernel reacts to, sanitised once per frame in `prepare`: every value finite
/// and clamped to a sane range, so no feature can push a kernel into NaN or wrap-around.
import MarbleCore

struct AudioDrive: Sendable {
    /// 0…1.5
    var level: Float = 0
    /// MilkDrop-style slow (attenuated) bands, ≈1 on average, 0…3.
    var bassSlow: Float = 0, midSlow: Float = 0, trebleSlow: Float = 0
    /// MilkDrop-style bands against a slow average (≈1 on average, above on hits), 0…3.
    var bass: Float = 0, mid: Float = 0, treble: Float = 0
    /// 0…1
    var beat: Float = 0

    init() {}

    init(_ f: AudioFeatures) {
        level = clamp(f.level, 0, 1.5)
        bassSlow = clamp(f.bassAttenuated, 0, 3); midSlow = clamp(f.midAttenuated, 0, 3)
        trebleSlow = clamp(f.trebleAttenuated, 0, 3)
        bass = clamp(f.bass, 0, 3); mid = clamp(f.mid, 0, 3); treble = clamp(f.treble, 0, 3)
        beat = clamp01(f.beatPulse)
    }
}
