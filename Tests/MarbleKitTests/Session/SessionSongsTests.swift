import Granite
import MarbleCore
@testable import MarbleKit
import TestSupport
import Testing

/// The songs of a file or a playlist: `load` really loads (the client is asked for that path), the end
/// of the media is a fact the store decides on (the next song, the first again, the end), and a song
/// change is a song, not a capture state.
@Suite struct SessionSongsTests {
    /// A client that records the paths it loads; every song lasts 60 s, except "broken.mp3".
    static func client(_ loaded: Recorder<String>) -> SessionClient {
        SessionClient(load: { path in
            loaded.append(path)
            if path == "broken.mp3" { throw MarbleError(.input, "broken.mp3: not a media file") }
            return 60
        })
    }

    /// A playlist of a.mp3 and b.mp3 that has loaded its first song.
    func playingFirst(loop: Bool = false, loaded: Recorder<String>) async -> GraniteTestStore<SessionComponent.Center> {
        let store = makeSessionTestStore(input: .playlist(["a.mp3", "b.mp3"], loop: loop), keepOpen: false,
                                         client: Self.client(loaded))
        await store.send(.sessionStarted) {
            $0.source = "a.mp3"
            $0.song = 0
            $0.title = "a"
            $0.status = .loading
        }
        await store.receive(.loadFinished(duration: 60)) {
            $0.status = .playing
            $0.duration = 60
            $0.seekGeneration = 1
            $0.transportVersion = 1
        }
        return store
    }

    @Test("the end of a song loads the next one; the end of the last ends the session and disconnects")
    func theEndOfASongLoadsTheNext() async {
        let loaded = Recorder<String>()
        let store = await playingFirst(loaded: loaded)
        await store.send(.transport(.positionAdvanced(to: 59))) { $0.position = 59 }
        await store.send(.mediaEnded) {
            $0.source = "b.mp3"
            $0.song = 1
            $0.title = "b"
            $0.status = .loading
            $0.position = 0
            $0.duration = 0
        }
        await store.receive(.loadFinished(duration: 60)) {
            $0.status = .playing
            $0.duration = 60
            $0.seekGeneration = 2
            $0.transportVersion = 2
        }
        await store.send(.mediaEnded) {
            $0.status = .ended
            $0.position = 60
            $0.outcome = .ended
        }
        await store.send(.mediaEnded)  // ended: nothing more to decide
        await store.finish()
        #expect(loaded.all == ["a.mp3", "b.mp3"])
    }

    @Test("a song of the list that cannot be loaded is skipped with a note; the last one failing ends the session")
    func aBrokenSongIsSkipped() async {
        let loaded = Recorder<String>()
        let store = makeSessionTestStore(input: .playlist(["a.mp3", "broken.mp3", "c.mp3", "broken.mp3"], loop: false),
                                         keepOpen: false, client: Self.client(loaded))
        await store.send(.load(path: "broken.mp3")) {
            $0.source = "broken.mp3"
            $0.song = 1
            $0.title = "broken"
            $0.status = .loading
        }
        await store.receive(.loadFailed(message: "broken.mp3: not a media file")) {
            $0.skipped = ["broken.mp3: not a media file; skipped"]
            $0.source = "c.mp3"
            $0.song = 2
            $0.title = "c"
        }
        await store.receive(.loadFinished(duration: 60)) {
            $0.status = .playing
            $0.duration = 60
            $0.seekGeneration = 1
            $0.transportVersion = 1
        }
        await store.send(.mediaEnded) {
            $0.source = "broken.mp3"
            $0.song = 3
            $0.title = "broken"
            $0.status = .loading
            $0.duration = 0
        }
        await store.receive(.loadFailed(message: "broken.mp3: not a media file")) {
            $0.status = .failed(message: "broken.mp3: not a media file")
            $0.outcome = .failed
        }
        await store.finish()
        #expect(loaded.all == ["broken.mp3", "c.mp3", "broken.mp3"])
    }

    @Test("with loop, the end of the last song loads the first again")
    func loopStartsAgain() async {
        let loaded = Recorder<String>()
        let store = await playingFirst(loop: true, loaded: loaded)
        await store.send(.songChanged(index: 1, title: "b")) {
            $0.source = "b.mp3"
            $0.song = 1
            $0.title = "b"
        }
        await store.send(.mediaEnded) {
            $0.source = "a.mp3"
            $0.song = 0
            $0.title = "a"
            $0.status = .loading
            $0.duration = 0
        }
        await store.receive(.loadFinished(duration: 60)) {
            $0.status = .playing
            $0.duration = 60
            $0.seekGeneration = 2
            $0.transportVersion = 2
        }
        await store.finish()
        #expect(loaded.all == ["a.mp3", "a.mp3"])
    }

    @Test("load(path) loads a given file, in the list or not; a file that fails ends the session")
    func loadAGivenFile() async {
        let loaded = Recorder<String>()
        let store = await playingFirst(loaded: loaded)
        await store.send(.load(path: "b.mp3")) {
            $0.source = "b.mp3"
            $0.song = 1
            $0.title = "b"
            $0.status = .loading
            $0.duration = 0
        }
        await store.receive(.loadFinished(duration: 60)) {
            $0.status = .playing
            $0.duration = 60
            $0.seekGeneration = 2
            $0.transportVersion = 2
        }
        await store.send(.load(path: "broken.mp3")) {
            $0.source = "broken.mp3"
            $0.song = nil
            $0.title = "broken"
            $0.status = .loading
            $0.duration = 0
        }
        await store.receive(.loadFailed(message: "broken.mp3: not a media file")) {
            $0.status = .failed(message: "broken.mp3: not a media file")
            $0.outcome = .failed
        }
        await store.send(.load(path: "a.mp3"))  // the session ended: nothing loads
        await store.finish()
        #expect(loaded.all == ["a.mp3", "b.mp3", "broken.mp3"])
    }

    @Test("seeking stays within the song: back past the start of song 2 replays song 2 from 0:00")
    func seeksClampToTheSong() async {
        let loaded = Recorder<String>()
        let sent = Recorder<PlayerTransport>()
        let client = SessionClient(load: { path in
            loaded.append(path)
            return 60
        }, follow: { sent.append($0) })
        let store = makeSessionTestStore(input: .playlist(["a.mp3", "b.mp3"], loop: false), client: client)
        await store.send(.load(path: "b.mp3")) {
            $0.source = "b.mp3"
            $0.song = 1
            $0.title = "b"
            $0.status = .loading
        }
        await store.receive(.loadFinished(duration: 60)) {
            $0.status = .playing
            $0.duration = 60
            $0.seekGeneration = 1
            $0.transportVersion = 1
        }
        await store.send(.transport(.positionAdvanced(to: 2))) { $0.position = 2 }
        await store.send(.transport(.seekRequested(by: -5))) {
            $0.position = 0
            $0.seekGeneration = 2
            $0.transportVersion = 2
        }
        await store.finish()
        // The song starts at 0 (generation 1); ← at 0:02 replays it from 0:00 (generation 2).
        #expect(sent.all.sorted { $0.version < $1.version } == [
            PlayerTransport(version: 1, paused: false, seek: .init(seconds: 0, generation: 1)),
            PlayerTransport(version: 2, paused: false, seek: .init(seconds: 0, generation: 2)),
        ])
    }

    @Test("a song change is the song's index and title (not a capture state); out of the list or after the end, ignored")
    func songChanges() async {
        let store = makeSessionTestStore(input: .playlist(["a.mp3", "b.mp3"], loop: false), keepOpen: false,
                                         client: SessionClient())
        await store.send(.songChanged(index: 1, title: "b")) {
            $0.source = "b.mp3"
            $0.song = 1
            $0.title = "b"
        }
        #expect(store.state.connection == .idle)
        #expect(store.state.heard == "b")
        await store.send(.songChanged(index: 2, title: "c"))
        await store.send(.controls(.quitRequested)) { $0.outcome = .quit }
        await store.send(.songChanged(index: 0, title: "a"))
        await store.finish()
    }
}
