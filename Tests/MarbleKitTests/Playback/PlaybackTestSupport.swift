import Foundation
import Granite
import MarbleKit
import Synchronization
import Testing

/// A player test store whose failures become Swift Testing issues.
func makePlayerTestStore(
    presets: [String] = ["aura", "granite", "vinyl"],
    settings: PlayerSettings = PlayerSettings(),
    client: PlayerClient,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) -> GraniteTestStore<PlayerComponent.Center> {
    GraniteTestStore(
        center: PlayerComponent.Center(availablePresets: presets, client: client),
        initialState: PlayerComponent.initialState(availablePresets: presets, settings: settings),
        fileID: fileID, filePath: filePath, line: line, column: column,
        reportIssue: { message, location in
            Issue.record(
                Comment(rawValue: message),
                sourceLocation: SourceLocation(
                    fileID: location.fileID, filePath: location.filePath, line: location.line,
                    column: location.column))
        })
}

/// Values handed over from other threads.
final class Collected<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

/// Opens once; waiting ignores cancellation (like a demuxer that cannot be interrupted).
final class Latch: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    var waiterCount: Int { state.withLock { $0.waiters.count } }

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

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

struct MediaError: Error, CustomStringConvertible {
    let description: String
}

/// Real time, only as a guard for work finishing on another task.
func eventually(timeout: Duration = .seconds(2), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}
