import Foundation

/// A session's input thread: keys from the terminal, termination signals and window resizes, polled
/// every 50 ms (`poll` on standard input, atomic flags for the signals). Keys and stops go to the
/// session's closures, which send store events; a resize refreshes the ``TerminalGrid``. Nothing here
/// touches the frame path.
package final class TerminalInput: Sendable {
    private let screen: ScreenReader?
    private let grid: TerminalGrid?
    private let signals: TerminalSignals
    private let onKey: @Sendable (Key) -> Void
    private let onStop: @Sendable () -> Void
    private let stopped = CancellationFlag()
    private let finished = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - screen: the terminal to read keys from, or nil for a session without one (signals only).
    ///   - onStop: called on Ctrl-C (SIGINT), SIGTERM or SIGHUP, once per signal poll until stopped.
    package init(screen: TerminalScreen?, grid: TerminalGrid?, signals: TerminalSignals,
         onKey: @escaping @Sendable (Key) -> Void, onStop: @escaping @Sendable () -> Void) {
        self.screen = screen.map(ScreenReader.init)
        self.grid = grid
        self.signals = signals
        self.onKey = onKey
        self.onStop = onStop
    }

    package func start() {
        Thread.detachNewThread { [self] in
            let input = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 1)
            defer { input.deallocate() }
            var keys = KeyReader()
            while !stopped.isCancelled {
                if signals.stopRequested { onStop() }
                if signals.takeResized(), let screen { grid?.refresh(from: screen.screen) }
                guard let screen else {
                    Thread.sleep(forTimeInterval: 0.05)
                    continue
                }
                let count = screen.screen.read(into: input, waitingUpTo: 0.05)
                keys.feed(UnsafeRawBufferPointer(rebasing: input[0..<count]), onKey)
            }
            finished.signal()
        }
    }

    /// Stops the thread and waits for it (at most one poll, 50 ms). Idempotent.
    package func stop() {
        guard !stopped.isCancelled else { return }
        stopped.cancel()
        finished.wait()
    }
}

/// The terminal as the input thread holds it. Safety of @unchecked Sendable: the input thread only
/// reads standard input and the window size through it, while the sink thread only writes standard
/// output; those touch no shared state of the screen.
private struct ScreenReader: @unchecked Sendable {
    let screen: TerminalScreen
}
