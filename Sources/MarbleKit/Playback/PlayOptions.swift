import MarbleCore
import MarbleRender

/// What `marble play` was asked to do.
public struct PlayOptions: Sendable {
    /// The songs, in order: media files (any file FFmpeg reads with an audio stream) or URLs.
    public var songs: [String]
    /// Play the songs again from the first when the last ends.
    public var loop = false
    /// The first song.
    public var input: String { songs[0] }
    /// PulseAudio sink name; nil for the default sink.
    public var device: String?
    /// Render without sound, driven by the monotonic clock.
    public var noAudio = false
    /// Target frames per second in the terminal.
    public var fps = Rational(30)
    /// Render threads.
    public var threads = StripScheduler.availableCores
    /// Where to listen for OSC control (`PORT`, on 127.0.0.1, or `HOST:PORT`), or nil: `--osc`.
    public var osc: String?
    /// A scene made in code (`--milkdrop`'s); when set, drawn instead of the chosen preset, and the
    /// preset keys do not switch it.
    public var scene: Preset?
    /// Stay on the last frame at the end (space plays again) instead of exiting.
    public var keepOpen = false
    /// Device buffer (target latency), seconds.
    public var bufferSeconds = 0.1
    /// Draw in the terminal (the command line sets it when standard input and output are one).
    public var terminal = true
    /// Show the picture in a window (SDL2), fullscreen or not.
    public var window = false
    /// Open the window fullscreen (with `window`).
    public var fullscreen = false

    /// Options to play the file at `input` with every other value at its default.
    public init(input: String) { songs = [input] }

    /// Options to play `songs` (at least one) with every other value at its default.
    public init(songs: [String]) { self.songs = songs }

    /// The session's input: one file, or a playlist.
    public var sessionInput: SessionInput { songs.count == 1 && !loop ? .file(songs[0]) : .playlist(songs, loop: loop) }

    /// Checks the values a user typed.
    public func validate() throws(MarbleError) {
        guard !songs.isEmpty else { throw MarbleError(.input, "nothing to play: the playlist is empty") }
        _ = try Limits.check(rate: fps)
        _ = try Limits.check(threads, in: Limits.threads, "--threads")
    }
}
