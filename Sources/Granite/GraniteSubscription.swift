import Synchronization

/// A holder's registration for a store's state changes. Pausing stops deliveries; resuming
/// delivers the latest state once if it changed meanwhile. Cancel it (or let the owner of the
/// handler go) to stop for good.
public final class GraniteSubscription: Sendable {
    struct Flags {
        var paused = false
        /// A change was skipped while paused.
        var missed = false
        var cancelled = false
    }

    let flags: Mutex<Flags>
    private let onResume: @Sendable () -> Void
    private let onCancel: @Sendable () -> Void

    init(paused: Bool, onResume: @escaping @Sendable () -> Void, onCancel: @escaping @Sendable () -> Void) {
        flags = Mutex(Flags(paused: paused))
        self.onResume = onResume
        self.onCancel = onCancel
    }

    /// Whether deliveries are paused (see ``pause()``).
    public var isPaused: Bool { flags.withLock { $0.paused } }

    /// Stops deliveries. A delivery already in progress when this returns may still complete.
    public func pause() { flags.withLock { $0.paused = true } }

    /// Restarts deliveries; if a change was skipped while paused, the store's current state is
    /// delivered next, after any notification already queued (commit order is kept).
    public func resume() {
        let missed = flags.withLock { flags -> Bool in
            defer { flags.paused = false; flags.missed = false }
            return flags.paused && flags.missed
        }
        if missed { onResume() }
    }

    /// Ends the subscription; no delivery starts after this returns.
    public func cancel() {
        let first = flags.withLock { flags -> Bool in
            defer { flags.cancelled = true }
            return !flags.cancelled
        }
        if first { onCancel() }
    }

    /// Decides, at delivery time, whether the handler should run.
    @usableFromInline func shouldDeliver() -> Bool {
        flags.withLock { flags in
            if flags.cancelled { return false }
            if flags.paused { flags.missed = true; return false }
            return true
        }
    }
}
