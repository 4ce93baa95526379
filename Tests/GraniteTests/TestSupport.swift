import Granite

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
