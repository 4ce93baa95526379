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

            case .songStarted(let index, let title):
                guard state.isRunning else { return .none }
                state.song = index
                state.connection = .capturing(source: title)

            case .controls(let control):
                let running = state.isRunning
                let effect = fire(SessionControlsReducer<Self>(presets: availablePresets), payload: control, on: &state)
                guard running, !state.isRunning else { return effect }
                return .merge(effect, EndSession.disconnecting(client))

            case .durationReached, .mediaEnded:
                return fire(EndSession(client: client), payload: .durationReached, on: &state)
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
            return Self.disconnecting(client)
        }

        /// What ending a session does to its input: the connect effect is cancelled and the capture disconnected.
        static func disconnecting(_ client: LiveClient) -> GraniteEffect<Event> {
            .merge(.cancel(id: Center.connectID), .run { _ in await client.disconnect() })
        }
    }
}
