import Granite
import Testing
import TestSupport

/// Logs every step so that the before → self → after order is visible.
struct Chain: GraniteCenter {
    struct State: GraniteState { var log: [String] = [] }

    enum Event: Equatable, Sendable {
        case step(String)
        case chained
        case nested(String)
    }

    struct Chained: GraniteReducer {
        typealias Center = Chain
        var before: [Chain.Event] { [.step("before-1"), .nested("inner")] }
        var after: [Chain.Event] { [.step("after-1"), .step("after-2")] }
        func reduce(state: inout Chain.State) -> GraniteEffect<Chain.Event> {
            state.log.append("self")
            return .none
        }
    }

    struct Nested: GranitePayloadReducer {
        typealias Center = Chain
        func before(_ name: String) -> [Chain.Event] { [.step("\(name)-before")] }
        func after(_ name: String) -> [Chain.Event] { [.step("\(name)-after")] }
        func reduce(state: inout Chain.State, payload name: String) -> GraniteEffect<Chain.Event> {
            state.log.append(name)
            return .none
        }
    }

    func reduce(state: inout State, event: Event) -> GraniteEffect<Event> {
        switch event {
        case .step(let name):
            state.log.append(name)
            return .none
        case .chained:
            return fire(Chained(), on: &state)
        case .nested(let name):
            return fire(Nested(), payload: name, on: &state)
        }
    }
}

@Suite struct GraniteReducerTests {
    @Test func beforeSelfAfterRunDepthFirstInOneCommit() async {
        let store = makeTestStore(Chain(), .init())
        await store.send(.chained) {
            $0.log = ["before-1", "inner-before", "inner", "inner-after", "self", "after-1", "after-2"]
        }
        await store.finish()
    }

    @Test func aChainIsOneNotification() {
        let store = GraniteStore(center: Chain(), initialState: .init())
        let seen = Recorder<Int>()
        let subscription = store.subscribe(receiveCurrent: false) { seen.append($0.log.count) }
        store.send(.chained)
        #expect(seen.all == [7])
        #expect(store.commitCount == 1)
        subscription.cancel()
    }

    @Test func payloadReducerReceivesItsPayload() async {
        let store = makeTestStore(Chain(), .init())
        await store.send(.nested("x")) { $0.log = ["x-before", "x", "x-after"] }
        await store.finish()
    }
}
