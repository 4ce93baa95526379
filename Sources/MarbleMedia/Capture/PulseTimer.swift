internal import CPulse

/// A timer on a PulseAudio event loop (a `pa_time_event` made through the loop's `pa_mainloop_api`),
/// firing once or repeatedly on the loop's thread.
///
/// Create, re-arm and cancel it on the loop thread or with the loop's lock held. The event's userdata
/// is this object, unretained: its owner keeps it alive and calls `cancel()` (`time_free`) before
/// letting it go, after which the callback never runs again.
final class PulseTimer {
    private let api: UnsafeMutablePointer<pa_mainloop_api>
    private var event: OpaquePointer?
    private let interval: pa_usec_t
    private let repeats: Bool
    private let body: () -> Void

    /// Arms a timer `seconds` from now (`time_new`); with `repeats`, it fires every `seconds` until
    /// cancelled. Returns nil when the loop cannot make one (out of memory).
    init?(on loop: PulseMainloop, after seconds: Double, repeats: Bool, _ body: @escaping () -> Void) {
        api = loop.api
        interval = pa_usec_t(max(0, seconds) * 1e6)
        self.repeats = repeats
        self.body = body
        let callback: pa_time_event_cb_t = { _, _, _, userdata in
            guard let userdata else { return }
            Unmanaged<PulseTimer>.fromOpaque(userdata).takeUnretainedValue().fire()
        }
        guard let made = marble_pa_time_new(api, interval, callback, Unmanaged.passUnretained(self).toOpaque()) else {
            return nil
        }
        event = made
    }

    deinit { cancel() }

    /// Frees the event (`time_free`); the body does not run again. Idempotent.
    func cancel() {
        guard let event else { return }
        self.event = nil
        marble_pa_time_free(api, event)
    }

    private func fire() {
        // Re-arm first, so the body may cancel; a one-shot timer disarms itself.
        if repeats, let event { marble_pa_time_restart(api, event, interval) }
        if !repeats { cancel() }
        withExtendedLifetime(self) { body() }
    }
}
