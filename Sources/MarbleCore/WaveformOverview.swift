/// The whole song's waveform at a glance, known before the first frame: per bin of ``binSeconds``,
/// each channel's sample peak and RMS (FFmpeg's showwavespic draws the same envelope).
///
/// The analysis pass over the song builds it (`OfflineAnalyzer`), so its resolution does not depend
/// on the output size: at most ``maximumBins`` bins, and more than half that for any song longer than
/// ``maximumBins`` samples (bins merge in pairs as the song goes on). A shader maps a time `t` to bin
/// `t / binSeconds`.
public struct WaveformOverview: Sendable, Equatable {
    /// The most bins an overview holds.
    public static let maximumBins = 4096
    /// Seconds of sound per bin (the last bin may hold less).
    public let binSeconds: Double
    /// Per channel (one for mono, two for stereo: left, right), per bin: the largest absolute sample, 0…1.
    public let peaks: [[Float]]
    /// Per channel, per bin: the root mean square of the samples, 0…1.
    public let rms: [[Float]]

    /// An overview from its figures; `peaks` and `rms` must have the same shape (checked: a mismatch
    /// or an empty channel list gives an empty overview).
    public init(binSeconds: Double, peaks: [[Float]], rms: [[Float]]) {
        let consistent = !peaks.isEmpty && peaks.count == rms.count
            && zip(peaks, rms).allSatisfy { $0.count == $1.count && $0.count == peaks[0].count }
        self.binSeconds = binSeconds.isFinite && binSeconds > 0 ? binSeconds : 1
        self.peaks = consistent ? peaks.map { $0.map(Self.unit) } : [[]]
        self.rms = consistent ? rms.map { $0.map(Self.unit) } : [[]]
    }

    /// Number of bins.
    public var count: Int { peaks[0].count }
    /// Number of channels (1 or 2).
    public var channels: Int { peaks.count }
    /// The length the bins cover, seconds.
    public var duration: Double { Double(count) * binSeconds }

    private static func unit(_ x: Float) -> Float { x.isFinite ? min(1, max(0, x)) : 0 }
}
