import Granite
import MarbleCore

extension SessionComponent {
    /// The transport of a file or a playlist: pause and resume, seek, the position the clock reports.
    /// Every change the engine must follow is sent to it as a versioned ``PlayerTransport`` (an effect).
    ///
    /// Seeks stay within the song playing: back past its start lands on its start, forward past its
    /// end on its end (which the engine then reports as the end of the media: the next song follows).
    /// A seek never crosses into another song, so ← at 0:02 of the second song replays it from 0:00.
    public struct TransportReducer: GranitePayloadReducer {
        public typealias Center = SessionComponent.Center
        /// Sends the transport to the engine.
        public let client: SessionClient

        /// Applies one transport event; a pause or a seek is returned as the effect that tells the engine.
        public func reduce(state: inout State, payload event: TransportEvent) -> GraniteEffect<Event> {
            switch event {
            case .playPauseToggled:
                switch state.status {
                case .playing: state.status = .paused
                case .paused: state.status = .playing
                case .ended:
                    state.position = 0
                    state.status = .playing
                    return follow(&state, seek: true)
                case .idle, .loading, .failed: return .none
                }
                return follow(&state, seek: false)
            case .seekRequested(let delta):
                guard state.status.hasMedia, delta.isFinite else { return .none }
                state.position = Self.clamped(state.position + delta, duration: state.duration)
                if state.status == .ended && state.position < state.duration { state.status = .paused }
                return follow(&state, seek: true)
            case .positionAdvanced(let time):
                guard state.status == .playing, time.isFinite else { return .none }
                state.position = Self.clamped(time, duration: state.duration)
                return .none
            }
        }

        /// A new transport version (and, for a seek, a new clock generation to the current position),
        /// sent to the engine by an effect.
        func follow(_ state: inout State, seek: Bool) -> GraniteEffect<Event> {
            state.transportVersion += 1
            if seek { state.seekGeneration += 1 }
            let command = PlayerTransport(
                version: state.transportVersion, paused: state.status != .playing,
                seek: seek ? PlayerTransport.Seek(seconds: state.position, generation: state.seekGeneration) : nil)
            return .run(id: Center.transportID) { [client] _ in await client.follow(command) }
        }

        /// `time` within `0 ... duration`; only the lower bound while the duration is unknown (0).
        static func clamped(_ time: Double, duration: Double) -> Double {
            let lower = max(0, time)
            return duration > 0 ? min(lower, duration) : lower
        }
    }

    /// The songs: loading one (the load effect), the song the input reports, and the end of the media,
    /// after which the store decides: the next song, the first again with `loop`, else the end (the
    /// session ends there unless it keeps the media open).
    public struct SongsReducer: GranitePayloadReducer {
        public typealias Center = SessionComponent.Center
        /// Loads the files.
        public let client: SessionClient

        /// What happens to the songs.
        public enum Payload: Sendable {
            case load(String)
            case loaded(Double)
            case failed(String)
            case ended
            case changed(Int, String)
        }

        /// Applies one event about the songs; loading is returned as a cancellable effect (a new load
        /// cancels the one in flight, so its result never lands).
        public func reduce(state: inout State, payload: Payload) -> GraniteEffect<Event> {
            switch payload {
            case .load(let path):
                guard state.isRunning else { return .none }
                state.source = path
                state.song = state.songs.firstIndex(of: path)
                state.title = SessionComponent.title(of: path)
                state.status = .loading
                state.position = 0
                state.duration = 0
                return .run(id: Center.loadID, cancelInFlight: true) { [client] send in
                    send(.loadFinished(duration: try await client.load(path)))
                } catch: { error, send in
                    send(.loadFailed(message: (error as? MarbleError)?.message ?? "\(error)"))
                }
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

        /// The input played its media to the end: the next song (or the first again with `loop`) loads;
        /// after the last the transport ends, and so does the session unless it keeps the media open.
        private func ended(_ state: inout State) -> GraniteEffect<Event> {
            guard state.isRunning, state.status == .playing || state.status == .paused else { return .none }
            if let song = state.song, song + 1 < state.songs.count || (state.loop && song + 1 == state.songs.count) {
                let next = song + 1 < state.songs.count ? song + 1 : 0
                return reduce(state: &state, payload: .load(state.songs[next]))
            }
            state.status = .ended
            state.position = state.duration
            if !state.keepOpen { state.outcome = .ended }
            return .none
        }
    }

    /// The connection of a capture: the connect effect's answer and the capture's own state changes.
    public struct ConnectionReducer: GranitePayloadReducer {
        public typealias Center = SessionComponent.Center

        /// Applies one connection event.
        public func reduce(state: inout State, payload event: ConnectionEvent) -> GraniteEffect<Event> {
            switch event {
            case .started(let source):
                guard state.isRunning, !state.captureStarted else { return .none }
                state.captureStarted = true
                // A state the capture reported meanwhile (its own callback) is newer than this.
                if let source, state.connection == .connecting { state.connection = .capturing(source: source) }
            case .failed(let kind, let message):
                state.connection = .failed(kind: kind, message: message)
                if state.isRunning { state.outcome = .failed }
            case .changed(let capture):
                guard state.isRunning else { return .none }
                switch capture {
                case .connecting: state.connection = .connecting
                case .capturing(let source): state.connection = .capturing(source: source)
                case .reconnecting(let reason): state.connection = .reconnecting(reason: reason)
                case .stopped: break
                }
            }
            return .none
        }
    }
}
