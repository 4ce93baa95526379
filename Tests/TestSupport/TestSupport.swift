// Helpers shared by the test targets (GraniteTests, MarbleKitTests): a library target of its own so
// that they are written once. Nothing outside Tests/ depends on it.
import Foundation
import Granite
import Synchronization
import Testing

/// Turns a Granite test store's failure into a Swift Testing issue at the store's calling line.
@Sendable public func recordIssue(_ message: String, _ location: GraniteSourceLocation) {
    Issue.record(
        Comment(rawValue: message),
        sourceLocation: SourceLocation(
            fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column))
}

/// A test store whose failures become Swift Testing issues at the calling line (the one factory the
/// test targets' own helpers build on).
public func makeTestStore<C: GraniteCenter>(
    _ center: C, _ initialState: C.State, clock: GraniteTestClock = GraniteTestClock(),
    persistence: GranitePersistence<C.State>? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) -> GraniteTestStore<C> where C.Event: Equatable {
    GraniteTestStore(
        center: center, initialState: initialState, clock: clock, persistence: persistence,
        fileID: fileID, filePath: filePath, line: line, column: column, reportIssue: recordIssue)
}

/// A new, empty folder in the temporary directory.
public func temporaryFolder(prefix: String = "granite-tests") -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Collects values handed over from other threads.
public final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    public init() {}
    public func append(_ value: Value) { values.withLock { $0.append(value) } }
    public var all: [Value] { values.withLock { $0 } }
}

/// Opens once; `wait()` ignores task cancellation on purpose (to model work that cannot be
/// interrupted and still tries to report a result).
public final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    public init() {}

    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let open = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if open { continuation.resume() }
        }
    }

    public var waiterCount: Int { state.withLock { $0.waiters.count } }

    public func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// Polls `condition` every `interval` seconds until it holds or `failsafe` seconds pass; returns
/// whether it held. The one blocking poll of the tests, and only for what another process brings about
/// and tells nothing of (a daemon listening, a file it writes or closes, a window it draws): the
/// deadline guards against a hang and is never a verdict, so it is far beyond any machine's load.
public func pollProcess(failsafe: Double = 60, every interval: Double = 0.02, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(failsafe * 1000))
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        usleep(UInt32(interval * 1e6))  // the poll's interval: the other process offers no notification
    }
    return try condition()
}

/// Polls `condition` until it holds, for what another task or thread brings about without telling (a
/// sleeper registering on a test clock, an effect's result landing). The timeout guards against a
/// hang and is never a verdict: 60 s by default, counted in tries 1 ms apart rather than on the wall
/// clock, so a task the cooperative pool resumes late (its threads held by blocking tests) loses no
/// tries to the wait.
public func eventually(timeout: Duration = .seconds(60), _ condition: () -> Bool) async -> Bool {
    let (seconds, attoseconds) = timeout.components
    let tries = Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000)
    for _ in 0..<tries {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))  // the poll's interval, not a wait for a length of time
    }
    return condition()
}
