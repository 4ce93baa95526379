import Foundation
import Synchronization
import MarbleCore

/// Signals a real-time session must handle: the ``StopSignals`` (the set `render` stops on: SIGINT,
/// SIGTERM, SIGHUP, SIGQUIT, SIGUSR1/2, SIGALRM, SIGPIPE) raise ``stopRequested`` (the frame loop then
/// finishes the recordings, restores the terminal and exits), except SIGUSR1 when a reload is given
/// (it reloads the preset instead); SIGWINCH raises the flag ``takeResized()`` reads.
///
/// The handlers only set atomic flags (on the signal thread, or a dispatch queue for SIGWINCH); the frame loop polls them.
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
    private nonisolated(unsafe) let resizeSource: any DispatchSourceSignal
    private let stopWatch: StopSignals.Watch

    /// Installs the handlers; they stay until this value goes away, and the signals' default actions are
    /// restored then. With `reload`, SIGUSR1 calls it (on the signal thread) instead of stopping: a
    /// session reloads its preset on it.
    package init(reload: (@Sendable () -> Void)? = nil) {
        let stop = self.stop, resize = self.resize
        stopWatch = StopSignals.watch { number in
            if number == SIGUSR1, let reload { reload() } else { stop.raise() }
        }
        signal(SIGWINCH, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
        source.setEventHandler { resize.raise() }
        source.resume()
        resizeSource = source
    }

    deinit {
        stopWatch.stop()
        resizeSource.cancel()
        signal(SIGWINCH, SIG_DFL)
    }

    /// True once a stop signal arrived.
    package var stopRequested: Bool { stop.isRaised }

    /// True if the window was resized since the last call (the flag is cleared).
    package func takeResized() -> Bool { resize.take() }
}
