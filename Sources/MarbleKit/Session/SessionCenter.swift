import Granite
import MarbleCore

extension SessionComponent {
    /// The session's reducers, composed: the shared ``SessionControlsReducer`` (preset, sensitivity,
    /// quit), then one reducer per input part, ``TransportReducer`` and ``SongsReducer`` for a file or a
    /// playlist, ``ConnectionReducer`` for a capture, each fired with its payload (Granite's
    /// composition: `fire(_:payload:on:)`). Every side effect is an effect: loading a song, making the
    /// engine follow the transport, connecting, disconnecting when the session ends.
    public struct Center: GraniteCenter {
        /// The session's state.
        public typealias State = SessionComponent.State
        /// What can happen to a session.
        public typealias Event = SessionComponent.Event

        /// The id of the load effect: a new load cancels the one in flight.
        public static let loadID: GraniteEffectID = "session.load"
        /// The id of the transport effects.
        public static let transportID: GraniteEffectID = "session.transport"
        /// The id of the connect effect: the session's end and `stop()` cancel a connection still being made.
        public static let connectID: GraniteEffectID = "session.connect"

        /// The preset names the keys cycle through, in order.
        public let availablePresets: [String]
        /// The input's side effects.
        public let client: SessionClient

        /// Reducers over `availablePresets` (in cycling order), with `client` for the side effects.
        public init(availablePresets: [String], client: SessionClient) {
            self.availablePresets = availablePresets
            self.client = client
        }

        /// Starting the component starts the session: the first song loads, or the capture connects.
        public var onStart: [Event] { [.sessionStarted] }
        /// Stopping the component ends a session still running as interrupted, and disconnects.
        public var onStop: [Event] { [.componentStopped] }

        /// Applies one event: the shared controls, then the part of the input it concerns.
        public func reduce(state: inout State, event: Event) -> GraniteEffect<Event> {
            let running = state.isRunning
            let effect: GraniteEffect<Event>
            switch event {
            case .sessionStarted: effect = started(&state)
            case .componentStopped:
                if state.isRunning { state.outcome = .interrupted }
                return .run { [client] _ in await client.disconnect() }
            case .controls(let control):
                effect = fire(SessionControlsReducer<Self>(presets: availablePresets), payload: control, on: &state)
            case .durationReached:
                if state.isRunning { state.outcome = .durationReached }
                effect = .none
            case .transport(let event): effect = fire(TransportReducer(client: client), payload: event, on: &state)
            case .connection(let event): effect = fire(ConnectionReducer(), payload: event, on: &state)
            case .load(let path): effect = songs(.load(path), &state)
            case .loadFinished(let duration): effect = songs(.loaded(duration), &state)
            case .loadFailed(let message): effect = songs(.failed(message), &state)
            case .mediaEnded: effect = songs(.ended, &state)
            case .songChanged(let index, let title): effect = songs(.changed(index, title), &state)
            }
            // A session that ends here stops its input: the connect effect is cancelled, the capture
            // (or the feed) disconnected. A failed connect has nothing to disconnect.
            guard running, !state.isRunning, state.outcome != .failed || !state.capturing else { return effect }
            return .merge(effect, .cancel(id: Self.connectID), .run { [client] _ in await client.disconnect() })
        }

        private func songs(_ payload: SongsReducer.Payload, _ state: inout State) -> GraniteEffect<Event> {
            fire(SongsReducer(client: client), payload: payload, on: &state)
        }

        /// The first song loads; a capture connects.
        private func started(_ state: inout State) -> GraniteEffect<Event> {
            guard state.isRunning else { return .none }
            if let first = state.songs.first {
                guard state.status == .idle else { return .none }
                return songs(.load(first), &state)
            }
            guard state.connection == .idle else { return .none }
            state.connection = .connecting
            return .run(id: Self.connectID, cancelInFlight: true) { [client] send in
                send(.connection(.started(source: try await client.connect())))
            } catch: { error, send in
                let e = error as? MarbleError ?? MarbleError(.device, "\(error)")
                send(.connection(.failed(kind: e.kind.rawValue, message: e.message)))
            }
        }
    }
}
