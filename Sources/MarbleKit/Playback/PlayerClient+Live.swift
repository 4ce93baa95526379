extension PlayerClient {
    /// The real thing: opens the file with FFmpeg and reports its audio duration (0 when unknown).
    /// Errors are ``MarbleError``s whose message is the one line `marble play` prints.
    public static let live = PlayerClient { path in
        let decoder = try AudioDecoder(path: path)
        if let stated = decoder.statedDuration { return stated }
        return decoder.input.duration(ofStream: decoder.streamIndex) ?? 0
    }
}
