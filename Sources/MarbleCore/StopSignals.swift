import Foundation

/// The signals that ask a job to stop cleanly, and the one way to watch them: `render`, `join`, `play`
/// and `live` all stop on the same set, so no command dies mid-write on a signal another one handles.
///
/// The set: SIGINT (Ctrl-C), SIGTERM, SIGHUP (the terminal closed), SIGQUIT, SIGUSR1, SIGUSR2 and
/// SIGALRM (schedulers and shells send them; each one's default ends the process at once, leaving a
/// `.NAME.partial-TAG` behind), and SIGPIPE sent by another process. The process's own broken
/// connections must not stop a job: FFmpeg's and PulseAudio's sockets send with `MSG_NOSIGNAL`, and
/// the frame pipeline's sink threads block SIGPIPE (a window whose X server died gets EPIPE, which
/// Xlib reports as a lost connection, and the sink fails alone; see `SinkWorker`).
package enum StopSignals {
    /// The stop signals, in the order their handlers are installed.
    package static let numbers: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE]

    /// Ignores each stop signal's default action and calls `onSignal` (on a dispatch queue) when one
    /// arrives. The handlers stay while the returned sources are alive and not cancelled; see
    /// ``stopWatching(_:)``.
    package static func watch(_ onSignal: @escaping @Sendable (Int32) -> Void) -> [any DispatchSourceSignal] {
        numbers.map { sig in
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { onSignal(sig) }
            source.resume()
            return source
        }
    }

    /// Cancels `sources` and gives the stop signals their default actions back (SIGPIPE is left
    /// ignored: a thread still finishing a write must get EPIPE, not end the process).
    package static func stopWatching(_ sources: [any DispatchSourceSignal]) {
        for source in sources { source.cancel() }
        for sig in numbers { signal(sig, sig == SIGPIPE ? SIG_IGN : SIG_DFL) }
    }

    /// Blocks SIGPIPE on the calling thread, for threads that write to connections of their own (a
    /// sink's): a broken connection is then the write's EPIPE, for the writer to handle, and never a
    /// stop request for the whole job.
    package static func blockBrokenPipeOnThisThread() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }
}
