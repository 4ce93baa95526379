import Granite
import MarbleCore

extension LiveComponent {
    /// The live session's reducers. Starting the component connects (its `onStart` event; the result
    /// of the connect effect comes back as an event); the capture's own state changes arrive as events
    /// too; the session ends by reducing an outcome (`EndSession`), which disconnects the capture, and
    /// stopping the component ends a session still running as interrupted and disconnects (its `onStop` event).
    public struct Center: GraniteCenter {
        /// The live session's state.
        public typealias State = LiveComponent.State
        /// What can happen to a live session.
        public typealias Event = LiveComponent.Event

        /// The id of the connect effect: the session's end and `stop()` cancel a connection still being made.
        public static let connectID: GraniteEffectID = "live.connect"

        /// The preset names the keys cycle through, in order.
        public let availablePresets: [String]
        /// Connects and disconnects the capture; its closures run in the store's effect tasks.
        public let client: LiveClient

        /// Reducers over `availablePresets` (in cycling order), with `client` for the capture.
        public init(availablePresets: [String], client: LiveClient) {
            self.availablePresets = availablePresets
            self.client = client
        }

        /// Starting the component starts the session (and so the connect effect).
        public var onStart: [Event] { [.sessionStarted] }
        /// Stopping the component ends a session still running as interrupted, and disconnects.
        public var onStop: [Event] { [.componentStopped] }

        /// Applies one event to the live session's state; connecting and disconnecting are returned as effects.
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

            case .nextPresetRequested: return fire(StepPreset(presets: availablePresets), payload: 1, on: &state)
            case .previousPresetRequested: return fire(StepPreset(presets: availablePresets), payload: -1, on: &state)
            case .presetSelected(let name):
                if availablePresets.contains(name) { state.preset = name }
            case .sensitivityRaised: state.sensitivity = Sensitivity.raised(state.sensitivity)
            case .sensitivityLowered: state.sensitivity = Sensitivity.lowered(state.sensitivity)

            case .quitRequested: return fire(EndSession(client: client), payload: .quit, on: &state)
            case .interrupted: return fire(EndSession(client: client), payload: .interrupted, on: &state)
            case .durationReached: return fire(EndSession(client: client), payload: .durationReached, on: &state)
            case .componentStopped:
                if state.isRunning { state.outcome = .interrupted }
                return .run { [client] _ in await client.disconnect() }
            }
            return .none
        }
    }

    /// Ends a running session with the payload as its outcome: the connect effect is cancelled and the
    /// capture disconnected. A session that already ended keeps its first outcome.
    struct EndSession: GranitePayloadReducer {
        typealias Center = LiveComponent.Center
        let client: LiveClient

        func reduce(state: inout State, payload outcome: LiveOutcome) -> GraniteEffect<Event> {
            guard state.isRunning else { return .none }
            state.outcome = outcome
            return .merge(.cancel(id: Center.connectID), .run { [client] _ in await client.disconnect() })
        }
    }

    /// Steps the preset by the payload (1 next, -1 previous) through the available ones, wrapping.
    struct StepPreset: GranitePayloadReducer {
        typealias Center = LiveComponent.Center
        let presets: [String]

        func reduce(state: inout State, payload offset: Int) -> GraniteEffect<Event> {
            state.preset = PresetCycle.step(from: state.preset, by: offset, in: presets)
            return .none
        }
    }
}
