import MarbleCore

extension RenderOptions {
    /// The timed-text file given (`--lyrics` or `--captions`), and whether it came as captions.
    package var timedTextFile: (path: String, captions: Bool)? {
        if let lyricsFile { return (lyricsFile, false) }
        return captionsFile.map { ($0, true) }
    }

    /// One of `--lyrics` and `--captions` at most, naming a format by its extension.
    func validateTimedText() throws(MarbleError) {
        if lyricsFile != nil, captionsFile != nil {
            throw MarbleError(.option, "--lyrics and --captions: give one of them (both are drawn by the one lyrics layer)")
        }
        guard let (path, captions) = timedTextFile else { return }
        guard LyricsFormat(path: path) != nil else {
            throw MarbleError(.option, "\(captions ? "--captions" : "--lyrics") \(path): unknown format (use .lrc, .srt or .vtt)")
        }
    }

    /// The lyrics in the `--lyrics` or `--captions` file, or nil when neither was given; a bad file is
    /// one error naming its line.
    package func readTimedText() throws(MarbleError) -> Lyrics? {
        guard let (path, _) = timedTextFile, let format = LyricsFormat(path: path) else { return nil }
        return try format.read(path)
    }
}
