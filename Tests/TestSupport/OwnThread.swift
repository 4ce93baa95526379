import Dispatch
import Foundation
import Synchronization
import Testing

/// Runs each test of a suite (or each case of a test) on a thread of its own instead of the
/// cooperative pool: `@Suite(..., .ownThread)`.
///
/// Why: Swift Testing runs tests as tasks on the cooperative pool, which has one thread per core (two
/// here). A test that waits synchronously on another process (`waitUntilExit`, a pipe read, a poll of
/// what a daemon does, seconds of real time for a live run) idles one of those threads for as long,
/// and the CPU-bound tests queue behind it. With this trait the test's task prefers an executor
/// backed by a dedicated thread (SE-0417 task executors): its body, synchronous or not, runs there
/// from start to end, so it blocks that thread and never the pool. Its timing is what it was: the
/// thread serves that test alone, so nothing it waits for is delayed by other tests' work (an async
/// wait would instead resume only once a pool thread is free).
///
/// The threads are ``lanes`` long-lived ones, each running one test at a time: a test waits its turn
/// suspended (holding no thread), so the number of child processes the tests drive at once stays
/// bounded; and no thread ends while the tests run. (A thread that ends while the malloc interposer
/// the tests link is counting corrupts the heap: the interposer frees the thread's counter block in
/// a thread-exit destructor and then counts the thread's last frees into it.)
public struct OwnThread: SuiteTrait, TestTrait, TestScoping {
    /// How many tests run on threads of their own at once, in the whole process: three times the
    /// pool's threads (one per core), as these tests mostly wait; with as many as the pool, they were
    /// the suite's tail, two at a time, long after the pool had run out of work, and with twice as many
    /// the two cores were still idle a third of the time (the whole suite: 222 s, against 178 s now).
    public static let lanes = 3 * ProcessInfo.processInfo.activeProcessorCount
    private static let threads = Lanes((0..<lanes).map { _ in ThreadExecutor() })

    public var isRecursive: Bool { true }

    /// Each test case, not the suite around them (the suite's own scope waits on nothing).
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        let thread = await Self.threads.acquire()
        defer { Self.threads.release(thread) }
        try await withTaskExecutorPreference(thread) { try await function() }
    }
}

extension OwnThread {
    /// Whether the caller runs on one of the threads of ``OwnThread`` (synchronous: asked of the
    /// thread itself).
    public static var isRunningOnOwnThread: Bool {
        let me = pthread_self()
        return ThreadExecutor.running.withLock { $0.contains(me) }
    }
}

extension Trait where Self == OwnThread {
    /// Each test on a thread of its own, never the cooperative pool's (see ``OwnThread``).
    public static var ownThread: Self { OwnThread() }
}

/// A task executor that runs its jobs, in order, on one Foundation thread of its own, which lives as
/// long as the process.
///
/// Thread safety: the queue is behind a mutex; the semaphore counts the jobs queued, so the thread
/// wakes once for each.
final class ThreadExecutor: TaskExecutor {
    private let jobs = Mutex<[UnownedJob]>([])
    private let wake = DispatchSemaphore(value: 0)

    /// The threads of all executors (`pthread_self()`), for ``OwnThread/isRunningOnOwnThread``.
    static let running = Mutex<Set<pthread_t>>([])

    init() {
        let thread = Thread { [self] in run() }
        thread.stackSize = 8 << 20  // as a pool thread's: test bodies recurse like any other code
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        wake.signal()
    }

    private func run() -> Never {
        Self.running.withLock { _ = $0.insert(pthread_self()) }
        while true {
            wake.wait()
            let next = jobs.withLock { $0.removeFirst() }
            next.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Hands out executors to tasks, one task each at a time: `acquire` suspends (holding no thread) until
/// one is free. Waiters are served first come, first served.
final class Lanes: Sendable {
    private let state: Mutex<(free: [ThreadExecutor], waiters: [CheckedContinuation<ThreadExecutor, Never>])>

    init(_ executors: [ThreadExecutor]) { state = Mutex((executors, [])) }

    func acquire() async -> ThreadExecutor {
        await withCheckedContinuation { (continuation: CheckedContinuation<ThreadExecutor, Never>) in
            let free = state.withLock { state -> ThreadExecutor? in
                if let executor = state.free.popLast() { return executor }
                state.waiters.append(continuation)
                return nil
            }
            if let free { continuation.resume(returning: free) }
        }
    }

    /// Hands `executor` to the first waiter, or frees it.
    func release(_ executor: ThreadExecutor) {
        let next = state.withLock { state -> CheckedContinuation<ThreadExecutor, Never>? in
            if state.waiters.isEmpty {
                state.free.append(executor)
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume(returning: executor)
    }
}
