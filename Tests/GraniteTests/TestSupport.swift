import Foundation
import Granite
import Synchronization
import Testing
import TestSupport

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
