import MarbleCore
import MarbleMedia

/// Analysis of a media file, shared by `marble analyze` and `marble render`, so that both see exactly
/// the same values: a first pass over the whole song (tempo, beat grid, loudness) with
/// ``OfflineAnalyzer``, then per-frame features from a ``FeatureExtractor`` that carries that beat grid.
public enum MediaAnalysis {
    /// Pass 1: decodes the whole file into the offline analyser. Memory stays flat in song length
    /// (the analyser keeps a 5-minute window of its onset envelope, not samples; see ``OfflineAnalyzer``).
    /// `progress` receives the seconds analysed so far (about ten times a second of song); returning
    /// false from `shouldContinue` stops with a `.cancelled` error.
    public static func report(path: String, configuration: AnalysisConfiguration = AnalysisConfiguration(),
                              shouldContinue: () -> Bool = { true },
                              progress: (Double) -> Void = { _ in }) throws(MarbleError) -> AnalysisReport {
        let decoder = try AudioDecoder(path: path)
        let analyzer = try OfflineAnalyzer(sampleRate: decoder.sampleRate, configuration: configuration)
        var reported = 0
        while try decoder.decodeNext({ left, right in analyzer.append(left: left, right: right) }) {
            if decoder.samplesDelivered - reported >= decoder.sampleRate / 10 {
                reported = decoder.samplesDelivered
                guard shouldContinue() else { throw MarbleError(.cancelled, "stopped during analysis; no file written") }
                progress(Double(reported) / Double(decoder.sampleRate))
            }
        }
        guard decoder.samplesDelivered > 0 else { throw MarbleError(.input, "\(path): no audio could be decoded") }
        return analyzer.finish()
    }

    /// The per-frame extractor a render uses: features at `fps`, beats from the song's beat grid.
    public static func extractor(sampleRate: Int, fps: Rational, configuration: AnalysisConfiguration,
                                 report: AnalysisReport?) throws(MarbleError) -> FeatureExtractor {
        let extractor = try FeatureExtractor(sampleRate: sampleRate, fps: fps, configuration: configuration)
        if let report { extractor.setBeatGrid(from: report) }
        return extractor
    }

    /// Pass 2 for `marble analyze --frames`: every frame's features, computed as a render computes them.
    public static func frames(path: String, fps: Rational, configuration: AnalysisConfiguration,
                              report: AnalysisReport) throws(MarbleError) -> [AnalysisReport.Frame] {
        let decoder = try AudioDecoder(path: path)
        let extractor = try extractor(sampleRate: decoder.sampleRate, fps: fps, configuration: configuration, report: report)
        var frames: [AnalysisReport.Frame] = []
        try forEachFrame(decoder: decoder, extractor: extractor, fps: fps) { features in
            frames.append(AnalysisReport.Frame(features))
            return true
        }
        return frames
    }

    /// Steps through the file frame by frame (``OfflineStepper``) and hands `body` each frame's
    /// features (`time` set) until the sound ends or `body` returns false.
    static func forEachFrame(decoder: AudioDecoder, extractor: FeatureExtractor, fps: Rational,
                             _ body: (AudioFeatures) -> Bool) throws(MarbleError) {
        let stepper = OfflineStepper(decoder: decoder, extractor: extractor, fps: fps)
        var features = extractor.makeFeatures()
        while try stepper.next(into: &features) {
            guard body(features) else { return }
        }
    }
}

extension AnalysisReport.Frame {
    /// The compact record of one frame's features.
    public init(_ f: AudioFeatures) {
        self.init(time: f.time, rms: f.rms, peak: f.peak, level: f.level, bass: f.bass, mid: f.mid, treble: f.treble,
                  onset: f.onset, isBeat: f.isBeat, isDownbeat: f.isDownbeat, beatPhase: f.beatPhase,
                  loudness: f.loudnessMomentary, centroid: f.centroid, bands: f.bands)
    }
}
