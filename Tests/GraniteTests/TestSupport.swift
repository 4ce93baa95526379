import Foundation
import Granite
import Synchronization
import Testing

/// A test store whose failures become Swift Testing issues at the calling line.
func makeTestStore<C: GraniteCenter>(
    _ center: C, _ initialState: C.State, clock: GraniteTestClock = GraniteTestClock(),
    persistence: GranitePersistence<C.State>? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) -> GraniteTestStore<C> where C.Event: Equatable {
    GraniteTestStore(
        center: center, initialState: initialState, clock: clock, persistence: persistence,
        fileID: fileID, filePath: filePath, line: line, column: column, reportIssue: recordIssue)
}

@Sendable func recordIssue(_ message: String, _ location: GraniteSourceLocation) {
    Issue.record(
        Comment(rawValue: message),
        sourceLocation: SourceLocation(
            fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column))
}

/// Collects values handed over from other threads.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

/// Opens once; `wait()` ignores task cancellation on purpose (to model work that cannot be
/// interrupted and still tries to report a result).
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let open = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if open { continuation.resume() }
        }
    }

    var waiterCount: Int { state.withLock { $0.waiters.count } }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// Polls `condition` (real time, as a guard against I/O that completes on another task).
func eventually(timeout: Duration = .seconds(2), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}

func temporaryFolder() -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("granite-tests-\(UUID().uuidString)", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A counter used across the suites.
struct Counter: GraniteCenter {
    struct State: GraniteState {
        var count = 0
        var label = ""
    }

    enum Event: Equatable, Sendable {
        case incremented
        case decremented
        case labelled(String)
        case ignored
    }

    var onStart: [Event] { [.labelled("started")] }
    var onStop: [Event] { [.labelled("stopped")] }

    func reduce(state: inout State, event: Event) -> GraniteEffect<Event> {
        switch event {
        case .incremented: state.count += 1
        case .decremented: state.count -= 1
        case .labelled(let label): state.label = label
        case .ignored: break
        }
        return .none
    }
}
