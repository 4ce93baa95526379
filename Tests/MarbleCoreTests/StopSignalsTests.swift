import Foundation
import MarbleCore
import Synchronization
import Testing

/// The stop signals reach the watcher whichever thread the kernel hands them to, and a SIGPIPE the
/// process raises on itself (its own broken connection) does not.
@Suite("StopSignals", .serialized)
struct StopSignalsTests {
    /// The signals the watcher saw, and a semaphore per arrival.
    final class Seen: Sendable {
        let numbers = Mutex<[Int32]>([])
        let arrived = DispatchSemaphore(value: 0)
        func record(_ sig: Int32) { numbers.withLock { $0.append(sig) }; arrived.signal() }
    }

    /// Sends `sig` to this process from another one (`kill -SIG PID`), as a scheduler or a shell does.
    static func sendFromOutside(_ sig: Int32) throws {
        let kill = Process()
        kill.executableURL = URL(fileURLWithPath: "/bin/kill")
        kill.arguments = ["-\(sig)", "\(getpid())"]
        try kill.run()
        kill.waitUntilExit()
        #expect(kill.terminationStatus == 0)
    }

    @Test("SIGUSR1, SIGALRM and SIGPIPE from another process reach the watcher; the watch's end restores the defaults")
    func fromOutside() throws {
        let seen = Seen()
        let watch = StopSignals.watch { seen.record($0) }
        for sig in [SIGUSR1, SIGALRM, SIGPIPE] {
            try Self.sendFromOutside(sig)
            // The failsafe only guards against a hang: the verdict is what arrived.
            #expect(seen.arrived.wait(timeout: .now() + 60) == .success, "signal \(sig) never arrived")
        }
        watch.stop()
        #expect(seen.numbers.withLock { $0 } == [SIGUSR1, SIGALRM, SIGPIPE])
        var action = sigaction()
        sigaction(SIGUSR1, nil, &action)
        #expect(action.__sigaction_handler.sa_handler == nil, "SIGUSR1 is back to its default")  // SIG_DFL is 0
    }

    @Test("a SIGPIPE the process raises on itself (a write into a broken pipe) is not a stop request: the write gets EPIPE")
    func ownBrokenPipe() throws {
        let seen = Seen()
        let watch = StopSignals.watch { seen.record($0) }
        defer { watch.stop() }
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        close(fds[0])
        var byte: UInt8 = 1
        let n = write(fds[1], &byte, 1)
        let error = errno
        close(fds[1])
        #expect(n == -1 && error == EPIPE)
        // Then a signal from outside: the watcher sees it, and only it.
        try Self.sendFromOutside(SIGUSR2)
        #expect(seen.arrived.wait(timeout: .now() + 60) == .success)
        #expect(seen.numbers.withLock { $0 } == [SIGUSR2])
    }
}
