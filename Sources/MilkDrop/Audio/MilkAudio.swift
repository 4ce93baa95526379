import MarbleCore

/// The sound as a MilkDrop preset sees it, derived once per frame from `AudioFeatures`.
///
/// MilkDrop hands presets 576 waveform samples and 512 spectrum values per channel, and three levels
/// (`bass`, `mid`, `treb`) that average about 1 and rise above it on hits, with slower `_att` versions.
/// The levels are MilkDrop's own, computed here from each frame's waveform (`MilkLevels`), frame-rate
/// aware and repeatable: the same frames give the same values. Arrays are allocated once in `init`
/// and rewritten in place by ``update(from:fps:frame:)``.
package final class MilkAudio {
    /// Waveform samples per channel (MilkDrop's 576).
    package static let waveformLength = 576
    /// Spectrum values per channel (MilkDrop's 512).
    package static let spectrumLength = 512

    /// Left (or mono) samples, −1…1, the most recent last.
    package private(set) var waveLeft: [Float]
    /// Right samples (the left ones for mono input), −1…1.
    package private(set) var waveRight: [Float]
    /// Magnitude per frequency, low to high, linear 0 to 22 kHz at 44.1 kHz (about 1 for a full-scale sine;
    /// both channels see the mix: the analyser keeps one spectrum).
    package private(set) var spectrum: [Float]
    /// MilkDrop's levels: about 1 on average, above 1 on hits; `…Attenuated` are the `_att` versions.
    package var bass: Float { levels.relative.x }
    package var mid: Float { levels.relative.y }
    package var treble: Float { levels.relative.z }
    package var bassAttenuated: Float { levels.attenuated.x }
    package var midAttenuated: Float { levels.attenuated.y }
    package var trebleAttenuated: Float { levels.attenuated.z }
    /// The treble band's sum itself (MilkDrop's `imm[2]`, in its units), which the built-in wave's mode 3
    /// squares for its opacity.
    package var trebleImmediate: Float { levels.immediate.z }

    private var levels = MilkLevels()
    /// The frame the levels were last advanced for (−1: none yet).
    private var lastFrame = -1

    package init() {
        waveLeft = [Float](repeating: 0, count: Self.waveformLength)
        waveRight = [Float](repeating: 0, count: Self.waveformLength)
        spectrum = [Float](repeating: 0, count: Self.spectrumLength)
    }

    /// Copies frame `frame`'s sound (at `fps` frames a second): the last 576 waveform samples (fewer
    /// are padded with silence at the start), the spectrum resampled to 512 values over 0 Hz…22.05 kHz
    /// (zero without one), and advances the levels from the left samples. The same frame again keeps
    /// the levels it had (a redrawn preview); an earlier frame (a seek back) restarts them from silence;
    /// without `frame`, every call is the next frame.
    package func update(from features: AudioFeatures, fps: Double = 60, frame: Int? = nil) {
        copyTail(features.waveformLeft, into: &waveLeft)
        copyTail(features.waveformRight.isEmpty ? features.waveformLeft : features.waveformRight, into: &waveRight)
        resampleSpectrum(features.spectrum, binHertz: features.spectrumResolution)
        let frame = frame ?? lastFrame + 1
        if frame == lastFrame { return }
        if frame < lastFrame { levels.reset() }
        lastFrame = frame
        waveLeft.withUnsafeBufferPointer { levels.update(wave: $0, fps: Float(fps), frame: frame) }
    }

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
