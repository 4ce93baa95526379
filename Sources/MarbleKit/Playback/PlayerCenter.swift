import Granite

extension PlayerComponent {
    /// The player's reducers. Every transition is synchronous; opening a file is the one effect
    /// (cancellable: opening another file cancels the load in flight, so its result never lands).
    /// `stop()` on the component cancels a load in progress (the store cancels all effects).
    public struct Center: GraniteCenter {
        public typealias State = PlayerComponent.State
        public typealias Event = PlayerComponent.Event

        /// The id of the load effect.
        public static let loadID: GraniteEffectID = "player.load"

        public let availablePresets: [String]
        public let client: PlayerClient

        public init(availablePresets: [String], client: PlayerClient) {
            self.availablePresets = availablePresets
            self.client = client
        }

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
                case .playing: state.status = .paused
                case .paused: state.status = .playing
                case .ended:
                    state.position = 0
                    state.status = .playing
                case .idle, .loading, .failed: break
                }

            case .seekRequested(let delta):
                guard state.status.hasMedia, delta.isFinite else { return .none }
                state.position = clampedPosition(state.position + delta, duration: state.duration)
                if state.status == .ended && state.position < state.duration { state.status = .paused }

            case .positionAdvanced(let time):
                guard state.status == .playing, time.isFinite else { return .none }
                state.position = clampedPosition(time, duration: state.duration)

            case .reachedEnd:
                guard state.status == .playing || state.status == .paused else { return .none }
                state.status = .ended
                state.position = state.duration

            case .nextPresetRequested:
                choosePreset(&state, offset: 1)

            case .previousPresetRequested:
                choosePreset(&state, offset: -1)

            case .presetSelected(let name):
                guard availablePresets.contains(name) else { return .none }
                state.preset = name

            case .sensitivityRaised:
                state.sensitivity = Sensitivity.raised(state.sensitivity)

            case .sensitivityLowered:
                state.sensitivity = Sensitivity.lowered(state.sensitivity)
            }
            return .none
        }

        /// `time` within `0 ... duration`; only the lower bound while the duration is unknown (0).
        private func clampedPosition(_ time: Double, duration: Double) -> Double {
            let lower = max(0, time)
            return duration > 0 ? min(lower, duration) : lower
        }

        private func choosePreset(_ state: inout State, offset: Int) {
            let count = availablePresets.count
            guard count > 0 else { return }
            let index: Int
            if let current = state.preset.flatMap({ availablePresets.firstIndex(of: $0) }) {
                index = ((current + offset) % count + count) % count
            } else {
                index = offset >= 0 ? 0 : count - 1
            }
            state.preset = availablePresets[index]
        }
    }
}
