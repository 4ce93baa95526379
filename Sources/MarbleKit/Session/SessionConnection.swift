import Granite

extension SessionComponent {
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
