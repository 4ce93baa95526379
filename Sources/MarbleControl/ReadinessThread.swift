import Foundation
import Glibc
import Synchronization

/// A thread that sleeps in `poll` until a file descriptor is readable, then calls its handler, until
/// ``stop()``: a byte in a pipe wakes it, so it stops at once and never polls on a timer. Used by the OSC
/// listener (a UDP socket) and the file watcher (an inotify descriptor).
final class ReadinessThread: Sendable {
    /// The pipe's read end (polled) and write end (written by `stop`).
    private let wake: (read: Int32, write: Int32)
    private let running = Mutex(false)
    private let done = DispatchSemaphore(value: 0)

    init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 { for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) } }
        wake = (fds[0], fds[1])
    }

    deinit {
        close(wake.read)
        close(wake.write)
    }

    /// Starts the thread, named `name`: `readable` runs on it each time `fd` has data.
    func start(name: String, fd: Int32, readable: @escaping @Sendable () -> Void) {
        let wake = self.wake.read
        let thread = Thread { [done] in
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            while true {
                let ready = poll(&fds, 2, -1)
                if ready < 0 && errno == EINTR { continue }
                if ready < 0 || fds[1].revents != 0 { break }
                if fds[0].revents != 0 { readable() }
            }
            done.signal()
        }
        thread.name = name
        running.withLock { $0 = true }
        thread.start()
    }

    /// Wakes the thread, which ends, and waits for it (idempotent; nothing happens if it never started).
    func stop() {
        let started = running.withLock { running -> Bool in defer { running = false }; return running }
        guard started else { return }
        var one: UInt8 = 1
        _ = write(wake.write, &one, 1)
        done.wait()
    }
}
