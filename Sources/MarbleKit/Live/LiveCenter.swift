import Granite
import MarbleCore

extension LiveComponent {
    /// The live session's reducers. Connecting is an effect (its result comes back as an event); the
    /// capture's own state changes arrive as events too; the session ends by reducing an outcome,
    /// which disconnects the capture.
    public struct Center: GraniteCenter {
        public typealias State = LiveComponent.State
        public typealias Event = LiveComponent.Event

        public static let connectID: GraniteEffectID = "live.connect"

        public let availablePresets: [String]
        public let client: LiveClient

        public init(availablePresets: [String], client: LiveClient) {
            self.availablePresets = availablePresets
            self.client = client
        }

        public func reduce(state: inout State, event: Event) -> GraniteEffect<Event> {
            switch event {
            case .sessionStarted:
                guard state.isRunning, state.connection == .idle else { return .none }
                state.connection = .connecting
                return .run(id: Self.connectID, cancelInFlight: true) { [client] send in
                    send(.captureStarted(source: try await client.connect()))
                } catch: { error, send in
                    let e = error as? MarbleError ?? MarbleError(.device, "\(error)")
                    send(.captureFailed(kind: e.kind.rawValue, message: e.message))
                }

            case .captureStarted(let source):
                guard state.isRunning, !state.captureStarted else { return .none }
                state.captureStarted = true
                // A state the capture reported meanwhile (its own callback) is newer than this.
                if let source, state.connection == .connecting { state.connection = .capturing(source: source) }

            case .captureFailed(let kind, let message):
                state.connection = .failed(kind: kind, message: message)
                if state.isRunning { state.outcome = .failed }

            case .captureChanged(let capture):
                guard state.isRunning else { return .none }
                switch capture {
                case .connecting: state.connection = .connecting
                case .capturing(let source): state.connection = .capturing(source: source)
                case .reconnecting(let reason): state.connection = .reconnecting(reason: reason)
                case .stopped: break
                }

            case .nextPresetRequested: choosePreset(&state, offset: 1)
            case .previousPresetRequested: choosePreset(&state, offset: -1)
            case .presetSelected(let name):
                if availablePresets.contains(name) { state.preset = name }
            case .sensitivityRaised: state.sensitivity = Sensitivity.raised(state.sensitivity)
            case .sensitivityLowered: state.sensitivity = Sensitivity.lowered(state.sensitivity)

            case .quitRequested: return end(&state, .quit)
            case .interrupted: return end(&state, .interrupted)
            case .durationReached: return end(&state, .durationReached)
            }
            return .none
        }

        private func end(_ state: inout State, _ outcome: LiveOutcome) -> GraniteEffect<Event> {
            guard state.isRunning else { return .none }
            state.outcome = outcome
            return .merge(.cancel(id: Self.connectID), .run { [client] _ in await client.disconnect() })
        }

        private func choosePreset(_ state: inout State, offset: Int) {
            state.preset = PresetCycle.step(from: state.preset, by: offset, in: availablePresets)
        }
    }
}
