/// Hands changes of a capture's state to its `CaptureStatus` at once, and to the state handler a
/// moment later, from a timer of its own on the event loop: never nested in the code that changed the
/// state, so the handler may call `stop()`.
///
/// Used only on the event loop's thread (or with its lock held).
final class StateNotifier {
    private let status: CaptureStatus
    private let loop: PulseMainloop
    private var pending: [CaptureState] = []
    private var timer: PulseTimer?
    private var cancelled = false

    init(status: CaptureStatus, loop: PulseMainloop) {
        self.status = status
        self.loop = loop
    }

    /// The state last published.
    var state: CaptureState { status.state }

    /// Records `state` (and `source`, when given) and schedules the handler's call when it changed.
    func publish(_ state: CaptureState, source: String? = nil) {
        guard !cancelled, status.update(state, source: source) else { return }
        pending.append(state)
        guard timer == nil else { return }
        // Nil only when out of memory: the engine's ticker delivers then.
        timer = PulseTimer(on: loop, after: 0, repeats: false) { [unowned self] in
            timer = nil
            deliver()
        }
    }

    /// Calls the handler with each pending state, oldest first, until none is left or `cancel()`.
    func deliver() {
        while !cancelled, !pending.isEmpty {
            status.notify(pending.removeFirst())
        }
    }

    /// Drops what is pending and stops notifying (the capture stops).
    func cancel() {
        cancelled = true
        pending.removeAll()
        timer?.cancel()
        timer = nil
    }
}
