import MarbleCore
import MarbleMedia

extension MediaAnalysis {
    /// A file analysed as live mode analyses a capture: decoded in blocks and fed to a
    /// ``FeatureExtractor`` with no first pass, so each frame's features use only the sound up to that
    /// frame, and beats and tempo come from the causal beat tracker (they settle after a few seconds).
    ///
    /// - Parameters:
    ///   - path: any file FFmpeg demuxes with an audio stream.
    ///   - fps: frames per second of the features.
    ///   - configuration: the analysis settings (bands, smoothing), as for a capture.
    ///   - body: called with each frame's features in order (`time` set, in seconds); returns false to
    ///     stop early. The features are reused between calls: copy what you keep.
    /// - Throws: `.input` when the file cannot be opened or decoded, `.option` for a bad `fps`.
    public static func followCausally(path: String, fps: Rational, configuration: AnalysisConfiguration = AnalysisConfiguration(),
                                      _ body: (AudioFeatures) -> Bool) throws(MarbleError) {
        _ = try Limits.check(rate: fps)
        let decoder = try AudioDecoder(path: path)
        let extractor = try extractor(sampleRate: decoder.sampleRate, fps: fps, configuration: configuration, report: nil)
        try forEachFrame(decoder: decoder, extractor: extractor, fps: fps, body)
    }
}
