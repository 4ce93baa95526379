import Granite

extension PlayerComponent {
    /// The player's reducers. Every transition is synchronous; the side effects are effects: opening
    /// a file (cancellable: opening another file cancels the load in flight, so its result never
    /// lands), and making the playback engine follow a transport change (pause, resume, seek), sent
    /// as a versioned ``PlayerTransport``. `stop()` on the component cancels what is in flight.
    public struct Center: GraniteCenter {
        /// The player's state.
        public typealias State = PlayerComponent.State
        /// What can happen to the player.
        public typealias Event = PlayerComponent.Event

        /// The id of the load effect.
        public static let loadID: GraniteEffectID = "player.load"
        /// The id of the transport effects.
        public static let transportID: GraniteEffectID = "player.transport"

        /// The preset names the player cycles through, in order.
        public let availablePresets: [String]
        /// Loads files and drives the playback engine; its closures run in the store's effect tasks.
        public let client: PlayerClient

        /// Reducers over `availablePresets` (in cycling order), with `client` for the side effects.
        public init(availablePresets: [String], client: PlayerClient) {
            self.availablePresets = availablePresets
            self.client = client
        }

        /// Applies one event to the player's state; loading a file and following the transport are returned as effects.
        public func reduce(state: inout State, event: Event) -> GraniteEffect<Event> {
            switch event {
            case .fileOpened(let path):
                state.source = path
                state.status = .loading
                state.position = 0
                state.duration = 0
                return .run(id: Self.loadID, cancelInFlight: true) { [client] send in
                    let duration = try await client.load(path)
                    send(.loadFinished(duration: duration))
                } catch: { error, send in
                    send(.loadFailed(message: "\(error)"))
                }

            case .loadFinished(let duration):
                guard state.status == .loading else { return .none }
                state.duration = duration.isFinite ? max(0, duration) : 0
                state.position = 0
                state.status = .playing

            case .loadFailed(let message):
                guard state.status == .loading else { return .none }
                state.status = .failed(message: message)

            case .playPauseToggled:
                switch state.status {
                case .playing:
                    state.status = .paused
                    return transport(&state, seek: false)
                case .paused:
                    state.status = .playing
                    return transport(&state, seek: false)
                case .ended:
                    state.position = 0
                    state.status = .playing
                    return transport(&state, seek: true)
                case .idle, .loading, .failed: break
                }

            case .seekRequested(let delta):
                guard state.status.hasMedia, delta.isFinite else { return .none }
                state.position = clampedPosition(state.position + delta, duration: state.duration)
                if state.status == .ended && state.position < state.duration { state.status = .paused }
                return transport(&state, seek: true)

            case .positionAdvanced(let time):
                guard state.status == .playing, time.isFinite else { return .none }
                state.position = clampedPosition(time, duration: state.duration)

            case .reachedEnd:
                guard state.status == .playing || state.status == .paused else { return .none }
                state.status = .ended
                state.position = state.duration
                if !state.keepOpen && state.outcome == nil { state.outcome = .ended }

            case .controls(let control):
                return fire(SessionControlsReducer<Self>(presets: availablePresets), payload: control, on: &state)
            }
            return .none
        }

        /// A new transport version (and, for a seek, a new clock generation to the current position),
        /// sent to the engine by an effect.
        private func transport(_ state: inout State, seek: Bool) -> GraniteEffect<Event> {
            state.transportVersion += 1
            if seek { state.seekGeneration += 1 }
            let command = PlayerTransport(
                version: state.transportVersion, paused: state.status != .playing,
                seek: seek ? PlayerTransport.Seek(seconds: state.position, generation: state.seekGeneration) : nil)
            return .run(id: Self.transportID) { [client] _ in await client.follow(command) }
        }

        /// `time` within `0 ... duration`; only the lower bound while the duration is unknown (0).
        private func clampedPosition(_ time: Double, duration: Double) -> Double {
            let lower = max(0, time)
            return duration > 0 ? min(lower, duration) : lower
        }
    }
}
