import MarbleCore

extension AudioFeatures {
    /// Applies the player's sensitivity to what visuals read: band levels and caps, the MilkDrop levels,
    /// the overall level and the waveform (clamped to their ranges). Measurements (rms, peak, loudness,
    /// dB values) stay as measured. In place, allocation-free; call it once on freshly computed features
    /// (the analyser keeps its own smoothing state, so scaling its output does not feed back).
    mutating func applySensitivity(_ factor: Float) {
        guard factor != 1, factor.isFinite, factor > 0 else { return }
        level = min(1, level * factor)
        bass *= factor; mid *= factor; treble *= factor
        bassAttenuated *= factor; midAttenuated *= factor; trebleAttenuated *= factor
        Self.scale(&bands, factor)
        Self.scale(&bandPeaks, factor)
        Self.scale(&waveformLeft, factor)
        Self.scale(&waveformRight, factor)
    }

    private static func scale(_ values: inout [Float], _ factor: Float) {
        values.withUnsafeMutableBufferPointer { v in
            for i in v.indices { v[i] = min(1, max(-1, v[i] * factor)) }
        }
    }
}
