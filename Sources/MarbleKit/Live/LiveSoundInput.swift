import MarbleCore
import MarbleMedia

/// Where a live session's sound comes from, behind one face: a capture device (``AudioCapture``) or a
/// playlist played at real-time pace (``PlaylistFeed``). Either fills a ``CaptureBuffer`` that the
/// frame source reads and the recordings and streams take their sound from.
final class LiveSoundInput: Sendable {
    private enum Input {
        case capture(AudioCapture)
        case playlist(PlaylistFeed)
    }
    private let input: Input
    let buffer: CaptureBuffer
    let client: SessionClient

    /// The input `options` ask for; a playlist plays on `pacer`'s clock.
    init(options: LiveOptions, pacer: RealTimePacer = .system()) throws(MarbleError) {
        switch options.sound {
        case .capture:
            let capture = try AudioCapture(options: options.capture)
            input = .capture(capture)
            buffer = capture.buffer
            client = SessionClient(connect: {
                try capture.start()
                return capture.sourceName
            }, disconnect: { capture.stop() })
        case .playlist(let paths, let loop):
            var speakers: PulseAudioOutput?
            if let sink = options.speakers {
                speakers = try PulseAudioOutput(sampleRate: 48_000, device: sink.device, streamName: "marble",
                                                bufferSeconds: sink.bufferSeconds)
            }
            let feed = try PlaylistFeed(paths: paths, loop: loop, sampleRate: 48_000, pacer: pacer, speakers: speakers)
            input = .playlist(feed)
            buffer = feed.buffer
            client = SessionClient(load: { _ in
                feed.start()  // the feed plays the list itself and reports each song
                return 0
            }, disconnect: { feed.stop() })
        }
    }

    /// Reports source changes to `live` as events: the capture's state, or the song that starts playing.
    func report(to live: SessionComponent) {
        switch input {
        case .capture(let capture): capture.onStateChange = { live.send(.connection(.changed($0))) }
        case .playlist(let feed): feed.onSongChange = { index, title in live.send(.songChanged(index: index, title: title)) }
        }
    }

    /// Whether the sound ended by itself (a playlist played to its end).
    var hasEnded: Bool { buffer.hasEnded }

    /// The source being heard (a capture source's name, or the song playing).
    var name: String? {
        switch input {
        case .capture(let capture): capture.sourceName
        case .playlist(let feed): feed.title.isEmpty ? nil : feed.title
        }
    }

    /// Whether the session's timeline starts with the buffer's first sample (a playlist: its first
    /// song from its start) rather than now (a capture).
    var startsAtZero: Bool {
        if case .playlist = input { return true }
        return false
    }

    /// Songs that could not be played.
    var warnings: [String] {
        if case .playlist(let feed) = input { return feed.warnings }
        return []
    }

    func stop() {
        switch input {
        case .capture(let capture): capture.stop()
        case .playlist(let feed): feed.stop()
        }
    }
}
