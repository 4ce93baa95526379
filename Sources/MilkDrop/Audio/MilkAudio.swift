import MarbleCore

/// The sound as a MilkDrop preset sees it, derived once per frame from `AudioFeatures`.
///
/// MilkDrop hands presets 576 waveform samples and 512 spectrum values per channel, and three levels
/// (`bass`, `mid`, `treb`) that average about 1 and rise above it on hits, with slower `_att` versions.
/// Arrays are allocated once in `init` and rewritten in place by ``update(from:)``.
public final class MilkAudio {
    /// Waveform samples per channel (MilkDrop's 576).
    public static let waveformLength = 576
    /// Spectrum values per channel (MilkDrop's 512).
    public static let spectrumLength = 512

    /// Left (or mono) samples, −1…1, the most recent last.
    public private(set) var waveLeft: [Float]
    /// Right samples (the left ones for mono input), −1…1.
    public private(set) var waveRight: [Float]
    /// Magnitude per frequency, low to high, linear 0 to 22 kHz at 44.1 kHz (about 1 for a full-scale sine;
    /// both channels see the mix: the analyser keeps one spectrum).
    public private(set) var spectrum: [Float]
    /// MilkDrop's levels: about 1 on average, above 1 on hits; `…Attenuated` are the `_att` versions.
    public private(set) var bass: Float = 1, mid: Float = 1, treble: Float = 1
    public private(set) var bassAttenuated: Float = 1, midAttenuated: Float = 1, trebleAttenuated: Float = 1

    public init() {
        waveLeft = [Float](repeating: 0, count: Self.waveformLength)
        waveRight = [Float](repeating: 0, count: Self.waveformLength)
        spectrum = [Float](repeating: 0, count: Self.spectrumLength)
    }

    /// Copies this frame's sound: the last 576 waveform samples (fewer are padded with silence at the
    /// start), the spectrum resampled to 512 values over 0 Hz…22.05 kHz (zero without one), and the levels.
    public func update(from features: AudioFeatures) {
        copyTail(features.waveformLeft, into: &waveLeft)
        copyTail(features.waveformRight.isEmpty ? features.waveformLeft : features.waveformRight, into: &waveRight)
        resampleSpectrum(features.spectrum, binHertz: features.spectrumResolution)
        bass = finite(features.bass); mid = finite(features.mid); treble = finite(features.treble)
        bassAttenuated = finite(features.bassAttenuated)
        midAttenuated = finite(features.midAttenuated)
        trebleAttenuated = finite(features.trebleAttenuated)
    }

    private func finite(_ x: Float) -> Float { x.isFinite ? x : 0 }

    private func copyTail(_ source: [Float], into target: inout [Float]) {
        let n = target.count, m = min(n, source.count), pad = n - m
        target.withUnsafeMutableBufferPointer { t in
            for i in 0..<pad { t[i] = 0 }
            source.withUnsafeBufferPointer { s in
                for i in 0..<m { let x = s[s.count - m + i]; t[pad + i] = x.isFinite ? max(-1, min(1, x)) : 0 }
            }
        }
    }

    /// Value i of 512 covers 22050·i/512 … 22050·(i+1)/512 Hz: the largest bin magnitude in that range
    /// (or the nearest bin when bins are wider than a value).
    private func resampleSpectrum(_ bins: [Float], binHertz: Float) {
        let n = spectrum.count
        guard !bins.isEmpty, binHertz > 0, binHertz.isFinite else {
            for i in 0..<n { spectrum[i] = 0 }
            return
        }
        let hertzPerValue: Float = 22050 / Float(n)
        bins.withUnsafeBufferPointer { b in
            for i in 0..<n {
                let lo = Int(Float(i) * hertzPerValue / binHertz)
                let hi = max(lo + 1, Int(Float(i + 1) * hertzPerValue / binHertz))
                var peak: Float = 0
                if lo < b.count {
                    for k in lo..<min(hi, b.count) where b[k].isFinite { peak = max(peak, b[k]) }
                }
                spectrum[i] = peak
            }
        }
    }
}
