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
        let extractor = try FeatureExtractor(sampleRate: decoder.sampleRate, fps: fps, configuration: configuration)
        var features = extractor.makeFeatures()
        var ended = false
        var index = 0
        while true {
            while !ended && decoder.samplesDelivered < extractor.samplesNeeded(forFrame: index) {
                if try !decoder.decodeNext({ left, right in extractor.append(left: left, right: right) }) {
                    ended = true
                    extractor.finish()
                }
            }
            let duration = Double(decoder.samplesDelivered) / Double(decoder.sampleRate)
            if ended && fps.seconds(ofFrame: index) >= duration - 1e-9 { return }
            extractor.computeFeatures(forFrame: index, into: &features)
            features.time = fps.seconds(ofFrame: index)
            guard body(features) else { return }
            index += 1
        }
    }
}
