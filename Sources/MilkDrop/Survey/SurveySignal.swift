import Glibc
import MarbleCore

/// A made-up but music-like sound for checking presets without a song: a bass note and a chord, a
/// kick twice a second, hiss; as the `AudioFeatures` a preset would get at 60 frames a second.
/// The same frame index always gives the same features.
package struct SurveySignal: Sendable {
    package init() {}

    /// The features of frame `index`: 1,024 waveform samples per channel, a 1,025-bin spectrum
    /// (22.05 kHz resolution 21.5 Hz), and MilkDrop-like levels rising on each kick.
    package func features(frame index: Int, fps: Double = 60) -> AudioFeatures {
        var f = AudioFeatures(bandCount: 8, waveformLength: 1024, spectrumLength: 1025)
        let t = Double(index) / fps
        let sinceKick = t.truncatingRemainder(dividingBy: 0.5)
        let kick = Float(exp(-sinceKick * 9))
        var noise = UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15 | 1
        for i in 0..<1024 {
            let s = t + Double(i - 1024) / 44100
            noise ^= noise << 13; noise ^= noise >> 7; noise ^= noise << 17
            let hiss = Float(Double(noise % 2001) / 1000 - 1) * 0.05
            let bass = Float(sin(2 * Double.pi * 55 * s)) * (0.3 + 0.5 * kick)
            let chord = Float(sin(2 * Double.pi * 440 * s) + sin(2 * Double.pi * 554.4 * s) + sin(2 * Double.pi * 659.3 * s)) * 0.1
            f.waveformLeft[i] = max(-1, min(1, bass + chord + hiss))
            f.waveformRight[i] = max(-1, min(1, bass - chord * 0.5 + hiss))
        }
        f.spectrumResolution = 44100 / 2048
        for (hz, level) in [(55.0, 0.3 + 0.5 * Double(kick)), (440, 0.2), (554.4, 0.2), (659.3, 0.2), (5000, 0.05), (9000, 0.03)] {
            let bin = Int(hz / Double(f.spectrumResolution))
            if bin < f.spectrum.count { f.spectrum[bin] = Float(level) }
        }
        f.bass = 0.6 + 1.6 * kick; f.mid = 0.9 + 0.3 * Float(sin(t * 3)); f.treble = 0.8 + 0.4 * Float(sin(t * 7))
        f.bassAttenuated = 0.8 + 0.5 * kick; f.midAttenuated = 1; f.trebleAttenuated = 1
        f.isBeat = sinceKick < 1 / fps
        f.time = t
        return f
    }
}
