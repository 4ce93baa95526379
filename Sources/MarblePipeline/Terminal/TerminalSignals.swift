import Foundation
import Synchronization

/// Signals a full-screen program must handle: SIGINT, SIGTERM and SIGHUP raise ``stopRequested``
/// (the frame loop then restores the terminal and exits), SIGWINCH raises the flag ``takeResized()`` reads.
///
/// The handlers run on a dispatch queue and only set atomic flags; the frame loop polls them.
/// While an instance is alive the default actions of those signals are ignored.
package final class TerminalSignals: Sendable {
    private let stop = Flag()
    private let resize = Flag()

    /// A flag the signal handlers can hold on to (an `Atomic` cannot be captured).
    private final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        func raise() { value.store(true, ordering: .relaxed) }
        var isRaised: Bool { value.load(ordering: .relaxed) }
        func take() -> Bool { value.exchange(false, ordering: .relaxed) }
    }
    /// Written once in `init`, read once in `deinit` (no concurrent access): safe without a lock.
    private nonisolated(unsafe) let sources: [any DispatchSourceSignal]

    /// Installs the handlers; they stay until this value goes away, and the signals' default actions are restored then.
    package init() {
        var made: [any DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGWINCH] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            let flag = sig == SIGWINCH ? resize : stop
            source.setEventHandler { flag.raise() }
            source.resume()
            made.append(source)
        }
        sources = made
    }

    deinit {
        for s in sources { s.cancel() }
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGWINCH] { signal(sig, SIG_DFL) }
    }

    /// True once a stop signal arrived.
    package var stopRequested: Bool { stop.isRaised }

    /// True if the window was resized since the last call (the flag is cleared).
    package func takeResized() -> Bool { resize.take() }
}
