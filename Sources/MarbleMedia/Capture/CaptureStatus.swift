import Synchronization

/// What a capture tells other threads: a snapshot of its state and source (behind a lock, so any
/// thread may read it at any time) and the handler that hears each change of state.
final class CaptureStatus: Sendable {
    private struct Snapshot {
        var state = CaptureState.stopped
        var source: String?
    }

    private let snapshot = Mutex(Snapshot())
    private let handler = Mutex<(@Sendable (CaptureState) -> Void)?>(nil)

    var state: CaptureState { snapshot.withLock { $0.state } }
    var source: String? { snapshot.withLock { $0.source } }

    var onChange: (@Sendable (CaptureState) -> Void)? {
        get { handler.withLock { $0 } }
        set { handler.withLock { $0 = newValue } }
    }

    /// Records `state` (and `source`, when given); returns whether the state changed.
    @discardableResult
    func update(_ state: CaptureState, source: String? = nil) -> Bool {
        snapshot.withLock {
            if let source { $0.source = source }
            guard $0.state != state else { return false }
            $0.state = state
            return true
        }
    }

    /// Calls the handler, if any, with `state` (on the caller's thread, no lock held).
    func notify(_ state: CaptureState) {
        handler.withLock { $0 }?(state)
    }
}
