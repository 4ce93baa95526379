import Synchronization

/// What a network stream is doing, readable from any thread: for status lines and summaries.
package final class StreamStatus: Sendable {
    package enum State: Sendable, Equatable {
        /// Opening the connection (the first time).
        case connecting
        /// Sending.
        case sending
        /// The connection failed or stalled: trying again after a pause (the reason, in one line).
        case reconnecting(String)
        /// Finished or closed.
        case closed
    }

    package struct Snapshot: Sendable, Equatable {
        package var state = State.connecting
        /// Video frames that were not sent: the connection was down or stalled, or its queue full.
        package var framesDropped = 0
        /// Times the connection was opened again after a failure.
        package var reconnects = 0
        /// Bytes handed to the network.
        package var bytesSent: Int64 = 0
        /// Seconds from the last failure to the first packet sent again (the latest reconnect).
        package var lastReconnectSeconds: Double?
    }

    /// The stream's URL as given.
    package let url: String
    private let snapshot = Mutex(Snapshot())
    private let handler = Mutex<(@Sendable (State) -> Void)?>(nil)

    package init(url: String) { self.url = url }

    package var current: Snapshot { snapshot.withLock { $0 } }

    /// Called on the stream's thread whenever its state changes (connected, reconnecting, closed).
    package var onStateChange: (@Sendable (State) -> Void)? {
        get { handler.withLock { $0 } }
        set { handler.withLock { $0 = newValue } }
    }

    /// Changes the snapshot; reports a change of state.
    func update(_ change: (inout Snapshot) -> Void) {
        let (before, after) = snapshot.withLock { s in
            let before = s.state
            change(&s)
            return (before, s.state)
        }
        if before != after, let report = onStateChange { report(after) }
    }
}
