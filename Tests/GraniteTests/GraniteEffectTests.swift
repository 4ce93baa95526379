import Granite
import Testing
import TestSupport

/// A search whose results arrive after one second of store-clock time.
struct Search: GraniteCenter {
    struct State: GraniteState {
        var query = ""
        var results: [String] = []
        var isSearching = false
        var failure: String?
    }

    enum Event: Equatable, Sendable {
        case queryChanged(String)
        case resultsLoaded([String])
        case searchFailed(String)
        case cancelTapped
        case failingSearchRequested
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String { "offline" }
    }

    func reduce(state: inout State, event: Event) -> GraniteEffect<Event> {
        switch event {
        case .queryChanged(let query):
            state.query = query
            state.isSearching = true
            return .run(id: "search", cancelInFlight: true) { send in
                try await send.sleep(until: send.startTime + .seconds(1))
                send(.resultsLoaded([query.uppercased()]))
            }
        case .resultsLoaded(let results):
            state.results = results
            state.isSearching = false
            return .none
        case .searchFailed(let message):
            state.failure = message
            state.isSearching = false
            return .none
        case .cancelTapped:
            state.isSearching = false
            return .cancel(id: "search")
        case .failingSearchRequested:
            state.isSearching = true
            return .run { _ in throw Failure() } catch: { error, send in
                send(.searchFailed("\(error)"))
            }
        }
    }
}

/// An effect that cannot be interrupted: it waits on a gate that ignores cancellation, then sends.
struct Stubborn: GraniteCenter {
    struct State: GraniteState { var landed: [Int] = [] }
    enum Event: Equatable, Sendable {
        case started(Int)
        case finished(Int)
        case cancelled
    }
    let gate: Gate
    /// Effects that tried to send their result (whether or not it landed).
    let attempts = Recorder<Int>()

    func reduce(state: inout State, event: Event) -> GraniteEffect<Event> {
        switch event {
        case .started(let n):
            return .run(id: "work") { [gate, attempts] send in
                await gate.wait()
                send(.finished(n))
                attempts.append(n)
            }
        case .finished(let n):
            state.landed.append(n)
            return .none
        case .cancelled:
            return .cancel(id: "work")
        }
    }
}

@Suite struct GraniteEffectTests {
    @Test func effectResultsComeBackAsEvents() async {
        let store = makeTestStore(Search(), .init())
        await store.send(.queryChanged("granite")) {
            $0.query = "granite"
            $0.isSearching = true
        }
        await store.clock.advance(by: .seconds(1))
        await store.receive(.resultsLoaded(["GRANITE"])) {
            $0.results = ["GRANITE"]
            $0.isSearching = false
        }
        await store.finish()
    }

    @Test func cancelInFlightKeepsOnlyTheLatestResult() async {
        let store = makeTestStore(Search(), .init())
        await store.send(.queryChanged("g")) {
            $0.query = "g"
            $0.isSearching = true
        }
        await store.clock.advance(by: .milliseconds(500))
        await store.send(.queryChanged("gr")) { $0.query = "gr" }
        await store.clock.advance(by: .seconds(1))
        await store.receive(.resultsLoaded(["GR"])) {
            $0.results = ["GR"]
            $0.isSearching = false
        }
        await store.finish()
    }

    @Test func cancelledEffectsNeverDeliver() async {
        let store = makeTestStore(Search(), .init())
        await store.send(.queryChanged("g")) {
            $0.query = "g"
            $0.isSearching = true
        }
        await store.send(.cancelTapped) { $0.isSearching = false }
        await store.clock.advance(by: .seconds(5))
        await store.finish()
    }

    @Test func errorsGoToTheCatchHandler() async {
        let store = makeTestStore(Search(), .init())
        await store.send(.failingSearchRequested) { $0.isSearching = true }
        await store.receive(.searchFailed("offline")) {
            $0.failure = "offline"
            $0.isSearching = false
        }
        await store.finish()
    }

    /// The production store: an effect that ignores cancellation still cannot land its result.
    @Test func staleResultsOfUninterruptibleWorkAreDropped() async {
        let gate = Gate()
        let center = Stubborn(gate: gate)
        let store = GraniteStore(center: center, initialState: .init())
        store.send(.started(1))
        #expect(await eventually { gate.waiterCount == 1 }, "the first effect is past its cancellation checks")
        store.send(.cancelled)
        store.send(.started(2))
        #expect(store.runningEffectCount == 1)
        gate.open()
        #expect(await eventually { center.attempts.all.count == 2 })
        #expect(store.state.landed == [2])
    }

    @Test func stopCancelsInFlightEffects() async {
        let gate = Gate()
        let center = Stubborn(gate: gate)
        let store = GraniteStore(center: center, initialState: .init())
        store.start()
        store.send(.started(1))
        #expect(await eventually { gate.waiterCount == 1 })
        store.stop()
        #expect(store.runningEffectCount == 0)
        gate.open()
        #expect(await eventually { center.attempts.all.count == 1 })
        #expect(store.state.landed == [])
    }

    @Test func droppingTheStoreCancelsItsEffects() async {
        struct Sleeper: GraniteCenter {
            struct State: GraniteState {}
            enum Event: Sendable { case started }
            let outcome: Recorder<String>
            func reduce(state: inout State, event: Event) -> GraniteEffect<Event> {
                .run { [outcome] send in
                    do {
                        try await send.sleep(until: .seconds(3_600))
                        outcome.append("woke")
                    } catch {
                        outcome.append("cancelled")
                    }
                }
            }
        }
        let outcome = Recorder<String>()
        let clock = GraniteTestClock()
        var store: GraniteStore<Sleeper>? = GraniteStore(
            center: Sleeper(outcome: outcome), initialState: .init(), clock: clock)
        store?.send(.started)
        #expect(await eventually { clock.sleeperCount == 1 })
        store = nil
        #expect(await eventually { outcome.all == ["cancelled"] })
    }

    /// Granite's bug was an async reducer writing back a snapshot taken before its await. Here the
    /// result is a new event reduced on the state current when it arrives: nothing is lost.
    @Test func effectResultsDoNotOverwriteChangesMadeMeanwhile() async {
        let clock = GraniteTestClock()
        let store = GraniteStore(center: Search(), initialState: .init(), clock: clock)
        store.send(.queryChanged("a"))
        store.send(.searchFailed("transient"))
        await clock.advance(by: .seconds(1))
        #expect(await eventually { store.state.results == ["A"] })
        #expect(store.state.failure == "transient")
        #expect(store.state.query == "a")
    }
}
