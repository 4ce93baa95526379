import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The signals that ask a job to stop cleanly, and the one way to watch them: `render`, `join`, `play`
/// and `live` all stop on the same set, so no command dies mid-write on a signal another one handles.
///
/// The set: SIGINT (Ctrl-C), SIGTERM, SIGHUP (the terminal closed), SIGQUIT, SIGUSR1, SIGUSR2 and
/// SIGALRM (schedulers and shells send them; each one's default ends the process at once, leaving a
/// `.NAME.partial-TAG` behind), and SIGPIPE sent by another process. The process's own broken
/// connections never stop a job: the kernel sends their SIGPIPE from this process itself, which the
/// handler tells apart (`si_pid`) and leaves to the write's EPIPE.
///
/// How: a plain `sigaction` handler (on whichever thread the kernel picks) writes the signal's number
/// into a pipe, and one thread reads the pipe and calls the watcher. Nothing depends on which threads
/// block what (dispatch's signal sources on Linux read a `signalfd`, which sees a signal only while
/// every thread blocks it: under load one was lost now and then).
package enum StopSignals {
    /// The stop signals, in the order their handlers are installed.
    package static let numbers: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE]

    /// A watch in force: the handlers stay until ``stop()`` (or until it goes away).
    package final class Watch: Sendable {
        fileprivate init() {}
        /// Gives the stop signals their default actions back (SIGPIPE stays ignored: a thread still
        /// finishing a write must get EPIPE, not end the process), unless a newer watch replaced this one.
        package func stop() { StopSignals.uninstall(self) }
        deinit { stop() }
    }

    /// Calls `onSignal` (on the signal thread) each time a stop signal arrives, until the returned
    /// watch is stopped. One watch at a time: a new one replaces the one before.
    package static func watch(_ onSignal: @escaping @Sendable (Int32) -> Void) -> Watch {
        _ = SignalPipe.shared  // the pipe exists before any handler can write into it
        let watch = Watch()
        watcher.withLock { $0 = (ObjectIdentifier(watch), onSignal) }
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = stopSignalHandler
        action.sa_flags = SA_SIGINFO | SA_RESTART
        sigemptyset(&action.sa_mask)
        for sig in numbers { sigaction(sig, &action, nil) }
        return watch
    }

    private static let watcher = Mutex<(owner: ObjectIdentifier, call: @Sendable (Int32) -> Void)?>(nil)

    private static func uninstall(_ watch: Watch) {
        let mine = watcher.withLock { current -> Bool in
            guard current?.owner == ObjectIdentifier(watch) else { return false }
            current = nil
            return true
        }
        if mine { for sig in numbers { signal(sig, sig == SIGPIPE ? SIG_IGN : SIG_DFL) } }
    }

    /// The pipe the handler writes into and the thread that reads it, made once.
    private final class SignalPipe: Sendable {
        static let shared = SignalPipe()

        private init() {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { return }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            // Never blocks a handler: a full pipe (thousands of unread signals) drops the newest.
            _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
            stopSignalWriteEnd = fds[1]
            let readEnd = fds[0]
            let thread = Thread {
                var number: Int32 = 0
                while true {
                    let n = read(readEnd, &number, MemoryLayout<Int32>.size)
                    if n == MemoryLayout<Int32>.size {
                        if let call = StopSignals.watcher.withLock({ $0?.call }) { call(number) }
                    } else if n < 0 && errno == EINTR {
                        continue
                    } else {
                        return
                    }
                }
            }
            thread.name = "marble-signals"
            thread.start()
        }
    }
}

/// The pipe's write end, for the signal handler. Safety: written once, before any handler is installed
/// (`SignalPipe.init`, inside `watch`), and only read afterwards; an `Int32` load is async-signal-safe.
private nonisolated(unsafe) var stopSignalWriteEnd: Int32 = -1

/// Writes the signal's number into the pipe, unless it is a SIGPIPE this process raised on itself
/// (a write into a broken connection: the writer handles its EPIPE). Only async-signal-safe calls;
/// `errno` is kept for the interrupted code.
private func stopSignalHandler(_ sig: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
    if sig == SIGPIPE, let info, info.pointee._sifields._kill.si_pid == getpid() { return }
    let saved = errno
    var number = sig
    _ = write(stopSignalWriteEnd, &number, MemoryLayout<Int32>.size)
    errno = saved
}

extension StopSignals {
    /// Blocks SIGPIPE on the calling thread, for threads that write to connections of their own (a
    /// sink's): a broken connection is then only the write's EPIPE for the writer to handle (the
    /// handler would ignore it anyway: see ``StopSignals``), and the kernel never picks this thread
    /// for a SIGPIPE another process sends.
    package static func blockBrokenPipeOnThisThread() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }
}
