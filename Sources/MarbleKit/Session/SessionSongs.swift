import Granite
import MarbleCore

extension SessionComponent {
    /// The songs: loading one (the load effect), the song the input reports, and the end of the media,
    /// after which the store decides: the next song, the first again with `loop`, else the end (the
    /// session ends there unless it keeps the media open). A song of the list that cannot be loaded is
    /// skipped (noted in ``SessionComponent/State/skipped``) while a later one remains; otherwise, and
    /// for a file outside the list, the session ends as failed.
    public struct SongsReducer: GranitePayloadReducer {
        public typealias Center = SessionComponent.Center
        /// Loads the files.
        public let client: SessionClient

        /// What happens to the songs.
        public enum Payload: Sendable {
            /// ``SessionComponent/Event/load(path:)``: a file to load.
            case load(String)
            /// ``SessionComponent/Event/loadFinished(duration:)``: the file's duration.
            case loaded(Double)
            /// ``SessionComponent/Event/loadFailed(message:)``: why it could not be opened.
            case failed(String)
            /// ``SessionComponent/Event/mediaEnded``.
            case ended
            /// ``SessionComponent/Event/songChanged(index:title:)``: the song's index and title.
            case changed(Int, String)
        }

        /// Applies one event about the songs; loading is returned as a cancellable effect (a new load
        /// cancels the one in flight, so its result never lands).
        public func reduce(state: inout State, payload: Payload) -> GraniteEffect<Event> {
            switch payload {
            case .load(let path):
                return load(path, song: state.songs.firstIndex(of: path), &state)
            case .loaded(let duration):
                guard state.status == .loading else { return .none }
                state.duration = duration.isFinite ? max(0, duration) : 0
                state.position = 0
                state.status = .playing
                // The engine starts the song with a seek to 0: a new clock generation, so that no
                // position of the song before is ever taken for one of this song.
                return TransportReducer(client: client).follow(&state, seek: true)
            case .failed(let message):
                guard state.status == .loading else { return .none }
                // A song of the list that cannot be played is skipped when a later one remains.
                if state.isRunning, let song = state.song, song + 1 < state.songs.count {
                    if state.skipped.count < 100 { state.skipped.append("\(message); skipped") }
                    return load(state.songs[song + 1], song: song + 1, &state)
                }
                state.status = .failed(message: message)
                if state.isRunning { state.outcome = .failed }
            case .ended:
                return ended(&state)
            case .changed(let index, let title):
                guard state.isRunning, state.songs.indices.contains(index) else { return .none }
                state.song = index
                state.title = title
                state.source = state.songs[index]
            }
            return .none
        }

        /// Loads `path`, the list's song `song` (nil: a file outside the list); any load in flight is cancelled.
        private func load(_ path: String, song: Int?, _ state: inout State) -> GraniteEffect<Event> {
            guard state.isRunning else { return .none }
            state.source = path
            state.song = song
            state.title = SessionComponent.title(of: path)
            state.status = .loading
            state.position = 0
            state.duration = 0
            return .run(id: Center.loadID, cancelInFlight: true) { [client] send in
                send(.loadFinished(duration: try await client.load(path)))
            } catch: { error, send in
                send(.loadFailed(message: (error as? MarbleError)?.message ?? "\(error)"))
            }
        }

        /// The input played its media to the end: the next song (or the first again with `loop`) loads;
        /// after the last the transport ends, and so does the session unless it keeps the media open.
        private func ended(_ state: inout State) -> GraniteEffect<Event> {
            guard state.isRunning, state.status == .playing || state.status == .paused else { return .none }
            if let song = state.song, song + 1 < state.songs.count || (state.loop && song + 1 == state.songs.count) {
                let next = song + 1 < state.songs.count ? song + 1 : 0
                return load(state.songs[next], song: next, &state)
            }
            state.status = .ended
            state.position = state.duration
            if !state.keepOpen { state.outcome = .ended }
            return .none
        }
    }
}
